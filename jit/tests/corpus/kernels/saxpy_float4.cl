// RUN: -cl-std=CL3.0
// EXPECT: ok
kernel void saxpy(float alpha, global const float4 *x, global float4 *y)
{
    size_t i = get_global_id(0);
    y[i] = mad((float4)(alpha), x[i], y[i]);
}
