// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void sobel(global const uchar4 *in, global uchar4 *out, int w, int h)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x < 1 || y < 1 || x >= w - 1 || y >= h - 1) { out[y * w + x] = (uchar4)(0); return; }
    float4 gx = (float4)(0.0f), gy = (float4)(0.0f);
    const int kx[3][3] = { { -1, 0, 1 }, { -2, 0, 2 }, { -1, 0, 1 } };
    for (int j = -1; j <= 1; j++)
        for (int i = -1; i <= 1; i++) {
            float4 p = convert_float4(in[(y + j) * w + x + i]);
            gx += p * (float)kx[j + 1][i + 1];
            gy += p * (float)kx[i + 1][j + 1];
        }
    out[y * w + x] = convert_uchar4_sat(sqrt(gx * gx + gy * gy));
}
