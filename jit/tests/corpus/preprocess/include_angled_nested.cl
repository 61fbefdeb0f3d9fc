// RUN: -cl-std=CL1.2 -I %S/include
// EXPECT: ok
// a nested include found relative to its header, and the guard stopping a second copy
#include <sub/nested.h>
#include "math_helpers.h"
kernel void k(global int *out) { out[0] = SQUARE(NESTED_VALUE); }
