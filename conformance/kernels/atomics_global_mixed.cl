// @buf in int 2048 rand
// @buf out int 6 list(0,0,-2147483648,2147483647,0,0)
// @run k g=2048 l=128 : in out
// @check out atomics_mixed
kernel void k(global const int *in, global int *out) {
    int v = in[get_global_id(0)];
    atomic_add(&out[0], v);
    atomic_sub(&out[1], 1);
    atomic_max(&out[2], v);
    atomic_min(&out[3], v);
    atomic_or(&out[4], 1 << (get_global_id(0) % 31));
    int old, nv;
    do { old = out[5]; nv = old + 2; } while (atomic_cmpxchg(&out[5], old, nv) != old);
}
