// @check bounds
// @run k g=16 l=16 : buf(64) local(64)
// @report local id (6), group id (0)
// A gathered place named twice in a row (`t = tmp[j]; tmp[j] = ...`, as
// a scan's down-sweep does): the write may take the read's verdict on the
// same four places, but never hide its own report when the read's test
// failed (the sixth work-item's place is one past the end).
kernel void k(global int *out, local int *tmp)
{
    int l = get_local_id(0);
    int j = l == 6 ? 16 : (l * 5) % 16;
    tmp[l] = l;
    barrier(CLK_LOCAL_MEM_FENCE);
    int t = tmp[j]; //! invalid-read
    tmp[j] = t + 1; //! invalid-write
    out[l] = t;
}
