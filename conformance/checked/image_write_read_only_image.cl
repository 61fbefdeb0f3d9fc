// @check bounds
// @options -cl-std=CL3.0
// @run k g=4 l=4 : image1d(4,ro)
kernel void k(read_write image1d_t im)
{
    int x = get_global_id(0);
    float4 v = read_imagef(im, x);
    // The image was created CL_MEM_READ_ONLY: a kernel's write is undefined.
    write_imagef(im, x, v + 1.0f); //! invalid-write
}
