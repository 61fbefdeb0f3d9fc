// @check bounds
// @run k g=8 l=8 : buf(32)
constant int table[4] = {1, 2, 3, 4};
kernel void k(global int *out)
{
    size_t i = get_global_id(0);
    constant int *p = table;
    out[i] = p[i + 200]; //! invalid-read
}
