// @check bounds
// @run k g=64 l=16 : buf(508)
// @report global id (63), local id (15), group id (3)
// A compound assignment in the lanes at every other element: the last
// work-item's read and write one element past the end are both reported
// (the write takes the read's verdict on the same addresses, and its own
// slow path when the read's test failed).
kernel void k(global int *out)
{
    size_t i = get_global_id(0);
    out[2 * i + 1] += 1; //! invalid-read invalid-write
    out[2 * i] += 2;
}
