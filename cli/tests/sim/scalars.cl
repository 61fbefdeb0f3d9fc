kernel void scalars(int k, float4 v, uint mask, double d, long big,
                    global const int *in, global float *out,
                    global long *lout, global double *dout)
{
    size_t i = get_global_id(0);
    float vals[4] = { v.x, v.y, v.z, v.w };
    out[i] = vals[i & 3] * k + in[i];
    lout[i] = big + (in[i] & mask);
    dout[i] = d * in[i];
}
