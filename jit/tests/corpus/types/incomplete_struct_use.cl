// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 7: incomplete
struct opaque;
kernel void k(global struct opaque *p)
{
    int x = sizeof(struct opaque);
}
