// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 6: address space
// a struct member cannot itself carry an address space
struct s {
    global int x;
};
kernel void k(void) { }
