// @check bounds
// @run k g=64 l=16 : buf(256)
void store(global int *p, int at, int v)
{
    p[at] = v; //! invalid-write
}
kernel void k(global int *out)
{
    int i = get_global_id(0);
    store(out, i + 3, i);
}
