// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void laplace(global const float *u, global float *v, int nx, int ny, int nz)
{
    int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    if (x == 0 || y == 0 || z == 0 || x >= nx - 1 || y >= ny - 1 || z >= nz - 1) return;
    #define AT(i, j, k) u[((k) * ny + (j)) * nx + (i)]
    v[(z * ny + y) * nx + x] = AT(x - 1, y, z) + AT(x + 1, y, z) + AT(x, y - 1, z) + AT(x, y + 1, z)
                             + AT(x, y, z - 1) + AT(x, y, z + 1) - 6.0f * AT(x, y, z);
    #undef AT
}
