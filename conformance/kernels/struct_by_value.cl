// @buf out float 64 zero
// @run k g=64 : pack(int:3,float:0.25,int:-2) out
// @check out struct_value
typedef struct { int a; float b; int c; } params;
kernel void k(params p, global float *out) {
    out[get_global_id(0)] = p.a * (float)get_global_id(0) + p.b + p.c;
}
