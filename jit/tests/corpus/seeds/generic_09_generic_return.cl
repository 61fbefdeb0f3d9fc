// RUN: -cl-std=CL2.0
// EXPECT: ok
// generic.txt: functions may return pointers to the generic address space
int *pick(int *a, int *b, int first) { return first ? a : b; }
kernel void k(global int *g, local int *l)
{
    int *p = pick(g, l, get_local_id(0) == 0);
    *p = 3;
}
