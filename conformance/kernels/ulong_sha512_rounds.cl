// @buf m ulong 720 randbits
// @buf out ulong 360 zero
// @run rounds g=45 : m out
// @run rounds g=45 l=1 : m out
// @check out ulong_sha512_rounds
// SHA-512's shape: eight ulong state words and sixteen ulong message words
// per work-item, rewritten every round (four work-items per step by the
// lanes' choice; the same results at eight, CRANECL_LANES=8, and at one).
#define ROTR(x, n) rotate((x), (ulong)(64 - (n)))
#define BSIG0(x) (ROTR(x, 28) ^ ROTR(x, 34) ^ ROTR(x, 39))
#define BSIG1(x) (ROTR(x, 14) ^ ROTR(x, 18) ^ ROTR(x, 41))
#define SSIG0(x) (ROTR(x, 1) ^ ROTR(x, 8) ^ ((x) >> 7))
#define SSIG1(x) (ROTR(x, 19) ^ ROTR(x, 61) ^ ((x) >> 6))
kernel void rounds(global const ulong *in, global ulong *out) {
    size_t i = get_global_id(0);
    global const ulong *m = in + 16 * i;
    ulong w0 = m[0], w1 = m[1], w2 = m[2], w3 = m[3], w4 = m[4], w5 = m[5];
    ulong w6 = m[6], w7 = m[7], w8 = m[8], w9 = m[9], wa = m[10], wb = m[11];
    ulong wc = m[12], wd = m[13], we = m[14], wf = m[15];
    ulong a = 0x6a09e667f3bcc908UL ^ i, b = 0xbb67ae8584caa73bUL, c = 0x3c6ef372fe94f82bUL;
    ulong d = 0xa54ff53a5f1d36f1UL, e = 0x510e527fade682d1UL, f = 0x9b05688c2b3e6c1fUL;
    ulong g = 0x1f83d9abfb41bd6bUL, h = 0x5be0cd19137e2179UL;
    ulong k = 0x428a2f98d728ae22UL;
    for (int r = 0; r < 80; r++) {
        ulong t1 = h + BSIG1(e) + ((e & f) ^ (~e & g)) + k + w0;
        ulong t2 = BSIG0(a) + ((a & b) ^ (a & c) ^ (b & c));
        h = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
        ulong nw = SSIG1(we) + w9 + SSIG0(w1) + w0;
        w0 = w1; w1 = w2; w2 = w3; w3 = w4; w4 = w5; w5 = w6; w6 = w7; w7 = w8;
        w8 = w9; w9 = wa; wa = wb; wb = wc; wc = wd; wd = we; we = wf; wf = nw;
        k = k * 0x9e3779b97f4a7c15UL + 1;
    }
    global ulong *o = out + 8 * i;
    o[0] = a; o[1] = b; o[2] = c; o[3] = d; o[4] = e; o[5] = f; o[6] = g; o[7] = h;
}
