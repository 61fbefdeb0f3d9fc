// RUN: -cl-std=CL1.2 -D FROM_CMDLINE -D WIDTH=8
// EXPECT: ok
#define LOCAL_MACRO
#if defined(LOCAL_MACRO) && defined FROM_CMDLINE && !defined(NOT_DEFINED) && WIDTH == 8
kernel void k(global int *out) { out[0] = WIDTH; }
#else
#error "defined is wrong"
#endif
