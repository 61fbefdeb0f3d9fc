// RUN: -cl-std=CL1.2
// EXPECT: ok
enum op { OP_ADD, OP_MUL };
kernel void k(global int *out, int which)
{
    enum op o = (enum op)which;
    int code = o;
    out[0] = code + OP_MUL;
}
