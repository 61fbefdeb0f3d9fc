// RUN: -cl-std=CL1.2
// EXPECT: ok
#if 0
  this is not C at all ' and an unterminated quote is fine in a skipped group
# if 1
#  error "nested in a skipped group: not evaluated"
# endif
#endif
kernel void k(void) { }
