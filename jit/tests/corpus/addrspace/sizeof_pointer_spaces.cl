// RUN: -cl-std=CL1.2
// EXPECT: ok
// sizeof a pointer to each named space
kernel void k(global int *out)
{
    out[0] = sizeof(global int *) + sizeof(local int *) + sizeof(constant int *) + sizeof(private int *);
}
