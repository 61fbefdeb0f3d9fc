// RUN: -cl-std=CL1.2 -I %S/include
// EXPECT: error
// ERROR: broken.h:2: undeclared_in_header
// the error is reported in broken.h; the including line gets the "In file included from" note
#include "broken.h"
kernel void k(void) { }
