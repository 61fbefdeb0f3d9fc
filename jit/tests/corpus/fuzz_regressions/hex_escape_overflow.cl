// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 7: hex escape sequence out of range
// Found by fuzzing: a \x escape with many digits overflowed the escape's value (parse/literal.rs).
kernel void k(global int *o)
{
    o[0] = '\x1111111111111111';
}
