//! Integer built-ins (spec 6.15.3) for every integer type, compared with
//! Rust references computed in 128 bits, over edge values (MIN, MAX, 0,
//! ±1) and pseudo-random ones; plus vector forms.

mod run_common;
use run_common::*;

/// The functions under test, as OpenCL expressions of `a`, `b`, `c`
/// (all of the type under test), each stored as that type.
const EXPRS: &[&str] = &[
    "abs(a)",
    "abs_diff(a, b)",
    "add_sat(a, b)",
    "sub_sat(a, b)",
    "hadd(a, b)",
    "rhadd(a, b)",
    "max(a, b)",
    "min(a, b)",
    "clamp(a, min(b, c), max(b, c))",
    "clz(a)",
    "popcount(a)",
    "mul_hi(a, b)",
    "mad_hi(a, b, c)",
    "mad_sat(a, b, c)",
    "rotate(a, b)",
    "ctz(a)",
];

fn reference(k: usize, a: i128, b: i128, c: i128, bits: u32, signed: bool) -> i128 {
    let (lo, hi) = if signed {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    };
    let mask = (1i128 << bits) - 1;
    let ubits = |v: i128| v & mask; // the value's bits, as unsigned
                                    // Unsigned 64-bit products need all 128 bits unsigned.
    let wide = |a: i128, b: i128| (a as u128) * (b as u128);
    let mul_hi = if !signed && bits == 64 {
        (wide(a, b) >> 64) as i128
    } else {
        (a * b) >> bits
    };
    match k {
        0 => a.abs(),
        1 => (a - b).abs(),
        2 => (a + b).clamp(lo, hi),
        3 => (a - b).clamp(lo, hi),
        4 => (a + b) >> 1,
        5 => (a + b + 1) >> 1,
        6 => a.max(b),
        7 => a.min(b),
        8 => a.clamp(b.min(c), b.max(c)),
        9 => i128::from(bits) - (128 - ubits(a).leading_zeros() as i128),
        10 => i128::from(ubits(a).count_ones()),
        11 => mul_hi,
        12 => mul_hi + c,
        13 if !signed && bits == 64 => (wide(a, b) + c as u128).min(hi as u128) as i128,
        13 => (a * b + c).clamp(lo, hi),
        14 => {
            let r = (ubits(b) as u32) % bits;
            let u = ubits(a);
            (u << r | u >> ((bits - r) % bits)) & mask
        }
        _ => {
            let u = ubits(a);
            if u == 0 {
                i128::from(bits)
            } else {
                i128::from(u.trailing_zeros())
            }
        }
    }
}

macro_rules! integer_test {
    ($test:ident, $t:ty, $cl:expr) => {
        #[test]
        fn $test() {
            let bits = <$t>::BITS;
            let signed = <$t>::MIN != 0;
            let edges: [$t; 6] = [<$t>::MIN, <$t>::MAX, 0, 1, <$t>::MAX / 2, <$t>::MIN.wrapping_add(1)];
            let mut vals: Vec<$t> = Vec::new();
            for &x in &edges {
                for &y in &edges {
                    vals.push(x);
                    vals.push(y);
                }
            }
            let mut s: u64 = 0x1234_5678_9abc_def1;
            while vals.len() < 2 * 200 {
                s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                vals.push((s >> 7) as $t);
            }
            let n = vals.len() / 2;
            let mut a: Vec<$t> = (0..n).map(|i| vals[2 * i]).collect();
            let mut b: Vec<$t> = (0..n).map(|i| vals[2 * i + 1]).collect();
            // (b.wrapping_neg()) -1 for unsigned types as minus one.
            let mut c: Vec<$t> = (0..n).map(|i| a[(i * 7) % n] ^ b[(i * 3) % n]).collect();
            let body: String = EXPRS
                .iter()
                .enumerate()
                .map(|(k, e)| format!("o[i * {} + {k}] = ({cl}){e};\n", EXPRS.len(), cl = $cl))
                .collect();
            let src = format!(
                "kernel void t(global const {cl} *x, global const {cl} *y, global const {cl} *z, global {cl} *o) {{
                    size_t i = get_global_id(0);
                    {cl} a = x[i], b = y[i], c = z[i];
                    {body}
                }}",
                cl = $cl
            );
            let p = build_full(&src);
            let mut o: Vec<$t> = vec![0; n * EXPRS.len()];
            run(&p, "t", &mut [buf(&mut a), buf(&mut b), buf(&mut c), buf(&mut o)], &[n as u64], &[4]);
            let mut fails = Vec::new();
            for i in 0..n {
                for (k, e) in EXPRS.iter().enumerate() {
                    let want = reference(k, a[i] as i128, b[i] as i128, c[i] as i128, bits, signed) as $t;
                    let got = o[i * EXPRS.len() + k];
                    if got != want {
                        fails.push(format!("{e} with a={} b={} c={}: got {got}, want {want}", a[i], b[i], c[i]));
                    }
                }
            }
            assert!(fails.is_empty(), "{} {} failures:\n{}", $cl, fails.len(), fails[..fails.len().min(30)].join("\n"));
        }
    };
}

integer_test!(char_functions, i8, "char");
integer_test!(uchar_functions, u8, "uchar");
integer_test!(short_functions, i16, "short");
integer_test!(ushort_functions, u16, "ushort");
integer_test!(int_functions, i32, "int");
integer_test!(uint_functions, u32, "uint");
integer_test!(long_functions, i64, "long");
integer_test!(ulong_functions, u64, "ulong");

#[test]
fn vector_forms_upsample_and_24_bit_products() {
    let p = build_full(
        "kernel void t(global int4 *o, global long2 *l, global uchar *u) {
            int4 a = (int4)(-5, 7, INT_MIN, 100);
            o[0] = abs_diff(a, (int4)(5)) == (uint4)(10, 2, 2147483653u, 95) ? (int4)(1) : (int4)(0);
            o[1] = max(a, 6);
            o[2] = clamp(a, -1, 50);
            o[3] = popcount(a);
            o[4] = mad24(a, (int4)(2), (int4)(1));
            o[5] = mul24((int4)(1000), (int4)(-3000));
            l[0] = upsample((int2)(1, -1), (uint2)(2u, 0xffffffffu));
            ushort us = upsample((uchar)0x12, (uchar)0x34);
            u[0] = us >> 8; u[1] = us & 0xff;
            o[6] = add_sat(a, (int4)(INT_MAX));
        }",
    );
    let mut o = vec![[0i32; 4]; 7];
    let mut l = vec![[0i64; 2]; 1];
    let mut u = vec![0u8; 2];
    run(
        &p,
        "t",
        &mut [buf(&mut o), buf(&mut l), buf(&mut u)],
        &[1],
        &[1],
    );
    assert_eq!(o[0], [1, 1, 1, 1], "abs_diff results");
    assert_eq!(o[1], [6, 7, 6, 100]);
    assert_eq!(o[2], [-1, 7, -1, 50]);
    assert_eq!(o[3], [31, 3, 1, 3]);
    assert_eq!(o[4], [-9, 15, 1, 201]);
    assert_eq!(o[5], [-3_000_000; 4]);
    assert_eq!(l[0], [(1i64 << 32) | 2, -1]);
    assert_eq!(u, [0x12, 0x34]);
    assert_eq!(o[6], [i32::MAX - 5, i32::MAX, -1, i32::MAX]);
}
