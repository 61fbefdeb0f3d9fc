//! `half` arithmetic (`cl_khr_fp16`): kernels computing with `half` checked
//! against a host reference written from the IEEE 754 binary16 rules.
//!
//! The reference is exact: every finite half is an integer number of
//! 2^-24 units, so a sum, product, quotient or `fma` is an exact fraction of
//! integers (`i128`), rounded to the nearest half by comparing it with the
//! half values and the midpoints between them (ties to the even
//! significand; at or above 65520 the result overflows to infinity, the
//! midpoint between 65504 and 2^16). Infinities, NaNs and signed zeros
//! follow the standard's special cases.

mod run_common;
use run_common::*;

const NAN: u16 = 0x7e00;
const INF: u16 = 0x7c00;
const SIGN: u16 = 0x8000;

/// Magnitude of finite half bits in units of 2^-24 (bits 0..=0x7bff), and
/// 2^40 (that is 2^16) for the infinity's bits, which rounding treats as the
/// next value after 65504.
fn units(h: u16) -> i128 {
    let (e, m) = (i128::from(h >> 10), i128::from(h & 0x3ff));
    if e == 0 {
        m
    } else {
        (m | 0x400) << (e - 1)
    }
}

fn is_nan(h: u16) -> bool {
    h & 0x7c00 == 0x7c00 && h & 0x3ff != 0
}
fn is_inf(h: u16) -> bool {
    h & 0x7fff == INF
}
fn is_zero(h: u16) -> bool {
    h & 0x7fff == 0
}
fn neg(h: u16) -> bool {
    h & SIGN != 0
}
/// Signed value of finite half bits in 2^-24 units.
fn signed(h: u16) -> i128 {
    if neg(h) {
        -units(h & 0x7fff)
    } else {
        units(h)
    }
}

