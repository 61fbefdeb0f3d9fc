// RUN: -cl-std=CL1.2
// EXPECT: ok
#define WG 128
__attribute__((reqd_work_group_size(WG, 1, 1)))
kernel void minmax(global const float *in, global float2 *out, uint n)
{
    local float lo[WG], hi[WG];
    uint lid = get_local_id(0);
    float mn = INFINITY, mx = -INFINITY;
    for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {
        mn = fmin(mn, in[i]);
        mx = fmax(mx, in[i]);
    }
    lo[lid] = mn; hi[lid] = mx;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = WG / 2; s > 0; s /= 2) {
        if (lid < s) {
            lo[lid] = fmin(lo[lid], lo[lid + s]);
            hi[lid] = fmax(hi[lid], hi[lid + s]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) out[get_group_id(0)] = (float2)(lo[0], hi[0]);
}
