// RUN: -cl-std=CL1.2
// EXPECT: ok
#if UNDEFINED_THING
#error "an undefined identifier in #if is 0"
#endif
#if UNDEFINED_THING == 0
kernel void k(void) { }
#endif
