// @buf out int 100 zero
// @run k g=100 : out
// @check out nested_struct
typedef struct { int v[4]; short s; } inner;
typedef struct { inner in[2]; char tag; } outer;
kernel void k(global int *out) {
    int id = get_global_id(0);
    outer o;
    for (int j = 0; j < 2; j++) {
        for (int k = 0; k < 4; k++) o.in[j].v[k] = id * j + k;
        o.in[j].s = (short)(id + j);
    }
    o.tag = (char)id;
    int s = o.tag;
    for (int j = 0; j < 2; j++) for (int k = 0; k < 4; k++) s += o.in[j].v[k] * o.in[j].s;
    out[id] = s;
}
