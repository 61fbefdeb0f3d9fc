// RUN: -cl-std=CL2.0 -D CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE=65536
// EXPECT: ok
// global.txt: the page sizes a buffer by the device limit (a host constant, so given with -D here)
global uchar bigbuf[CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE]; // OK.
kernel void k(global uchar *out) { out[0] = bigbuf[65535]; }
