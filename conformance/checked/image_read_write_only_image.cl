// @check bounds
// @options -cl-std=CL3.0
// @run k g=4 l=4 : image1d(4,wo)
kernel void k(read_write image1d_t im)
{
    int x = get_global_id(0);
    // The image was created CL_MEM_WRITE_ONLY: a kernel's read is undefined.
    float4 v = read_imagef(im, x); //! invalid-read
    write_imagef(im, x, v + 1.0f);
}
