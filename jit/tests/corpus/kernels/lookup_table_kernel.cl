// RUN: -cl-std=CL1.2
// EXPECT: ok
constant uchar crc_bits[16] = { 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4 };
uint popcount_nibbles(uint x)
{
    uint c = 0;
    for (int i = 0; i < 8; i++) { c += crc_bits[x & 0xF]; x >>= 4; }
    return c;
}
kernel void count_bits(global const uint *in, global uint *out)
{
    size_t i = get_global_id(0);
    out[i] = popcount_nibbles(in[i]) == popcount(in[i]) ? popcount(in[i]) : 0xffffffffu;
}
