// RUN: -cl-std=CL1.2
// EXPECT: ok
typedef float real;
typedef struct { real re, im; } complex_t;
complex_t mul(complex_t a, complex_t b) { complex_t r = { a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re }; return r; }
kernel void k(global complex_t *z)
{
    real s = (real)2;
    complex_t c = mul(z[0], z[1]);
    z[2] = c;
    z[2].re *= s;
}
