// RUN: -cl-std=CL1.2 -I %S/include
// EXPECT: ok
#include "once.h"
#include "once.h"
kernel void k(global point2 *out) { out[0].x = 1.0f; }