/// The half nearest to `num / den` (den > 0), ties to even; a zero result
/// gets the sign `zero_sign`.
fn round(num: i128, den: i128, zero_sign: bool) -> u16 {
    assert!(den > 0);
    let s = if num < 0 { SIGN } else { 0 };
    let n = num.abs() << 24; // compare n / den with units(h)
    if n == 0 {
        return if zero_sign { SIGN } else { 0 };
    }
    // Largest h (0..=INF) with units(h) * den <= n.
    let (mut lo, mut hi) = (0u16, INF);
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if units(mid) * den <= n {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    let h = lo;
    if h == INF {
        return s | INF;
    }
    // Compare with the midpoint of h and h + 1.
    let twice = 2 * n;
    let mid = (units(h) + units(h + 1)) * den;
    let r = match twice.cmp(&mid) {
        std::cmp::Ordering::Less => h,
        std::cmp::Ordering::Greater => h + 1,
        std::cmp::Ordering::Equal if h & 1 == 0 => h,
        std::cmp::Ordering::Equal => h + 1,
    };
    s | r
}

#[derive(Clone, Copy, Debug)]
enum Op {
    Add,
    Sub,
    Mul,
    Div,
}

/// `a op b` by the binary16 rules.
fn reference(op: Op, a: u16, b: u16) -> u16 {
    if is_nan(a) || is_nan(b) {
        return NAN;
    }
    let b = if let Op::Sub = op { b ^ SIGN } else { b };
    let xs = neg(a) != neg(b);
    match op {
        Op::Add | Op::Sub => {
            if is_inf(a) || is_inf(b) {
                return if is_inf(a) && is_inf(b) && xs {
                    NAN
                } else if is_inf(a) {
                    a
                } else {
                    b
                };
            }
            // An exact zero sum is +0, unless both are -0.
            round(signed(a) + signed(b), 1 << 24, neg(a) && neg(b))
        }
        Op::Mul => {
            let s = if xs { SIGN } else { 0 };
            if is_inf(a) || is_inf(b) {
                return if is_zero(a) || is_zero(b) {
                    NAN
                } else {
                    s | INF
                };
            }
            round(signed(a) * signed(b), 1 << 48, xs)
        }
        Op::Div => {
            let s = if xs { SIGN } else { 0 };
            match (is_inf(a), is_inf(b), is_zero(a), is_zero(b)) {
                (true, true, ..) | (_, _, true, true) => NAN,
                (true, ..) | (_, _, false, true) => s | INF,
                (_, true, ..) | (_, _, true, _) => s,
                _ => {
                    let (n, d) = (signed(a), signed(b));
                    let (n, d) = if d < 0 { (-n, -d) } else { (n, d) };
                    round(n, d, xs)
                }
            }
        }
    }
}

/// `fma(a, b, c)`, exact then rounded once (finite operands).
fn fma_reference(a: u16, b: u16, c: u16) -> u16 {
    let exact = signed(a) * signed(b) + (signed(c) << 24);
    let product_neg = neg(a) != neg(b);
    // An exact zero: -0 only when both terms are -0.
    round(exact, 1 << 48, product_neg && neg(c) && is_zero(c))
}

/// Same result: equal bits, or both NaN.
fn same(a: u16, b: u16) -> bool {
    a == b || (is_nan(a) && is_nan(b))
}

/// Operands: the edge cases, then a deterministic pseudo-random spread of
/// half bit patterns (every exponent, subnormals included).
fn operands() -> Vec<u16> {
    let mut v: Vec<u16> = vec![
        0x0000, 0x8000, // ±0
        0x0001, 0x8001, // smallest subnormal
        0x03ff, 0x0400, // largest subnormal, smallest normal
        0x3c00, 0xbc00, 0x3c01, 0x3bff, // 1, -1, 1 + ulp, 1 - ulp/2
        0x4000, 0x3800, 0x3e00, // 2, 0.5, 1.5
        0x7bff, 0xfbff, 0x7bfe, // ±65504, 65472
        0x7c00, 0xfc00, 0x7e00, // ±inf, NaN
        0x1400, 0x5bff, 0x2e66, 0x4248, // 2^-10, 255.9, 0.1, pi
    ];
    let mut s: u32 = 12345;
    while v.len() < 96 {
        s = s.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        v.push((s >> 16) as u16);
    }
    v
}

const PRAGMA: &str = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n";

#[test]
fn arithmetic_is_correctly_rounded() {
    arithmetic_with(build);
}

/// The same with one work-item per step (no lanes) and Cranelift's verifier
/// on every function.
#[test]
fn arithmetic_one_item_per_step_verified() {
    let cg = cranecl_jit::codegen::CodegenOptions {
        lanes: false,
        verify: true,
        ..Default::default()
    };
    arithmetic_with(|src| build_cg(src, &cg));
}

fn arithmetic_with(build: impl Fn(&str) -> cranecl_jit::codegen::CompiledProgram) {
    let p = build(&format!(
        "{PRAGMA}kernel void t(global const half *a, global const half *b, global half *o,
                               global int *cmp) {{
            size_t i = get_global_id(0);
            half x = a[i], y = b[i];
            o[4 * i + 0] = x + y;
            o[4 * i + 1] = x - y;
            o[4 * i + 2] = x * y;
            o[4 * i + 3] = x / y;
            cmp[4 * i + 0] = x < y;
            cmp[4 * i + 1] = x == y;
            cmp[4 * i + 2] = x >= y;
            cmp[4 * i + 3] = x != y;
        }}"
    ));
    let ops = operands();
    let mut a = Vec::new();
    let mut b = Vec::new();
    for &x in &ops {
        for &y in &ops {
            a.push(x);
            b.push(y);
        }
    }
    let n = a.len();
    let mut o = vec![0u16; 4 * n];
    let mut cmp = vec![0i32; 4 * n];
    run(
        &p,
        "t",
        &mut [buf(&mut a), buf(&mut b), buf(&mut o), buf(&mut cmp)],
        &[n as u64],
        &[16],
    );
    let value = |h: u16| f64::from(cranecl_jit::builtins::host::from_half(h));
    let mut bad = Vec::new();
    for i in 0..n {
        let (x, y) = (a[i], b[i]);
        for (k, op) in [Op::Add, Op::Sub, Op::Mul, Op::Div].into_iter().enumerate() {
            let want = reference(op, x, y);
            let got = o[4 * i + k];
            if !same(got, want) {
                bad.push(format!(
                    "{x:#06x} {op:?} {y:#06x}: got {got:#06x}, want {want:#06x}"
                ));
            }
        }
        let (vx, vy) = (value(x), value(y));
        let want = [vx < vy, vx == vy, vx >= vy, vx != vy].map(i32::from);
        for (k, name) in ["<", "==", ">=", "!="].into_iter().enumerate() {
            if cmp[4 * i + k] != want[k] {
                bad.push(format!("{x:#06x} {name} {y:#06x}: got {}", cmp[4 * i + k]));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} wrong, first: {:#?}",
        bad.len(),
        &bad[..bad.len().min(20)]
    );
}

#[test]
fn rounding_ties_overflow_and_subnormals() {
    // Named cases, each a kernel expression with its expected bits.
    let cases: &[(&str, u16)] = &[
        // 1 + 2^-11 is the tie between 1 and 1 + 2^-10: even is 1.
        ("(half)1.0h + (half)0x1p-11h", 0x3c00),
        // 1 + 3*2^-11 ties between 1 + 2^-10 and 1 + 2^-9: even is the latter.
        ("(1.0h + 0x1p-10h) + 0x1p-11h", 0x3c02),
        // 65504 + 16 = 65520 ties between 65504 and 2^16: overflows to inf.
        ("65504.0h + 16.0h", 0x7c00),
        ("65504.0h + 15.0h", 0x7bff),
        ("-65504.0h * 2.0h", 0xfc00),
        // Subnormals: the smallest one halved ties to zero (even), times 1.5
        // rounds to 2 units.
        ("0x1p-24h * 0.5h", 0x0000),
        ("0x1p-24h * 1.5h", 0x0002),
        ("0x1p-14h - 0x1p-24h", 0x03ff),
        ("-0x1p-24h / 4.0h", 0x8000),
        ("1.0h / 0.0h", 0x7c00),
        ("-1.0h / 0.0h", 0xfc00),
        ("1.0h / 3.0h", 0x3555),
        ("-(half)2.5h", 0xc100),
    ];
    let mut src = format!("{PRAGMA}kernel void t(global half *o, global const half *z) {{\n");
    for (i, (e, _)) in cases.iter().enumerate() {
        // `- z[0]` (+0, which keeps every value, -0 included) makes the last
        // operation one the kernel runs.
        src.push_str(&format!("    o[{i}] = ({e}) - z[0];\n"));
    }
    src.push_str("}\n");
    let p = build(&src);
    let mut o = vec![0u16; cases.len()];
    let mut z = vec![0u16; 1];
    run(&p, "t", &mut [buf(&mut o), buf(&mut z)], &[1], &[1]);
    for (i, (e, want)) in cases.iter().enumerate() {
        assert_eq!(o[i], *want, "{e}: got {:#06x}, want {want:#06x}", o[i]);
    }
}

#[test]
fn nan_compares_unordered() {
    let p = build(&format!(
        "{PRAGMA}kernel void t(global const half *a, global int *o) {{
            half n = a[0], one = a[1];
            o[0] = n == n;
            o[1] = n != n;
            o[2] = n < one;
            o[3] = isnan(n);
            o[4] = !n;
            o[5] = n ? 1 : 0;
            o[6] = isnan(n * 0.0h);
            o[7] = isnan(a[2] - a[2]); // inf - inf
        }}"
    ));
    let mut a = vec![NAN, 0x3c00, INF];
    let mut o = vec![9i32; 8];
    run(&p, "t", &mut [buf(&mut a), buf(&mut o)], &[1], &[1]);
    assert_eq!(
        o,
        [0, 1, 0, 1, 0, 1, 1, 1],
        "NaN == NaN, !=, <, isnan, !, ?:, NaN*0, inf-inf"
    );
}

