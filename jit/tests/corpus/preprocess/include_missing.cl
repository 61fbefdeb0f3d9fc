// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 4: does_not_exist.h
#include "does_not_exist.h"
kernel void k(void) { }
