// @check bounds
// @run k g=16,16 l=16,16 : buf(1024)
// A counted loop whose bound passes the tile's row: the subscript `k` is
// known inside [0, 17) only, so it is still tested (and the element
// `tile[r][k]`, whose subscripts are tested, needs no address test).
kernel void k(global float *out)
{
    local float tile[16][16];
    uint c = get_local_id(0);
    uint r = get_local_id(1);
    tile[r][c] = (float)(r + c);
    barrier(CLK_LOCAL_MEM_FENCE);
    float acc = 0.0f;
    for (uint k = 0; k < 17; k++)
        acc += tile[r][k]; //! index
    out[r * 16 + c] = acc;
}
