// RUN: -cl-std=CL1.2
// EXPECT: ok
// constant.txt: constant variables in the outermost scope of a kernel
kernel void k(global int *out)
{
    constant int table[3] = { 1, 2, 3 };
    out[get_global_id(0)] = table[get_global_id(0) % 3];
}
