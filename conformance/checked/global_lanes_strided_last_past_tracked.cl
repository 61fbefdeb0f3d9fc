// @check all
// @run k g=64 l=16 : buf(508)
// @report global id (63), local id (15), group id (3)
// Lanes at every other element under races and uninit too (their shadow
// is tested with the bounds): the last work-item writes one element past
// the end while the first of its step is inside, so the step's test of
// its first and last lanes must find it (and no tag is stored past the
// object's shadow).
kernel void k(global int *out)
{
    size_t i = get_global_id(0);
    out[2 * i + 1] = 1; //! invalid-write
}
