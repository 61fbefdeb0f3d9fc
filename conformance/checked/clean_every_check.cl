// @check all
// @run k g=64 l=16 : buf(256) local(64) sub(4096,1024,256)
kernel void k(global int *out, local int *s, global int *part)
{
    int l = get_local_id(0), i = get_global_id(0);
    int a[4] = {1, 2, 3, 4};
    s[l] = i;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[i] = s[15 - l] + a[l % 4];
    part[i] = out[i];
    global int *p = out + 1000;
    p -= 1000;
    atomic_add(&p[0], 1);
}
