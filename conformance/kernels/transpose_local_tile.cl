// @buf in float 6144 rand
// @buf out float 6144 zero
// @run tr g=96,64 l=16,16 : in out int(96) int(64)
// @check out transpose96x64
kernel void tr(global const float *in, global float *out, int w, int h) {
    local float tile[16][17];
    int x = get_global_id(0), y = get_global_id(1);
    tile[get_local_id(1)][get_local_id(0)] = in[y * w + x];
    barrier(CLK_LOCAL_MEM_FENCE);
    int ox = get_group_id(1) * 16 + get_local_id(0);
    int oy = get_group_id(0) * 16 + get_local_id(1);
    out[oy * h + ox] = tile[get_local_id(0)][get_local_id(1)];
}
