// @check bounds
// @run k g=16 l=16 : buf(64)
kernel void k(global int *out)
{
    int m[4][4];
    int i = get_global_id(0);
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++)
            m[r][c] = r + c;
    out[i] = m[i % 4][i / 4 + 1]; //! index
}
