// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global int *gi, global uint *gu, local int *li, global float *gf)
{
    atomic_add(gi, 1); atomic_sub(gi, 1); atomic_xchg(gi, 2); atomic_inc(gi); atomic_dec(gi);
    atomic_cmpxchg(gi, 0, 1); atomic_min(gi, 5); atomic_max(gu, 5u); atomic_and(gu, 1u);
    atomic_or(gu, 2u); atomic_xor(gu, 3u);
    atomic_add(li, 1);
    float old = atomic_xchg(gf, 1.0f);
    gi[1] = (int)old;
}
