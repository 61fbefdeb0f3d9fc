// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global float4 *out, global const float4 *in)
{
    float4 x = in[0];
    out[0] = clamp(x, 0.0f, 1.0f) + degrees(x) + radians(x) + max(x, 0.5f) + min(x, x)
           + mix(x, x, 0.25f) + step(0.5f, x) + smoothstep(0.0f, 1.0f, x) + sign(x);
}
