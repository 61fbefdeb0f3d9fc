// @check all
// @run k g=32 l=16 : buf(128)
// Private variables written before every read on the paths taken: no
// report under any check.
void set(int *p, int v)
{
    *p = v;
}

void fill(float *a, int n)
{
    for (int i = 0; i < n; i++)
        a[i] = i;
}

typedef struct {
    int a;
    float b;
} pair;

kernel void k(global int *out)
{
    int gid = get_global_id(0);
    // Conditional initialisation that every path takes.
    int x;
    if (gid >= 0)
        x = gid;
    else
        x = -1;
    // Written and read under the same condition.
    int y;
    if (gid & 1)
        y = 3;
    int odd = 0;
    if (gid & 1)
        odd = y;
    // Written through a pointer by a called function.
    int z;
    set(&z, 5);
    float a[4];
    fill(a, 4);
    // Assigned in a loop before use.
    int w;
    for (int i = 0; i < 4; i++)
        w = i;
    int m;
    int i = 0;
    do {
        m = i;
        i++;
    } while (i < 3);
    // Vector components, struct members, nested array elements.
    float4 v;
    v.x = 1.0f;
    v.y = 2.0f;
    v.zw = (float2)(3.0f, 4.0f);
    pair p;
    p.a = 1;
    p.b = 2.0f;
    pair q = p;
    pair r;
    r = q;
    int b[2][2];
    for (int j = 0; j < 2; j++)
        for (int k = 0; k < 2; k++)
            b[j][k] = j + k;
    // An unused variable silenced: not a read.
    int silenced;
    (void)silenced;
    int t;
    switch (gid & 3) {
    case 0: t = 0; break;
    case 1: t = 1; break;
    default: t = 2; break;
    }
    out[gid] = x + odd + z + (int)a[3] + w + m + (int)(v.x + v.w) + r.a + (int)r.b +
               b[1][1] + t;
}
