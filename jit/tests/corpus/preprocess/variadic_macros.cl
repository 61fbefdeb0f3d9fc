// RUN: -cl-std=CL1.2
// EXPECT: ok
#define FIRST(a, ...) (a)
#define COUNT_ARGS(...) COUNT_IMPL(__VA_ARGS__, 4, 3, 2, 1, 0)
#define COUNT_IMPL(a, b, c, d, n, ...) n
#define SUM3(...) sum3(__VA_ARGS__)
int sum3(int a, int b, int c) { return a + b + c; }
kernel void k(global int *out)
{
    out[0] = FIRST(1, 2, 3) + COUNT_ARGS(x, y, z) + SUM3(1, 2, 3);
}
