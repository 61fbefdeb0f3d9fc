// RUN: -cl-std=CL2.0
// EXPECT: ok
// one generic function used with global, local and private data
int sum(const int *p, int n)
{
    int s = 0;
    for (const int *q = p; q < p + n; ++q) s += *q;
    return s;
}
kernel void k(global int *g, local int *l, global int *out)
{
    int priv[4] = { 1, 2, 3, 4 };
    l[get_local_id(0)] = g[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = sum(g, 4) + sum(l, 4) + sum(priv, 4);
}
