// RUN: -cl-std=CL1.2
// EXPECT: ok
// CLANG: skip clang's spir target always defines __IMAGE_SUPPORT__; cranecl defines it only once images work
#ifdef __IMAGE_SUPPORT__
#error "cranecl defines __IMAGE_SUPPORT__ only while images work"
#endif
kernel void k(void) { }
