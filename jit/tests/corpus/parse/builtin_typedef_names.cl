// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global size_t *a, global ptrdiff_t *b, global intptr_t *c, global uintptr_t *d)
{
    size_t i = get_global_id(0);
    ptrdiff_t diff = &a[1] - &a[0];
    a[i] = i;
    b[i] = diff;
    c[i] = (intptr_t)diff;
    d[i] = (uintptr_t)i;
}
