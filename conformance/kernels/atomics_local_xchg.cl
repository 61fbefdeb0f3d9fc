// @buf out int 64 zero
// @run k g=1024 l=64 : out
// @check out local_counts
kernel void k(global int *out) {
    local int c;
    local int last;
    if (get_local_id(0) == 0) { c = 0; last = -1; }
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_inc(&c);
    atomic_xchg(&last, 7);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) atomic_add(&out[get_group_id(0) % 64], c + last);
}
