// RUN: -cl-std=CL1.2
// EXPECT: ok
#if 0x1F != 31 || 017 != 15 || 'A' != 65 || '\n' != 10 || 0xffffffffu != 4294967295
#error "constants in #if are wrong"
#endif
#if 'a' + 1 == 'b'
kernel void k(global int *out) { out[0] = 1; }
#endif
