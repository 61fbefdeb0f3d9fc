// STREAM triad: a[i] = b[i] + s * c[i], one work-item per element.
kernel void triad(global float *a, global const float *b, global const float *c, float s)
{
    size_t i = get_global_id(0);
    a[i] = b[i] + s * c[i];
}
