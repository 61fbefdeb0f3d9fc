// Mandelbrot set: the escape iteration count (0..max_iter) of each pixel of a
// width x height view of [x0, x0 + w] x [y0, y0 + h], one work-item per pixel.
kernel void mandelbrot(global uint *out, float x0, float y0, float dx, float dy, uint max_iter)
{
    uint px = get_global_id(0);
    uint py = get_global_id(1);
    uint width = get_global_size(0);
    float cr = x0 + (float)px * dx;
    float ci = y0 + (float)py * dy;
    float zr = 0.0f;
    float zi = 0.0f;
    uint n = 0;
    while (n < max_iter) {
        float zr2 = zr * zr;
        float zi2 = zi * zi;
        if (zr2 + zi2 > 4.0f)
            break;
        float t = zr2 - zi2 + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        n++;
    }
    out[py * width + px] = n;
}
