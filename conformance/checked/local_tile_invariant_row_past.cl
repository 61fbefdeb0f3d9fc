// @check bounds
// @run k g=16,16 l=16,16 : buf(1024)
// A row subscript the loops do not change, tested once before each loop:
// for the last row it is past the tile, so those loops run their checked
// copies and report the reads (the other rows run the copies without the
// test). The first loop is the same for the four work-items of a step, the
// second differs between them (the lanes' own loop).
kernel void k(global float *out)
{
    local float tile[16][16];
    uint c = get_local_id(0);
    uint r = get_local_id(1);
    tile[r][c] = (float)(r + c);
    barrier(CLK_LOCAL_MEM_FENCE);
    uint row = r + (r == 15 ? 1 : 0);
    float acc = 0.0f;
    for (uint k = 0; k < 16; k++)
        acc += tile[row][k]; //! index
    float acc2 = 0.0f;
    for (uint k = 0; k < 16; k++)
        acc2 += tile[row][k] * (float)c; //! index
    out[r * 16 + c] = acc + acc2;
}
