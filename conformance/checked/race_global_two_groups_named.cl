// @check races
// @run k g=8 l=4 : buf(64)
// @report work-group 0
// @report work-group 1
// Two work-groups write the same word: the report names both groups,
// whichever ran first (the launch's log of groups, kept in shards, gives the
// other group's id).
kernel void k(global int *out)
{
    if (get_local_id(0) == 0)
        out[0] = get_group_id(0); //! race
}
