// @check bounds
// @run k g=16,16 l=16,16 : buf(1024)
// Row subscripts the loops do not change, past the tile for some
// work-items: the test before each loop fails and its checked copy runs,
// but those work-items never read the row (a loop that runs no iteration,
// a read under a condition that does not hold): nothing is reported.
kernel void k(global float *out)
{
    local float tile[16][16];
    uint c = get_local_id(0);
    uint r = get_local_id(1);
    tile[r][c] = (float)(r + c);
    barrier(CLK_LOCAL_MEM_FENCE);
    uint row = r + 8;
    uint n = row < 16 ? 16 : 0;
    float acc = 0.0f;
    for (uint k = 0; k < n; k++)
        acc += tile[row][k];
    for (uint k = 0; k < 16; k++)
        if (row < 16)
            acc += tile[row][k];
    out[r * 16 + c] = acc;
}
