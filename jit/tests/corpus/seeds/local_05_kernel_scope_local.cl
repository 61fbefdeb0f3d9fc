// RUN: -cl-std=CL1.2
// EXPECT: ok
// local.txt: __local variables at kernel function scope
__kernel void my_func(__global float *out)
{
    __local float a; // A single float allocated
                     // in local address space
    __local float b[10]; // An array of 10 floats
                         // allocated in local address space.
    if (get_local_id(0) == 0) { a = 1.0f; b[0] = 2.0f; }
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = a + b[0];
}
