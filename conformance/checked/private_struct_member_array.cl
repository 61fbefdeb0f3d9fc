// @check bounds
// @run k g=8 l=8 : buf(32)
typedef struct { int v[4]; int tail; } rec;
kernel void k(global int *out)
{
    rec r;
    int i = get_global_id(0);
    for (int j = 0; j < 4; j++)
        r.v[j] = j;
    r.tail = 9;
    out[i] = r.v[i]; //! index
}