#[test]
fn fma_is_correctly_rounded() {
    let p = build(&format!(
        "{PRAGMA}kernel void t(global const half *a, global const half *b, global const half *c,
                               global half *o) {{
            size_t i = get_global_id(0);
            o[i] = fma(a[i], b[i], c[i]);
        }}"
    ));
    let finite: Vec<u16> = operands()
        .into_iter()
        .filter(|h| h & 0x7c00 != 0x7c00)
        .collect();
    let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
    for (i, &x) in finite.iter().enumerate() {
        for (j, &y) in finite.iter().enumerate() {
            a.push(x);
            b.push(y);
            c.push(finite[(i * 7 + j * 3) % finite.len()]);
        }
    }
    // The double-rounding trap: 1.5 * (1 + 2^-10) is the tie 1.5 + 3*2^-11
    // exactly; a tiny addend decides it.
    for (x, y, z) in [(0x3e00, 0x3c01, 0x0001), (0x3e00, 0x3c01, 0x8001)] {
        a.push(x);
        b.push(y);
        c.push(z);
    }
    let n = a.len();
    let mut o = vec![0u16; n];
    run(
        &p,
        "t",
        &mut [buf(&mut a), buf(&mut b), buf(&mut c), buf(&mut o)],
        &[n as u64],
        &[1],
    );
    for i in 0..n {
        let want = fma_reference(a[i], b[i], c[i]);
        assert!(
            same(o[i], want),
            "fma({:#06x}, {:#06x}, {:#06x}): got {:#06x}, want {want:#06x}",
            a[i],
            b[i],
            c[i],
            o[i]
        );
    }
}

/// The value of half bits.
fn value(h: u16) -> f64 {
    f64::from(cranecl_jit::builtins::host::from_half(h))
}

/// The half `x` rounds to by `mode` (0 rte, 1 rtz, 2 rtp, 3 rtn), from the
/// exact reference: `x` is a double, an exact fraction of 2^-1074 units.
fn half_of(x: f64, mode: u32) -> u16 {
    if x.is_nan() {
        return NAN;
    }
    if x.is_infinite() {
        return if x < 0.0 { SIGN | INF } else { INF };
    }
    if x.abs() >= 131072.0 {
        return overflowed(x < 0.0, mode);
    }
    // |x| = m * 2^e exactly, m < 2^53.
    let (m, e) = {
        let bits = x.abs().to_bits();
        let (be, bm) = ((bits >> 52) as i32, bits & ((1 << 52) - 1));
        if be == 0 {
            (bm, -1074)
        } else {
            (bm | (1 << 52), be - 1075)
        }
    };
    // Below 2^-60 only a sticky bit matters (half's finest midpoint is 2^-25).
    let (m, e) = if e < -60 {
        let k = (-60 - e).min(63) as u32;
        let sticky = u64::from(m & ((1u64 << k) - 1) != 0);
        ((m >> k) | sticky, -60)
    } else {
        (m, e)
    };
    let s: i128 = if x < 0.0 { -1 } else { 1 };
    let (num, den) = if e >= 0 {
        (s * (i128::from(m) << e), 1)
    } else {
        (s * i128::from(m), 1i128 << -e)
    };
    let nearest = round(num, den, x.is_sign_negative());
    if mode == 0 {
        return nearest;
    }
    // Directed: step from the nearest half to the right side of x.
    let up = mode == 2 || (mode == 1 && x < 0.0);
    let nv = value(nearest);
    let toward = |h: u16, bigger: bool| -> u16 {
        // The next half above (bigger) or below h.
        let v = value(h);
        let pos = v > 0.0 || (v == 0.0 && h & SIGN == 0);
        if bigger == pos {
            h + 1
        } else if h & 0x7fff == 0 {
            (h ^ SIGN) + 1
        } else {
            h - 1
        }
    };
    if nearest & 0x7fff == INF {
        // Overflowed to nearest infinity; directed modes may keep 65504.
        return overflowed(x < 0.0, mode);
    }
    let r = if (up && nv < x) || (!up && nv > x) {
        toward(nearest, up)
    } else {
        nearest
    };
    // Zero results keep x's sign.
    if r & 0x7fff == 0 {
        if x.is_sign_negative() {
            SIGN
        } else {
            0
        }
    } else {
        r
    }
}

fn overflowed(negative: bool, mode: u32) -> u16 {
    let inf = match mode {
        0 => true,
        1 => false,
        2 => !negative,
        _ => negative,
    };
    let s = if negative { SIGN } else { 0 };
    s | if inf { INF } else { 0x7bff }
}

