// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global float *out)
{
    float m[3][4];
    float (*row)[4] = m;
    float *cells[2];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++)
            m[i][j] = i * 4 + j;
    cells[0] = &m[1][0];
    cells[1] = row[2];
    out[0] = *cells[0] + cells[1][3] + (*(row + 1))[2];
}
