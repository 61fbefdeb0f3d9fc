// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global int *out, int n)
{
    int acc = 0;
    for (int i = 0; i < n; ++i) {
        if (i % 3 == 0) continue;
        else if (i > 100) break;
        acc += i;
    }
    int j = 0;
    while (j < n) { j += 2; }
    do { j--; } while (j > 0);
    switch (n & 3) {
    case 0: acc += 1; break;
    case 1:
    case 2: acc += 2; /* fall through */
    default: acc += 3;
    }
    if (acc < 0) goto done;
    acc *= 2;
done:
    ;
    {
        int shadow = acc;
        out[0] = shadow;
    }
}
