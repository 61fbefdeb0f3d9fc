// @check bounds
// @run k g=64 l=16 : buf(256) int(1)
kernel void k(global int *out, int k)
{
    int a[8];
    for (int j = 0; j < 8; j++)
        a[j] = j;
    int i = get_global_id(0);
    out[i] = a[i % 8 + k]; //! index
}
