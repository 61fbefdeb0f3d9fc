// Private arrays and structs that each work-item fills and reads: a
// 16-bin table indexed by the data, and four records compared pairwise
// in loops every work-item runs alike.
kernel void private_table(global float *out, global const uint *in)
{
    size_t g = get_global_id(0);
    float acc[16];
    for (int i = 0; i < 16; i++)
        acc[i] = 0.0f;
    for (int i = 0; i < 32; i++) {
        uint v = in[(g * 7 + i * 13) & 0xfffff];
        acc[v & 15] += (float)(v >> 4) * 0.001f;
    }
    float s = 0.0f;
    for (int i = 0; i < 16; i++)
        s += acc[i] * (i + 1);
    out[g] = s;
}

typedef struct { float x, y, z, w; } Point;

kernel void private_records(global float *out, global const float4 *in)
{
    size_t g = get_global_id(0);
    Point p[4];
    for (int i = 0; i < 4; i++) {
        float4 q = in[(g + i) & 0xfffff];
        p[i].x = q.x;
        p[i].y = q.y;
        p[i].z = q.z;
        p[i].w = q.w;
    }
    float s = 0.0f;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            float dx = p[i].x - p[j].x, dy = p[i].y - p[j].y, dz = p[i].z - p[j].z;
            s += sqrt(dx * dx + dy * dy + dz * dz + 1.0f) * p[j].w;
        }
    out[g] = s;
}
