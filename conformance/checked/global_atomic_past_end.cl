// @check bounds
// @run k g=64 l=16 : buf(128)
kernel void k(global int *counts)
{
    size_t i = get_global_id(0);
    atomic_inc(&counts[i % 40]); //! invalid-write
}
