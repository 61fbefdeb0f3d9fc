// @buf in int 1024 rand
// @buf out int 16 zero
// @run k g=32,32 l=8,8 : in out
// @check out tile_sums_8x8
// A 2-D work-group sums its 8x8 tile through local memory, row then column.
kernel void k(global const int *in, global int *out) {
    local int t[8][8];
    local int rows[8];
    int lx = get_local_id(0), ly = get_local_id(1);
    t[ly][lx] = in[get_global_id(1) * 32 + get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lx == 0) { int s = 0; for (int x = 0; x < 8; x++) s += t[ly][x]; rows[ly] = s; }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lx == 0 && ly == 0) {
        int s = 0;
        for (int y = 0; y < 8; y++) s += rows[y];
        out[get_group_id(1) * 4 + get_group_id(0)] = s;
    }
}
