// @check all
// @run k g=16 l=16 : buf(64)
int pick(int c)
{
    int r;
    if (c > 3)
        r = c;
    return r; //! uninit
}

kernel void k(global int *out)
{
    int l = get_local_id(0);
    out[get_global_id(0)] = pick(l);
}
