// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 9: braces
// Found by fuzzing: initialising an array of empty structs through a designator
// hung sema (no member ever consumes the value).
typedef struct {} e_t;
kernel void k(void)
{
    e_t arr[3] = { [1] = 1 };
}
