// @buf data int 1024 rand
// @run k g=128 : data
// @check data sort8
kernel void k(global int *data) {
    int v[8];
    global int *p = data + 8 * get_global_id(0);
    for (int i = 0; i < 8; i++) v[i] = p[i];
    for (int i = 1; i < 8; i++) {
        int x = v[i], j = i - 1;
        while (j >= 0 && v[j] > x) { v[j + 1] = v[j]; j--; }
        v[j + 1] = x;
    }
    for (int i = 0; i < 8; i++) p[i] = v[i];
}
