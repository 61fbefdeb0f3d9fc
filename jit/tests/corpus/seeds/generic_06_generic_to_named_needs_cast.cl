// RUN: -cl-std=CL2.0
// EXPECT: error
// ERROR: 16: address space
// ERROR: 17: address space
// ERROR: 18: address space
// generic.txt: generic to named without a cast, three errors in one build
kernel void k(global int *gp_arg, local int *lp_arg)
{
    global int *gp = gp_arg;
    local int *lp = lp_arg;
    int x = 0;
    private int *pp = &x;
    int *p = gp;
    // it is illegal to convert from a generic pointer
    // to an explicit address space pointer without a cast:
    gp = p; // compile-time error
    lp = p; // compile-time error
    pp = p; // compile-time error
}
