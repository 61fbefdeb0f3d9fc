// @check bounds
// @run k g=64 l=16 : buf(256)
// Lanes (four work-items per step) in a divergent branch, at addresses that
// are not consecutive, so each lane accesses its own: the last work-items
// read and write past the end; the lanes that do not take the branch touch
// nothing.
kernel void k(global int *out)
{
    int i = get_global_id(0);
    if (i > 60) {
        int x = out[2 * i - 61]; //! invalid-read
        out[2 * i - 60] = x; //! invalid-write
    }
    out[(i & ~3) + 3 - (i & 3)] = i;
}
