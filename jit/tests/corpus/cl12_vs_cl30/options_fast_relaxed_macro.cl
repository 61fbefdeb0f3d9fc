// RUN: -cl-std=CL1.2 -cl-fast-relaxed-math
// EXPECT: ok
#ifndef __FAST_RELAXED_MATH__
#error "-cl-fast-relaxed-math defines __FAST_RELAXED_MATH__"
#endif
kernel void k(void) { }
