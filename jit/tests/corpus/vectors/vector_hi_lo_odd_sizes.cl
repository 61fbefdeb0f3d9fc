// RUN: -cl-std=CL1.2
// EXPECT: ok
// for a 3-vector, .lo is .xy and .hi is .z with an undefined w
kernel void k(global float2 *out)
{
    float3 v = (float3)(1.0f, 2.0f, 3.0f);
    out[0] = v.lo + v.hi;
}
