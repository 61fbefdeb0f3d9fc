// @buf out int 64 zero
// @run k g=64 : out
// @check out nested_loops
kernel void k(global int *out) {
    int id = get_global_id(0), acc = 0;
    for (int i = 0; i < 20; i++) {
        if (i == id % 7) continue;
        for (int j = 0; j < 20; j++) {
            if (j > i) break;
            if ((i + j) % 3 == 0) continue;
            acc += i * j + id;
        }
        if (acc > 5000) break;
    }
    out[id] = acc;
}
