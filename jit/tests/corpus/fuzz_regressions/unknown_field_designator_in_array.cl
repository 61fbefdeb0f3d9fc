// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 9: zp
// Found by fuzzing: an unknown field designator inside an array designator,
// followed by another designator, hung sema's initializer walk.
typedef struct { float x; } v_t;
kernel void k(void)
{
    v_t r[3] = { [2].zp = 3.0f, [0] = 1.0f };
}