#[test]
fn conversions_round_by_their_mode() {
    let p = build(&format!(
        "{PRAGMA}kernel void t(global const float *f, global const double *d,
                               global const int *n, global half *o, global int *back) {{
            size_t i = get_global_id(0);
            o[12 * i + 0] = f[i];                  // implicit: nearest even
            o[12 * i + 1] = convert_half_rtz(f[i]);
            o[12 * i + 2] = convert_half_rtp(f[i]);
            o[12 * i + 3] = convert_half_rtn(f[i]);
            o[12 * i + 4] = (half)d[i];
            o[12 * i + 5] = convert_half_rtz(d[i]);
            o[12 * i + 6] = convert_half_rtp(d[i]);
            o[12 * i + 7] = convert_half_rtn(d[i]);
            o[12 * i + 8] = (half)n[i];
            o[12 * i + 9] = convert_half_rtz(n[i]);
            o[12 * i + 10] = convert_half_rtp(n[i]);
            o[12 * i + 11] = convert_half_rtn(n[i]);
            half h = o[12 * i];
            back[3 * i + 0] = (int)h;
            back[3 * i + 1] = convert_int_rte(h);
            back[3 * i + 2] = convert_int_sat_rtp(h);
        }}"
    ));
    let mut f: Vec<f32> = vec![
        0.0,
        -0.0,
        1.0,
        0.1,
        -0.1,
        1.000_488_3,
        1.000_488_4,
        65504.0,
        65519.99,
        65520.0,
        1e9,
        -1e9,
        6e-8,
        2.98e-8,
        2.980_232_2e-8,
        -3e-8,
        6.1e-5,
        1e-10,
        2.5,
        3.5,
        -2.5,
        1234.567,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
    ];
    let mut s: u32 = 7;
    while f.len() < 256 {
        s = s.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        let v = f32::from_bits(s);
        if v.is_finite() && v.abs() < 1e6 {
            f.push(v);
        }
    }
    // Doubles just off the float values: rounding through float would err.
    let mut d: Vec<f64> = f.iter().map(|v| f64::from(*v) * (1.0 + 1e-13)).collect();
    d[5] = 1.0 + 2f64.powi(-11) + 2f64.powi(-40); // just above a tie: rounds up
    let mut n: Vec<i32> = (0..f.len() as i32)
        .map(|i| i.wrapping_mul(2_654_435_761u32 as i32) >> (i % 20))
        .collect();
    n[0] = 2049; // a tie between 2048 and 2050: even is 2048
    n[1] = 65519;
    n[2] = 65520;
    n[3] = -70000;
    let len = f.len();
    let mut o = vec![0u16; 12 * len];
    let mut back = vec![0i32; 3 * len];
    run(
        &p,
        "t",
        &mut [
            buf(&mut f),
            buf(&mut d),
            buf(&mut n),
            buf(&mut o),
            buf(&mut back),
        ],
        &[len as u64],
        &[1],
    );
    let mut bad = Vec::new();
    for i in 0..len {
        let src = [f64::from(f[i]), d[i], f64::from(n[i])];
        for (k, x) in src.iter().enumerate() {
            for mode in 0..4u32 {
                let got = o[12 * i + 4 * k + mode as usize];
                let want = half_of(*x, mode);
                if !same(got, want) {
                    bad.push(format!(
                        "{x:e} mode {mode}: got {got:#06x}, want {want:#06x}"
                    ));
                }
            }
        }
        let h = value(o[12 * i]);
        if h.is_finite() {
            let rte = h.round_ties_even();
            let want = [h.trunc() as i32, rte as i32, h.ceil() as i32];
            if back[3 * i..3 * i + 3] != want {
                bad.push(format!(
                    "{h}: int conversions {:?}, want {want:?}",
                    &back[3 * i..3 * i + 3]
                ));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} wrong, first: {:#?}",
        bad.len(),
        &bad[..bad.len().min(20)]
    );
}

#[test]
fn vectors_swizzles_literals_and_macros() {
    let p = build(&format!(
        "{PRAGMA}kernel void t(global const half4 *a, global half *o, global short *c,
                               global float *m) {{
            half4 v = a[0];
            half4 w = v * (half4)(2.0h, 0.5h, -1.0h, 3.0h) + v.wzyx;
            vstore4(w, 0, o);
            half2 s = w.s13 - (half2)1.0h;
            o[4] = s.x;
            o[5] = s.y;
            o[6] = (half)(v.x > v.y ? HALF_MAX : HALF_EPSILON);
            o[7] = M_PI_H;
            short4 lt = v < w;
            vstore4(lt, 0, c);
            c[4] = (short)isequal(v.x, v.x);
            short2 nan2 = isnan((half2)(v.x, v.x / 0.0h - v.x / 0.0h));
            c[5] = nan2.x;
            c[6] = nan2.y;
            m[0] = HALF_MAX;
            m[1] = HALF_MIN;
            m[2] = HALF_EPSILON;
            m[3] = HALF_MANT_DIG + HALF_DIG;
            m[4] = HALF_MAX_EXP + HALF_MIN_EXP;
            m[5] = sizeof(half3) + __alignof__(half3) + sizeof(half);
        }}"
    ));
    let h = |x: f64| half_of(x, 0);
    let vals = [1.5, -2.0, 0.25, 1000.0];
    let mut a: Vec<u16> = vals.iter().map(|v| h(*v)).collect();
    let mut o = vec![0u16; 8];
    let mut c = vec![0i16; 7];
    let mut m = vec![0f32; 6];
    run(
        &p,
        "t",
        &mut [buf(&mut a), buf(&mut o), buf(&mut c), buf(&mut m)],
        &[1],
        &[1],
    );
    let w: Vec<f64> = (0..4)
        .map(|i| {
            let scale = [2.0, 0.5, -1.0, 3.0][i];
            value(h(value(h(vals[i] * scale)) + vals[3 - i]))
        })
        .collect();
    for i in 0..4 {
        assert_eq!(value(o[i]), w[i], "w.s{i}");
    }
    assert_eq!(value(o[4]), value(h(w[1] - 1.0)), "s.x = w.s1 - 1");
    assert_eq!(value(o[5]), value(h(w[3] - 1.0)), "s.y = w.s3 - 1");
    assert_eq!(o[6], 0x7bff, "v.x > v.y ? HALF_MAX : HALF_EPSILON");
    assert_eq!(o[7], 0x4248, "M_PI_H");
    for i in 0..4 {
        let want = if vals[i] < w[i] { -1 } else { 0 };
        assert_eq!(c[i], want, "(v < w).s{i}");
    }
    assert_eq!(c[4], 1, "isequal(half, half) is an int 1");
    assert_eq!(&c[5..7], &[0, -1], "isnan(half2) is a short2 of 0/-1");
    assert_eq!(m[0], 65504.0, "HALF_MAX");
    assert_eq!(m[1], 2f32.powi(-14), "HALF_MIN");
    assert_eq!(m[2], 2f32.powi(-10), "HALF_EPSILON");
    assert_eq!(m[3], 14.0, "HALF_MANT_DIG + HALF_DIG");
    assert_eq!(m[4], 3.0, "HALF_MAX_EXP + HALF_MIN_EXP");
    assert_eq!(
        m[5],
        8.0 + 8.0 + 2.0,
        "sizeof(half3) + alignof(half3) + sizeof(half)"
    );
}

