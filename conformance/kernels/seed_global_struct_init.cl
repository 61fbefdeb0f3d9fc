// @options -cl-std=CL2.0
// @buf out int 6 zero
// @run k g=1 : out
// @check out global_struct
typedef struct { int a; int b[2]; global int *p; } rec;
global int target = 40;
global rec r = { 1, {2, 3}, &target };
global rec rs[2] = { {4, {5, 6}, 0}, {7, {8, 9}, &target} };
kernel void k(global int *out) {
    out[0] = r.a + r.b[0] + r.b[1];
    out[1] = *r.p;
    out[2] = rs[1].b[1];
    out[3] = rs[0].p == 0;
    *rs[1].p += 2;
    out[4] = target;
    out[5] = sizeof(rec);
}
