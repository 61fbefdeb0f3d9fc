// @check bounds
// @run k g=8 l=8 : buf(32)
// @report index 4 is outside the bounds of the array 'table' of 4 elements
// @report global id (4), local id (4), group id (0)
// @report reported 4 times at this place
constant int table[4] = {1, 2, 3, 4};
kernel void k(global int *out)
{
    size_t i = get_global_id(0);
    out[i] = table[i]; //! index
}