#[test]
fn builtins_over_half() {
    let p = build(&format!(
        "{PRAGMA}kernel void t(global const half *a, global half *o, global int *e) {{
            size_t i = get_global_id(0);
            half x = a[i];
            half ip;
            o[8 * i + 0] = sqrt(x);
            o[8 * i + 1] = fabs(x) + floor(x);
            o[8 * i + 2] = fract(x, &ip);
            o[8 * i + 3] = ip;
            o[8 * i + 4] = fmax(x, (half)0.5h);
            o[8 * i + 5] = sin(x);
            o[8 * i + 6] = exp(x);
            o[8 * i + 7] = length((half2)(x, 1.0h));
            e[i] = ilogb(x);
        }}"
    ));
    let mut a: Vec<u16> = operands().into_iter().filter(|h| !is_nan(*h)).collect();
    let n = a.len();
    let mut o = vec![0u16; 8 * n];
    let mut e = vec![0i32; n];
    run(
        &p,
        "t",
        &mut [buf(&mut a), buf(&mut o), buf(&mut e)],
        &[n as u64],
        &[1],
    );
    // Exact or correctly rounded results, then ulp-bounded ones.
    let ulps = |got: u16, want: f64| -> f64 {
        let g = value(got);
        if same(got, half_of(want, 0)) {
            return 0.0; // correctly rounded (overflow to inf included)
        }
        if !want.is_finite() || !g.is_finite() {
            return f64::INFINITY;
        }
        let w = value(half_of(want, 1));
        let e = if w == 0.0 {
            -24
        } else {
            (libm::ilogb(w)).max(-14) - 10
        };
        (g - want).abs() / 2f64.powi(e)
    };
    for i in 0..n {
        let x = value(a[i]);
        let exact = [
            ("sqrt", half_of(x.sqrt(), 0)),
            ("fabs + floor", half_of(x.abs() + x.floor(), 0)),
            (
                "fract",
                half_of((x - x.floor()).min(1.0 - 2f64.powi(-11)), 0),
            ),
            ("fract's whole part", half_of(x.floor(), 0)),
            ("fmax", half_of(x.max(0.5), 0)),
        ];
        for (k, (name, want)) in exact.iter().enumerate() {
            if x.is_infinite() && k == 2 {
                continue; // fract(inf) is 0 by the spec's rule, not x - floor(x)
            }
            assert!(
                same(o[8 * i + k], *want),
                "{name}({x}): got {:#06x}, want {want:#06x}",
                o[8 * i + k]
            );
        }
        // The spec's half limits: sin, exp 2 ulp; length 3 ulp (geometric).
        for (k, name, want, limit) in [
            (5, "sin", x.sin(), 2.0),
            (6, "exp", x.exp(), 2.0),
            (7, "length", x.hypot(1.0), 3.0),
        ] {
            if x.is_infinite() && k == 5 {
                assert!(is_nan(o[8 * i + k]), "sin({x}) is NaN");
                continue;
            }
            let u = ulps(o[8 * i + k], want);
            assert!(
                u <= limit,
                "{name}({x}) = {} is {u} ulp from {want}",
                value(o[8 * i + k])
            );
        }
        if x.is_finite() && x != 0.0 {
            assert_eq!(e[i], libm::ilogb(x), "ilogb({x})");
        }
    }
}

#[test]
fn half_across_barriers_and_in_lanes() {
    // A half value live across a barrier (kept in the work-item's frame)
    // and a divergent branch on half (the lanes' per-lane path).
    let p = build(&format!(
        "{PRAGMA}kernel void t(global const half *a, global half *o, local half *l) {{
            size_t i = get_global_id(0), li = get_local_id(0);
            half x = a[i] * 2.0h;
            l[li] = x;
            barrier(CLK_LOCAL_MEM_FENCE);
            half y = l[(li + 1) % get_local_size(0)];
            if (x > y) y -= x; else y += 1.0h;
            o[i] = y + x;
        }}"
    ));
    let n = 64;
    let mut a: Vec<u16> = (0..n)
        .map(|i| half_of(f64::from(i * 37 % 23) / 8.0 - 1.0, 0))
        .collect();
    let mut o = vec![0u16; n as usize];
    run(
        &p,
        "t",
        &mut [buf(&mut a), buf(&mut o), Arg::Local(2 * 16)],
        &[n as u64],
        &[16],
    );
    let h = |v: f64| value(half_of(v, 0));
    for i in 0..n as usize {
        let x = h(value(a[i]) * 2.0);
        let g = i / 16 * 16;
        let mut y = h(value(a[g + (i - g + 1) % 16]) * 2.0);
        y = if x > y { h(y - x) } else { h(y + 1.0) };
        assert_eq!(value(o[i]), h(y + x), "item {i}");
    }
}

/// Build with the front end alone: (success, build log).
fn front_end(src: &str, options: &str) -> (bool, String) {
    let opts = cranecl_jit::options::BuildOptions::parse(options).expect("build options");
    let out = cranecl_jit::frontend::compile(src, "<source>", &opts, &[]);
    (out.success, out.log)
}

#[test]
fn half_arithmetic_needs_the_pragma_and_legal_operators() {
    let body = "kernel void k(global half *p) { half x = p[0]; p[1] = x + 1.0h; }\n";
    for std in ["-cl-std=CL1.2", "-cl-std=CL3.0"] {
        // Without `#pragma OPENCL EXTENSION cl_khr_fp16 : enable`: clang-14's words.
        let (ok, log) = front_end(body, std);
        assert!(!ok, "{std}: half arithmetic without the pragma built");
        assert!(
            log.contains("declaring variable of type 'half' is not allowed"),
            "{std}:\n{log}"
        );
        assert!(
            log.contains("half precision constant requires cl_khr_fp16"),
            "{std}:\n{log}"
        );
        // Enabled, it builds; disabled again, it does not.
        let (ok, log) = front_end(&format!("{PRAGMA}{body}"), std);
        assert!(ok, "{std}:\n{log}");
        let off = format!("{PRAGMA}#pragma OPENCL EXTENSION cl_khr_fp16 : disable\n{body}");
        assert!(!front_end(&off, std).0, "{std}: disabled again");
        let all = format!("#pragma OPENCL EXTENSION all : enable\n{body}");
        assert!(front_end(&all, std).0, "{std}: 'all : enable'");
        // The feature macros: cl_khr_fp16 always, __opencl_c_fp16 under 3.0.
        let macros = "#ifndef cl_khr_fp16\n#error no cl_khr_fp16\n#endif\n\
                      #if defined(__opencl_c_fp16) != (__OPENCL_C_VERSION__ >= 300)\n\
                      #error __opencl_c_fp16\n#endif\nkernel void k() {}\n";
        let (ok, log) = front_end(macros, std);
        assert!(ok, "{std}:\n{log}");
    }
    // A half kernel parameter, and half3 as a vector.
    let (ok, log) = front_end(
        &format!("{PRAGMA}kernel void k(half a, global half3 *p) {{ p[0] = (half3)a; }}"),
        "-cl-std=CL3.0",
    );
    assert!(ok, "{log}");
    // Operators C gives no meaning on floating types.
    for (op, what) in [
        ("x % x", "invalid operands"),
        ("x & x", "invalid operands"),
        ("x << 1", "invalid operands"),
        ("~x", "invalid argument type"),
    ] {
        let src =
            format!("{PRAGMA}kernel void k(global half *p) {{ half x = p[0]; p[1] = {op}; }}");
        let (ok, log) = front_end(&src, "-cl-std=CL3.0");
        assert!(!ok && log.contains(what), "{op}: expected '{what}':\n{log}");
    }
}

