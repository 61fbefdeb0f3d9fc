// @check bounds
// @run k g=64 l=16 : buf(256)
// A compound assignment one element past the end, one work-item per step
// (the private array keeps the kernel out of the lanes): its read and its
// write are both reported (the write reuses the read's check when inside).
kernel void k(global int *out)
{
    int pick[2] = {1, 0};
    size_t i = get_global_id(0);
    out[i + pick[0]] += 1; //! invalid-read invalid-write
    out[i + pick[1]]++;
}
