//! The reference of `conformance/kernels/ulong_sha512_rounds.cl`, shared by
//! the kernel suite and the lanes' tests (`jit/tests/run_lanes.rs`).

/// `ulong_sha512_rounds.cl`'s state words for work-item `i` of message `m`.
pub fn sha512_rounds(i: u64, m: &[u64]) -> [u64; 8] {
    let big0 = |x: u64| x.rotate_right(28) ^ x.rotate_right(34) ^ x.rotate_right(39);
    let big1 = |x: u64| x.rotate_right(14) ^ x.rotate_right(18) ^ x.rotate_right(41);
    let small0 = |x: u64| x.rotate_right(1) ^ x.rotate_right(8) ^ (x >> 7);
    let small1 = |x: u64| x.rotate_right(19) ^ x.rotate_right(61) ^ (x >> 6);
    let mut w = m.to_vec();
    let mut s = [
        0x6a09e667f3bcc908 ^ i,
        0xbb67ae8584caa73b,
        0x3c6ef372fe94f82b,
        0xa54ff53a5f1d36f1,
        0x510e527fade682d1,
        0x9b05688c2b3e6c1f,
        0x1f83d9abfb41bd6b,
        0x5be0cd19137e2179,
    ];
    let mut k: u64 = 0x428a2f98d728ae22;
    for _ in 0..80 {
        let [a, b, c, d, e, f, g, h] = s;
        let t1 = h
            .wrapping_add(big1(e))
            .wrapping_add((e & f) ^ (!e & g))
            .wrapping_add(k)
            .wrapping_add(w[0]);
        let t2 = big0(a).wrapping_add((a & b) ^ (a & c) ^ (b & c));
        s = [t1.wrapping_add(t2), a, b, c, d.wrapping_add(t1), e, f, g];
        let nw = small1(w[14])
            .wrapping_add(w[9])
            .wrapping_add(small0(w[1]))
            .wrapping_add(w[0]);
        w.remove(0);
        w.push(nw);
        k = k.wrapping_mul(0x9e3779b97f4a7c15).wrapping_add(1);
    }
    s
}
