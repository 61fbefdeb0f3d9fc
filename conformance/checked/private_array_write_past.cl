// @check bounds
// @run k g=16 l=16 : buf(64)
kernel void k(global int *out)
{
    int acc[4];
    for (int j = 0; j <= 4; j++)
        acc[j] = j; //! index
    out[get_global_id(0)] = acc[0];
}
