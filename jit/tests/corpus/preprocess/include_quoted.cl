// RUN: -cl-std=CL1.2 -I %S/include
// EXPECT: ok
#include "math_helpers.h"
kernel void k(global float *out) { out[0] = lerp1(0.0f, SQUARE(2.0f), 0.5f); }
