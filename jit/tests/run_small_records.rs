//! Small records in one integer (`lower/small_records.rs`): a private
//! union or struct of integer fields used field by field computes what the
//! record as written computes, and no longer keeps a kernel from running
//! in the lanes.

mod run_common;
use run_common::*;

/// hashcat's `vconv64_t`: a `ulong`, two `uint`s, four `ushort`s, eight
/// `uchar`s over the same 8 bytes, written by one member and read by another.
const PUNNING: &str = "
typedef union {
    ulong v64;
    struct { uint a; uint b; } v32;
    struct { ushort a; ushort b; ushort c; ushort d; } v16;
    struct { uchar a, b, c, d, e, f, g, h; } v8;
} conv_t;

ulong join(uint lo, uint hi) {
    conv_t v;
    v.v32.a = lo;
    v.v32.b = hi;
    return v.v64;
}

uint high(ulong x) {
    conv_t v;
    v.v64 = x;
    return v.v32.b;
}

kernel void pun(global const ulong *x, global ulong *out) {
    size_t i = get_global_id(0);
    ulong w = x[i];
    conv_t v;
    v.v64 = w;
    uchar b6 = v.v8.g;
    ushort s1 = v.v16.b;
    v.v8.a = (uchar)(v.v8.a + 1);
    v.v16.d = (ushort)0xbeef;
    struct { char c; int n; } sc;
    sc.c = (char)(w >> 8);
    sc.n = -(int)i;
    ulong j = join((uint)i, high(w) ^ 0x80000000u);
    out[5 * i + 0] = v.v64;
    out[5 * i + 1] = (ulong)b6 | ((ulong)s1 << 8);
    out[5 * i + 2] = j;
    out[5 * i + 3] = (ulong)(long)sc.c;
    out[5 * i + 4] = (ulong)(long)sc.n;
}
";

fn expected(i: usize, w: u64) -> [u64; 5] {
    let b = w.to_le_bytes();
    let mut v = b;
    v[0] = v[0].wrapping_add(1);
    v[6..8].copy_from_slice(&0xbeefu16.to_le_bytes());
    let s1 = u16::from_le_bytes([b[2], b[3]]);
    let hi = ((w >> 32) as u32) ^ 0x8000_0000;
    [
        u64::from_le_bytes(v),
        u64::from(b[6]) | (u64::from(s1) << 8),
        (i as u64) | (u64::from(hi) << 32),
        (w >> 8) as u8 as i8 as i64 as u64,
        (-(i as i64)) as u64,
    ]
}

#[test]
fn a_union_taken_apart_by_its_fields_computes_as_written_in_the_lanes() {
    let [fast, written] = rewritten_and_written(PUNNING);
    let k = fast.kernel_index("pun").expect("kernel");
    assert!(
        fast.lanes(k),
        "pun runs in the lanes: {:?}",
        fast.explanations()[k]
    );
    assert!(
        !written.lanes(k),
        "as written, the records keep it one per step"
    );
    let n = 64usize;
    let mut x: Vec<u64> = (0..n as u64)
        .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x0123_4567_89ab_cdef)
        .collect();
    for p in [&fast, &written] {
        let mut out = vec![0u64; 5 * n];
        run(
            p,
            "pun",
            &mut [buf(&mut x), buf(&mut out)],
            &[n as u64],
            &[16],
        );
        for i in 0..n {
            assert_eq!(out[5 * i..5 * i + 5], expected(i, x[i]), "work-item {i}");
        }
    }
}

#[test]
fn a_record_used_whole_stays_a_record() {
    // Copied whole, and its address taken: memory, one work-item per step.
    let src = "
        typedef union { uint u; uchar b[4]; } w_t;
        typedef struct { ushort lo, hi; } pair;
        kernel void whole(global uint *out) {
            size_t i = get_global_id(0);
            pair p;
            p.lo = (ushort)i;
            p.hi = (ushort)(i * 3);
            pair q = p;
            w_t w;
            w.u = (uint)q.lo | ((uint)q.hi << 16);
            uchar *b = &w.b[0];
            b[1] ^= 0xff;
            out[i] = w.u;
        }";
    let [fast, written] = rewritten_and_written(src);
    let k = fast.kernel_index("whole").expect("kernel");
    assert!(!fast.lanes(k), "records used whole keep their memory");
    for p in [&fast, &written] {
        let n = 32usize;
        let mut out = vec![0u32; n];
        run(p, "whole", &mut [buf(&mut out)], &[n as u64], &[8]);
        for (i, o) in out.iter().enumerate() {
            let want = ((i as u32) & 0xffff | ((i as u32 * 3) << 16)) ^ 0xff00;
            assert_eq!(*o, want, "work-item {i}");
        }
    }
}
