// @options -cl-std=CL2.0
// @buf out int 4 zero
// @run k g=1 : out
// @check out global_ptrs
global int baz = 12;
global int *global baz_ptr = &baz;
global int arr[4] = {1, 2, 3, 4};
global int *global mid = &arr[2];
global int * constant cptr = &baz;
kernel void k(global int *out) {
    *baz_ptr += 1;
    out[0] = baz;
    out[1] = *mid + mid[-1];
    out[2] = *cptr;
    out[3] = (int)(mid - arr);
}
