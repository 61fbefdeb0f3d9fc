// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global int *out)
{
    int a = 1 + 2 * 3;          /* 7 */
    int b = 1 << 2 + 1;         /* 8 */
    int c = 5 & 3 == 3;         /* 5 & 1 = 1 */
    int d = 10 - 4 - 3;         /* 3 */
    int e = 2 * 3 % 4;          /* 2 */
    int f = -2 * -3;            /* 6 */
    int g = 1 ? 2 : 3 ? 4 : 5;  /* 2 */
    out[0] = a + b + c + d + e + f + g;
}
