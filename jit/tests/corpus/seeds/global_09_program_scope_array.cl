// RUN: -cl-std=CL2.0
// EXPECT: ok
// global.txt: program-scope array
global uchar buf[512]; // OK.
kernel void k(global uchar *out) { out[get_global_id(0)] = buf[get_global_id(0) % 512]; }
