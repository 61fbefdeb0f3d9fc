// RUN: -cl-std=CL2.0
// EXPECT: ok
kernel void k(global uint *out)
{
    out[0] = (uint)(get_global_linear_id() + get_local_linear_id() + get_enqueued_local_size(0));
}
