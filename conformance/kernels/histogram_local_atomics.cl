// @buf in uchar 16384 randbits
// @buf hist uint 256 zero
// @run hist g=4096 l=256 : in hist
// @check hist histogram256
kernel void hist(global const uchar *in, global uint *hist) {
    local uint h[256];
    int l = get_local_id(0);
    h[l] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int j = 0; j < 4; j++) atomic_inc(&h[in[get_global_id(0) * 4 + j]]);
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_add(&hist[l], h[l]);
}
