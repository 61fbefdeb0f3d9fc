// @check races
// @run k g=16 l=16 : buf(64) local(64)
// @report a read by local linear id 0 at <source>:18:14
// @report reported 16 times at this place
// A gathered place read then written by the same work-items in a row
// (`t = tmp[j]; tmp[j] = ...`): the write takes the read's test of the
// four places and the shadow of the object it found, and must still tag
// each place as written, so that the next work-item's read of it with no
// barrier between is a race.
kernel void k(global int *out, local int *tmp)
{
    int l = get_local_id(0);
    int j = (l * 5) % 16;
    tmp[l] = l;
    barrier(CLK_LOCAL_MEM_FENCE);
    int t = tmp[j];
    tmp[j] = t + 1; //! race
    out[l] = tmp[(j + 5) % 16];
}
