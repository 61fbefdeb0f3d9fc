// @buf in float 16384 rand(0,1)
// @buf mid float 64 zero
// @buf out float 1 zero
// @run reduce g=16384 l=256 : in mid
// @run reduce g=64 l=64 : mid out
// @check out total_sum tol=1e-4
kernel void reduce(global const float *in, global float *out) {
    local float t[256];
    size_t l = get_local_id(0);
    t[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (l < s) t[l] += t[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) out[get_group_id(0)] = t[0];
}
