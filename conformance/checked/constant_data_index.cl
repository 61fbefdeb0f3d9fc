// @check bounds
// @run k g=8 l=8 : buf(32)
// @report index 7 is outside the bounds of the array 'table' of 4 elements
// @report global id (7), local id (7), group id (0)
constant int table[4] = {1, 2, 3, 4};
kernel void k(global int *out)
{
    size_t i = get_global_id(0);
    out[i] = table[i]; //! index
}
