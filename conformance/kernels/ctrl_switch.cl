// @buf in int 400 rand(0,9)
// @buf out int 400 zero
// @run k g=400 : in out
// @check out switch_map
kernel void k(global const int *in, global int *out) {
    int i = get_global_id(0), r;
    switch (in[i]) {
    case 0: r = 10; break;
    case 1:
    case 2: r = 20; break;
    case 3: r = 30; /* fall through */
    case 4: r = in[i] * 100; break;
    default: r = -1;
    }
    out[i] = r;
}
