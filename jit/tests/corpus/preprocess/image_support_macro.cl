// RUN: -cl-std=CL1.2
// EXPECT: ok
// The device has images: "__IMAGE_SUPPORT__ is defined to 1" (clang's spir target defines it too)
#if __IMAGE_SUPPORT__ != 1
#error "__IMAGE_SUPPORT__ is 1 when the device supports images"
#endif
kernel void k(void) { }
