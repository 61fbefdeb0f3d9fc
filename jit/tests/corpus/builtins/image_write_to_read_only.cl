// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 6: write_imagef
kernel void k(read_only image2d_t img)
{
    write_imagef(img, (int2)(0, 0), (float4)(0.0f));
}
