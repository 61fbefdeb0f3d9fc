// @check uninit
// @run k g=8 l=8 : buf(32)
kernel void k(global int *out)
{
    int gid = get_global_id(0);
    int a[4];
    for (int i = 0; i < 3; i++)
        a[i] = i * gid;
    out[gid] = a[0] + a[1] +
               a[3]; //! uninit
}
