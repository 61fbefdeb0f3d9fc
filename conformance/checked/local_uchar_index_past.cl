// @check bounds
// @run k g=16 l=16 : buf(64)
// @report index 255 is outside the bounds of the array 'bins' of 255 elements
// @report global id (15), local id (15), group id (0)
// A `uchar` index always lies inside an array of 256 elements, so no test
// is made there; in this array of 255, 255 is one past the end.
kernel void k(global uint *out)
{
    local uint bins[255];
    uint i = get_global_id(0);
    uchar c = (uchar)(i * 17);
    bins[c] = i; //! index
    barrier(CLK_LOCAL_MEM_FENCE);
    out[i] = bins[i];
}
