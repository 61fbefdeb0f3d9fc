// @check all
// @run k g=64 l=16 : buf(256)
// Reads at a stride of two elements that several work-items make of one
// element in one interval, then each work-item's writes at that stride
// after a barrier: no race, nothing uninitialised.
kernel void k(global int *out)
{
    local int tile[32];
    int l = get_local_id(0);
    tile[2 * l] = l;
    tile[2 * l + 1] = 2 * l;
    barrier(CLK_LOCAL_MEM_FENCE);
    int a = tile[2 * (l % 4)] + tile[2 * (l % 4)];
    int b = tile[2 * (l / 4) + 1];
    barrier(CLK_LOCAL_MEM_FENCE);
    tile[2 * l] = a;
    tile[2 * l + 1] = b;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tile[2 * l] + tile[2 * l + 1];
}
