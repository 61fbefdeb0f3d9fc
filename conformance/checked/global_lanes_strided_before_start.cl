// @check bounds
// @run k g=64 l=16 : buf(512)
// @report global id (63), local id (15), group id (3)
// Lanes stepping down by two elements: the last work-item writes one
// element before the start while the first of its step is inside.
kernel void k(global int *out)
{
    int i = get_global_id(0);
    out[125 - 2 * i] = i; //! invalid-write
}
