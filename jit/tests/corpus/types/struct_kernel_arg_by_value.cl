// RUN: -cl-std=CL1.2
// EXPECT: ok
typedef struct { float scale; int offset; float4 bias; } params_t;
kernel void k(params_t p, global float4 *out)
{
    out[get_global_id(0) + p.offset] = p.bias * p.scale;
}