#[test]
fn every_half_widens_exactly() {
    let p = build(&format!(
        "{PRAGMA}kernel void t(global const half *h, global float *f) {{
            size_t i = get_global_id(0);
            f[i] = h[i];
        }}"
    ));
    let mut h: Vec<u16> = (0..=u16::MAX).collect();
    let n = h.len() as u64;
    let mut f = vec![0f32; h.len()];
    run(&p, "t", &mut [buf(&mut h), buf(&mut f)], &[n], &[64]);
    for (bits, got) in h.iter().zip(&f) {
        let (e, m) = (i32::from(bits >> 10 & 0x1f), f64::from(bits & 0x3ff));
        let magnitude = match e {
            0 => m * 2f64.powi(-24),
            31 if m == 0.0 => f64::INFINITY,
            31 => f64::NAN,
            _ => (1.0 + m / 1024.0) * 2f64.powi(e - 15),
        };
        let want = if bits & SIGN != 0 {
            -magnitude
        } else {
            magnitude
        };
        let ok = if want.is_nan() {
            // A NaN keeps its payload (the quiet bit and the rest).
            got.is_nan() && got.to_bits() >> 13 & 0x3ff == u32::from(bits & 0x3ff)
        } else {
            f64::from(*got) == want && got.is_sign_negative() == (bits & SIGN != 0)
        };
        assert!(ok, "(float){bits:#06x}: got {got:e}, want {want:e}");
    }
}

#[test]
fn printf_takes_half_as_double() {
    // The kernel's half arguments become double slots (C's promotion of
    // floating arguments), which the formatter reads for `%f` and `%v2hf`.
    use cranecl_jit::builtins::printf::format;
    let d = |x: f64| x.to_bits();
    assert_eq!(
        format(b"%f %v2hf", &[d(1.5), d(-2.0), d(0.25)]).as_deref(),
        Some("1.500000 -2.000000,0.250000")
    );
    let p = build(&format!(
        "{PRAGMA}kernel void t(global const half *h, global int *o) {{
            o[0] = printf(\"fp16 printf test: %f %v2hf\\n\", h[0], (half2)(h[1], h[0]));
        }}"
    ));
    let mut h: Vec<u16> = vec![0x3e00, 0xc000];
    let mut o = vec![-7i32];
    run(&p, "t", &mut [buf(&mut h), buf(&mut o)], &[1], &[1]);
    assert_eq!(o[0], 0, "printf with half arguments succeeds");
}

#[test]
fn half_arguments_constants_and_compound_assignment() {
    let p = build(&format!(
        "{PRAGMA}constant half table[3] = {{ 1.0h, 2.5h, 0.1h }};
        kernel void t(half a, half2 b, global half *o, global int *n) {{
            half x = a;          // 3.0
            x += b.y;            // 3.0 + 0.5
            x *= table[1];       // 8.75
            x++;                 // 9.75
            --x;                 // 8.75
            o[0] = x;
            o[1] = table[2];
            o[2] = -x / 0.0h;    // -inf
            o[3] = x > 8.0h ? b.x : b.y;
            n[0] = (int)x;
            n[1] = (x == 8.75h) + (table[0] != 1.0h) * 10;
            n[2] = sizeof(table);
        }}"
    ));
    let mut o = vec![0u16; 4];
    let mut n = vec![0i32; 3];
    let b: [u16; 2] = [0x4400, 0x3800]; // (4, 0.5)
    run(
        &p,
        "t",
        &mut [val(0x4200u16), val(b), buf(&mut o), buf(&mut n)],
        &[1],
        &[1],
    );
    assert_eq!(value(o[0]), 8.75, "((3 + 0.5) * 2.5 + 1) - 1");
    assert_eq!(
        o[1],
        half_of(0.1, 0),
        "constant half 0.1h rounds once from the literal"
    );
    assert_eq!(o[2], SIGN | INF, "-x / 0");
    assert_eq!(value(o[3]), 4.0, "x > 8 ? b.x : b.y");
    assert_eq!(
        n,
        [8, 1, 6],
        "(int)x, comparisons, sizeof(constant half[3])"
    );
}

/// Distance from `got` (half bits) to the exact `want`, in ulps of half at
/// `want` (0 when `got` is `want` correctly rounded, overflow included).
fn half_ulps(got: u16, want: f64) -> f64 {
    if same(got, half_of(want, 0)) {
        return 0.0;
    }
    let g = value(got);
    if !g.is_finite() || !want.is_finite() {
        return f64::INFINITY;
    }
    let e = if want == 0.0 {
        -14
    } else {
        libm::ilogb(want).max(-14)
    };
    (g - want).abs() / 2f64.powi(e - 10)
}

