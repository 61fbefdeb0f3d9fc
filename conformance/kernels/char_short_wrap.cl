// @buf a char 256 randbits
// @buf b uchar 256 randbits
// @buf c short 256 randbits
// @buf out int 768 zero
// @run k g=256 : a b c out
// @check out small_ints
kernel void k(global const char *a, global const uchar *b, global const short *c, global int *out) {
    int i = get_global_id(0);
    char x = a[i] + (char)b[i];
    uchar y = b[i] * (uchar)3;
    short z = c[i] * c[i];
    out[3 * i] = x;
    out[3 * i + 1] = y;
    out[3 * i + 2] = z;
}
