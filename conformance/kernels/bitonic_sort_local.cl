// @buf data int 1024 rand
// @run sort g=512 l=512 : data
// @check data sorted1024
kernel void sort(global int *data) {
    local int s[1024];
    int l = get_local_id(0);
    s[l] = data[l];
    s[l + 512] = data[l + 512];
    for (int k = 2; k <= 1024; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            barrier(CLK_LOCAL_MEM_FENCE);
            int i = 2 * l - (l & (j - 1));
            int p = i + j;
            bool up = (i & k) == 0;
            int a = s[i], b = s[p];
            if ((a > b) == up) { s[i] = b; s[p] = a; }
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    data[l] = s[l];
    data[l + 512] = s[l + 512];
}
