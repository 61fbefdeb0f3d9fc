// @buf out int 4096 zero
// @run mandel g=64,64 l=16,4 : out int(100)
// @check out mandelbrot64
kernel void mandel(global int *out, int max_iter) {
    int px = get_global_id(0), py = get_global_id(1);
    float cr = -2.0f + px * (3.0f / 64.0f), ci = -1.5f + py * (3.0f / 64.0f);
    float zr = 0.0f, zi = 0.0f;
    int n = 0;
    while (n < max_iter && zr * zr + zi * zi <= 4.0f) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        n++;
    }
    out[py * 64 + px] = n;
}
