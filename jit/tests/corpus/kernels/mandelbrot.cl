// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void mandelbrot(global uchar4 *img, const float x0, const float y0, const float scale, const int max_iter)
{
    int px = get_global_id(0), py = get_global_id(1), w = get_global_size(0);
    float2 c = (float2)(x0 + px * scale, y0 + py * scale);
    float2 z = (float2)(0.0f);
    int i = 0;
    while (i < max_iter && dot(z, z) < 4.0f) {
        z = (float2)(z.x * z.x - z.y * z.y, 2.0f * z.x * z.y) + c;
        i++;
    }
    float t = (float)i / max_iter;
    uchar v = convert_uchar_sat(t * 255.0f);
    img[py * w + px] = (uchar4)(v, v / 2, 255 - v, 255);
}