/// Every half overload of these unary built-ins, on every finite half,
/// against core-math's correctly rounded double result: the exact ones
/// exact, sqrt correctly rounded, the rest within 1 ulp (the spec allows
/// 2 or more for each of them in half).
#[test]
fn unary_builtins_on_every_half() {
    type F = fn(f64) -> f64;
    let table: &[(&str, F, f64)] = &[
        ("sqrt", f64::sqrt, 0.5),
        ("fabs", f64::abs, 0.0),
        ("floor", f64::floor, 0.0),
        ("ceil", f64::ceil, 0.0),
        ("trunc", f64::trunc, 0.0),
        ("round", f64::round, 0.0),
        ("rint", f64::round_ties_even, 0.0),
        ("sin", core_math::sin, 1.0),
        ("cos", core_math::cos, 1.0),
        ("tan", core_math::tan, 1.0),
        ("asin", core_math::asin, 1.0),
        ("acos", core_math::acos, 1.0),
        ("atan", core_math::atan, 1.0),
        ("sinh", core_math::sinh, 1.0),
        ("cosh", core_math::cosh, 1.0),
        ("tanh", core_math::tanh, 1.0),
        ("exp", core_math::exp, 1.0),
        ("exp2", core_math::exp2, 1.0),
        ("exp10", core_math::exp10, 1.0),
        ("expm1", core_math::expm1, 1.0),
        ("log", core_math::log, 1.0),
        ("log2", core_math::log2, 1.0),
        ("log10", core_math::log10, 1.0),
        ("log1p", core_math::log1p, 1.0),
        ("cbrt", core_math::cbrt, 1.0),
        ("rsqrt", core_math::rsqrt, 1.0),
        ("sinpi", core_math::sinpi, 1.0),
        ("erf", core_math::erf, 1.0),
    ];
    let mut a: Vec<u16> = (0..0x7c00u16).chain(0x8000..0xfc00).collect();
    let n = a.len() as u64;
    let mut bad = Vec::new();
    for &(name, reference, limit) in table {
        let p = build(&format!(
            "{PRAGMA}kernel void t(global const half *a, global half *o) {{
                size_t i = get_global_id(0);
                o[i] = {name}(a[i]);
            }}"
        ));
        let mut o = vec![0u16; a.len()];
        run(&p, "t", &mut [buf(&mut a), buf(&mut o)], &[n], &[64]);
        for (&x, &got) in a.iter().zip(&o) {
            let want = reference(value(x));
            if want.is_nan() {
                if !is_nan(got) {
                    bad.push(format!("{name}({}) = {}, want NaN", value(x), value(got)));
                }
                continue;
            }
            let u = half_ulps(got, want);
            if u > limit {
                bad.push(format!(
                    "{name}({}) = {}, want {want:e} ({u} ulp > {limit})",
                    value(x),
                    value(got)
                ));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} wrong, first:\n{}",
        bad.len(),
        bad[..bad.len().min(30)].join("\n")
    );
}

/// `nextafter` by values: the neighbouring half of `x` toward `y`, found in
/// `all`, every half value in ascending order (one zero).
fn next_after_reference(x: u16, y: u16, all: &[f64]) -> f64 {
    let (vx, vy) = (value(x), value(y));
    if vx.is_nan() || vy.is_nan() {
        return f64::NAN;
    }
    if vx == vy {
        return vy;
    }
    let above = all.partition_point(|v| *v <= vx);
    if vy > vx {
        all[above]
    } else {
        all[all.partition_point(|v| *v < vx) - 1]
    }
}

#[test]
fn binary_builtins_on_half() {
    type F = fn(f64, f64) -> f64;
    let table: &[(&str, F, f64)] = &[
        ("fmod", |x, y| x % y, 0.0),
        ("remainder", libm::remainder, 0.0),
        ("fmin", f64::min, 0.0),
        ("fmax", f64::max, 0.0),
        ("copysign", f64::copysign, 0.0),
        (
            "fdim",
            |x, y| {
                if x > y {
                    x - y
                } else if x.is_nan() || y.is_nan() {
                    f64::NAN
                } else {
                    0.0
                }
            },
            0.0,
        ),
        ("hypot", core_math::hypot, 1.0),
        ("atan2", core_math::atan2, 1.0),
        ("pow", core_math::pow, 1.0),
    ];
    let ops = operands();
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for &x in &ops {
        for &y in &ops {
            a.push(x);
            b.push(y);
        }
    }
    let n = a.len() as u64;
    let mut bad = Vec::new();
    let mut check = |name: &str, x: u16, y: u16, got: u16, want: f64, limit: f64| {
        let ok = if want.is_nan() {
            is_nan(got)
        } else if want == 0.0 {
            value(got) == 0.0
        } else {
            half_ulps(got, want) <= limit
        };
        if !ok {
            bad.push(format!(
                "{name}({}, {}) = {}, want {want:e}",
                value(x),
                value(y),
                value(got)
            ));
        }
    };
    let mut all: Vec<f64> = (0..0x7c01u16).map(value).collect();
    all.extend((1..0x7c01u16).map(|h| value(h | SIGN)));
    all.sort_by(f64::total_cmp);
    let names: Vec<&str> = table.iter().map(|t| t.0).chain(["nextafter"]).collect();
    for name in names {
        let p = build(&format!(
            "{PRAGMA}kernel void t(global const half *a, global const half *b, global half *o) {{
                size_t i = get_global_id(0);
                o[i] = {name}(a[i], b[i]);
            }}"
        ));
        let mut o = vec![0u16; a.len()];
        run(
            &p,
            "t",
            &mut [buf(&mut a), buf(&mut b), buf(&mut o)],
            &[n],
            &[16],
        );
        for i in 0..a.len() {
            let (x, y) = (a[i], b[i]);
            match table.iter().find(|t| t.0 == name) {
                Some(&(_, reference, limit)) => {
                    check(name, x, y, o[i], reference(value(x), value(y)), limit)
                }
                None => check(name, x, y, o[i], next_after_reference(x, y, &all), 0.0),
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} wrong, first:\n{}",
        bad.len(),
        bad[..bad.len().min(30)].join("\n")
    );
}

