// @check uninit
// @run k g=8 l=8 : buf(32) buf(32) int(4)
kernel void k(global float *out, global const float *in, int n)
{
    float sum;
    for (int i = 0; i < n; i++)
        sum += in[i]; //! uninit
    out[get_global_id(0)] = sum;
}
