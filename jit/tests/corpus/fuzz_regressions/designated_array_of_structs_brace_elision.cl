// RUN: -cl-std=CL1.2
// EXPECT: ok
// Found by fuzzing: an array designator followed by a brace-elided value in an
// array of structs hung sema's initializer walk (sema/init.rs).
typedef struct { float x; } v_t;
kernel void k(global float *o)
{
    v_t r[3] = { [0] = 1.0f, 2 };
    o[0] = r[1].x;
}