#[test]
fn work_group_and_sub_group_collectives_on_half() {
    let p = build(&format!(
        "{PRAGMA}kernel void t(global const half *a, global half *o) {{
            size_t i = get_global_id(0);
            half x = a[i];
            o[6 * i + 0] = work_group_reduce_add(x);
            o[6 * i + 1] = work_group_scan_inclusive_add(x);
            o[6 * i + 2] = work_group_reduce_max(x);
            o[6 * i + 3] = work_group_scan_exclusive_min(x);
            o[6 * i + 4] = work_group_broadcast(x, 3);
            o[6 * i + 5] = sub_group_reduce_add(x) + sub_group_broadcast(x, 1u);
        }}"
    ));
    let n = 32usize;
    let local = 16usize;
    let mut a: Vec<u16> = (0..n)
        .map(|i| half_of((i as f64 * 0.37 - 3.0) * [1.0, 1000.0, 0.001][i % 3], 0))
        .collect();
    let mut o = vec![0u16; 6 * n];
    run(
        &p,
        "t",
        &mut [buf(&mut a), buf(&mut o)],
        &[n as u64],
        &[local as u64],
    );
    // Sums in local-id order, each rounded to half.
    let add = |xs: &[u16]| xs.iter().fold(0u16, |acc, x| reference(Op::Add, acc, *x));
    for i in 0..n {
        let g = i / local * local;
        let group = &a[g..g + local];
        let lid = i - g;
        let sub = &a[i / 4 * 4..i / 4 * 4 + 4];
        let max = group
            .iter()
            .map(|h| value(*h))
            .fold(f64::NEG_INFINITY, f64::max);
        let min_before = group[..lid]
            .iter()
            .map(|h| value(*h))
            .fold(f64::INFINITY, f64::min);
        let want = [
            ("work_group_reduce_add", value(add(group))),
            ("work_group_scan_inclusive_add", value(add(&group[..=lid]))),
            ("work_group_reduce_max", max),
            ("work_group_scan_exclusive_min", min_before),
            ("work_group_broadcast(x, 3)", value(group[3])),
            (
                "sub_group_reduce_add(x) + sub_group_broadcast(x, 1)",
                value(reference(Op::Add, add(sub), sub[1])),
            ),
        ];
        for (k, (name, w)) in want.iter().enumerate() {
            assert_eq!(value(o[6 * i + k]), *w, "{name} at item {i}");
        }
    }
}

#[test]
fn float_to_half_at_every_tie_and_across_the_range() {
    let p = build(&format!(
        "{PRAGMA}kernel void t(global const float *f, global half *h) {{
            size_t i = get_global_id(0);
            h[i] = f[i];
        }}"
    ));
    // Each midpoint between neighbouring halves (ties), and the floats
    // just beside it, of both signs; then a spread of all float patterns.
    let mut f: Vec<f32> = Vec::new();
    for h in 0..0x7bffu16 {
        let mid = ((value(h) + value(h + 1)) / 2.0) as f32; // exact in float
        for x in [
            mid,
            f32::from_bits(mid.to_bits() - 1),
            f32::from_bits(mid.to_bits() + 1),
        ] {
            f.push(x);
            f.push(-x);
        }
    }
    f.extend((0..1u32 << 20).map(|k| f32::from_bits(k.wrapping_mul(4093))));
    let n = f.len() as u64;
    let mut h = vec![0u16; f.len()];
    run(&p, "t", &mut [buf(&mut f), buf(&mut h)], &[n], &[64]);
    let mut bad = Vec::new();
    for (x, got) in f.iter().zip(&h) {
        let want = half_of(f64::from(*x), 0);
        if !same(*got, want) {
            bad.push(format!("(half){x:e}: got {got:#06x}, want {want:#06x}"));
        }
    }
    assert!(
        bad.is_empty(),
        "{} wrong, first: {:#?}",
        bad.len(),
        &bad[..bad.len().min(20)]
    );
}

#[test]
fn usual_arithmetic_conversions_with_half() {
    // half op int is half; half op float is float; half op double is double
    // (OpenCL C 6.3.1.8 ranks half below float).
    let p = build(&format!(
        "{PRAGMA}kernel void t(global const half *h, global int *o, global float *f) {{
            half x = h[0];
            o[0] = sizeof(x + 1);
            o[1] = sizeof(x * 1.0f);
            o[2] = sizeof(x - 1.0);
            o[3] = sizeof(x < x);
            o[4] = sizeof((half2)x < (half2)x);
            f[0] = x + 1;        // rounded to half: 2049 is not a half
            f[1] = x + 1.0f;     // float: 2049
        }}"
    ));
    let mut h: Vec<u16> = vec![half_of(2048.0, 0)];
    let mut o = vec![0i32; 5];
    let mut f = vec![0f32; 2];
    run(
        &p,
        "t",
        &mut [buf(&mut h), buf(&mut o), buf(&mut f)],
        &[1],
        &[1],
    );
    assert_eq!(
        o,
        [2, 4, 8, 4, 4],
        "sizeof: half+int, half*float, half-double, half<half, half2<half2"
    );
    assert_eq!(
        f,
        [2048.0, 2049.0],
        "2048h + 1 in half (tie to even), 2048h + 1.0f in float"
    );
}

#[test]
fn classification_on_every_half() {
    // half's own classes: 0x0001..0x03ff are subnormal in half though
    // normal as floats.
    let p = build(&format!(
        "{PRAGMA}kernel void t(global const half *a, global int *o, global short *v) {{
            size_t i = get_global_id(0);
            half x = a[i];
            o[5 * i + 0] = isnormal(x);
            o[5 * i + 1] = isfinite(x);
            o[5 * i + 2] = isinf(x);
            o[5 * i + 3] = isnan(x);
            o[5 * i + 4] = signbit(x);
            short2 n = isnormal((half2)(x, 1.0h));
            v[2 * i] = n.x;
            v[2 * i + 1] = n.y;
        }}"
    ));
    let mut a: Vec<u16> = (0..=u16::MAX).collect();
    let n = a.len() as u64;
    let mut o = vec![9i32; 5 * a.len()];
    let mut v = vec![9i16; 2 * a.len()];
    run(
        &p,
        "t",
        &mut [buf(&mut a), buf(&mut o), buf(&mut v)],
        &[n],
        &[64],
    );
    for (i, &h) in a.iter().enumerate() {
        let e = h >> 10 & 0x1f;
        let want = [
            (1..=30).contains(&e),
            e != 31,
            is_inf(h),
            is_nan(h),
            h & SIGN != 0,
        ]
        .map(i32::from);
        assert_eq!(
            o[5 * i..5 * i + 5],
            want,
            "isnormal, isfinite, isinf, isnan, signbit of {h:#06x}"
        );
        let wv = -i16::from((1..=30).contains(&e));
        assert_eq!(
            v[2 * i..2 * i + 2],
            [wv, -1],
            "isnormal((half2)({h:#06x}, 1))"
        );
    }
}
