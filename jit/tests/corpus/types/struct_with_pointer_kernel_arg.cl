// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 6: pointer
// kernel struct arguments cannot contain pointers
typedef struct { global int *p; } holder_t;
kernel void k(holder_t h)
{
}
