// RUN: -cl-std=CL2.0
// EXPECT: ok
// one scan helper over global and private data through generic pointers
void inclusive_scan(int *data, int n)
{
    for (int i = 1; i < n; i++) data[i] += data[i - 1];
}
kernel void scan_rows(global int *rows, int n)
{
    int priv[16];
    for (int i = 0; i < 16; i++) priv[i] = i;
    inclusive_scan(priv, 16);
    inclusive_scan(rows + get_global_id(0) * n, n);
    rows[0] += priv[15];
}
