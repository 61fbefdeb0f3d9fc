// @buf in uint 256 randbits
// @buf out uint 256 zero
// @run k g=256 : in out
// @check out bit_walk
// A while loop with a switch inside whose cases break out of the switch
// and continue the loop.
kernel void k(global const uint *in, global uint *out) {
    uint v = in[get_global_id(0)], acc = 0, n = 0;
    while (v != 0) {
        switch (v & 3) {
        case 0: acc += 1; break;
        case 1: acc ^= n; break;
        case 2: v >>= 1; continue;
        default: acc = acc * 3 + 1;
        }
        v >>= 2;
        if (++n > 12) break;
    }
    out[get_global_id(0)] = acc + n;
}
