// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 4: event_t
constant event_t ev = 0;
kernel void k(void) { }
