// @check races
// @run k g=4096 l=1 : buf(8192)
// Groups of one work-item run many to a call: each group still has its
// own serials, so two neighbouring groups of one run writing one element
// race (groups 2j and 2j + 1 write element j).
kernel void k(global int *out)
{
    size_t i = get_global_id(0);
    out[i / 2] = (int)i; //! race
}
