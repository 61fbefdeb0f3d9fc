//! Host functions called by generated code: the math library (spec 6.15.2),
//! conversions with explicit rounding modes, half-precision storage
//! conversions and a few integer helpers. Each is an `extern "C"` Rust
//! function registered by name in [`symbols`].
//!
//! Accuracy: every `double` function is the `libm` crate's (musl's
//! algorithms, within 1–2 ulp, far inside spec 7.4's limits) or built on it
//! with the spec's special cases; every `float` function evaluates the
//! `double` one and rounds once, which is within 1 ulp of the true result.

use std::f64::consts::PI;

/// `sinpi(x)`: `sin(pi x)` with the argument reduced exactly (spec: exact
/// zeros of the right sign at integers).
pub fn sinpi(x: f64) -> f64 {
    if !x.is_finite() {
        return f64::NAN;
    }
    // r in (-2, 2), same sign as x, exact.
    let r = x % 2.0;
    let (s, a) = if r < 0.0 { (-1.0, -r) } else { (1.0, r) };
    // a in [0, 2): sin(pi a) = -sin(pi (a - 1)) for a >= 1.
    let (s, a) = if a >= 1.0 { (-s, a - 1.0) } else { (s, a) };
    // a in [0, 1): sin(pi a) = sin(pi (1 - a)).
    let a = if a > 0.5 { 1.0 - a } else { a };
    let v = if a == 0.0 {
        0.0
    } else if a <= 0.25 {
        libm::sin(PI * a)
    } else {
        libm::cos(PI * (0.5 - a))
    };
    let v = s * v;
    if v == 0.0 {
        // sinpi(n) is +0 for positive n, -0 for negative n.
        0f64.copysign(x)
    } else {
        v
    }
}

/// `cospi(x)`: `cos(pi x)` with exact reduction.
pub fn cospi(x: f64) -> f64 {
    if !x.is_finite() {
        return f64::NAN;
    }
    let a = (x % 2.0).abs();
    // cos(pi a) = -cos(pi (a - 1)) for a >= 1.
    let (s, a) = if a >= 1.0 { (-1.0, a - 1.0) } else { (1.0, a) };
    // a in [0, 1): cos(pi a) = -cos(pi (1 - a)).
    let (s, a) = if a > 0.5 { (-s, 1.0 - a) } else { (s, a) };
    let v = if a == 0.5 {
        0.0
    } else if a <= 0.25 {
        libm::cos(PI * a)
    } else {
        libm::sin(PI * (0.5 - a))
    };
    if v == 0.0 {
        0.0
    } else {
        s * v
    }
}

/// `tanpi(x)`.
pub fn tanpi(x: f64) -> f64 {
    if !x.is_finite() {
        return f64::NAN;
    }
    let r = x % 1.0; // tan has period pi
    let s = sinpi(r);
    let c = cospi(r);
    if c == 0.0 {
        // odd multiples of 1/2: +inf for 0.5 (mod 2)... spec: tanpi(n+0.5) is
        // +inf for even n, -inf for odd n.
        let n = (x - 0.5).round();
        return if (n % 2.0) == 0.0 {
            f64::INFINITY
        } else {
            f64::NEG_INFINITY
        };
    }
    let v = s / c;
    if v == 0.0 {
        // tanpi(±0) = ±0; tanpi(n) is +0 for even n... sign per spec: the
        // sign of x for even n, opposite for odd n.
        let odd = (x.abs() % 2.0) == 1.0;
        return if odd {
            0f64.copysign(-x)
        } else {
            0f64.copysign(x)
        };
    }
    v
}

/// `exp10(x)` within about 1 ulp (the spec allows 3; the `libm` crate's is
/// off by up to 3.4, which test_bruteforce found): 2^(x·log2 10) with the
/// product kept as a head and a tail (fma gives the head's rounding error),
/// the tail applied to first order (it is below 2^-40 of the head).
pub fn exp10(x: f64) -> f64 {
    const LOG2_10_HI: f64 = std::f64::consts::LOG2_10;
    const LOG2_10_LO: f64 = 1.661617516973592e-16;
    let hi = x * LOG2_10_HI;
    let lo = x.mul_add(LOG2_10_HI, -hi) + x * LOG2_10_LO;
    let r = libm::exp2(hi);
    if !r.is_finite() || r == 0.0 || !lo.is_finite() {
        return r;
    }
    r.mul_add(lo * std::f64::consts::LN_2, r)
}

/// `logb(x)`: the exponent of x as a floating-point value.
pub fn logb(x: f64) -> f64 {
    if x == 0.0 {
        return f64::NEG_INFINITY;
    }
    if x.is_infinite() {
        return f64::INFINITY;
    }
    if x.is_nan() {
        return x;
    }
    f64::from(libm::ilogb(x))
}

/// `powr(x, y)` = exp2(y log2 x) for x >= 0 (spec special cases).
pub fn powr(x: f64, y: f64) -> f64 {
    if x < 0.0 || x.is_nan() || y.is_nan() {
        return f64::NAN;
    }
    if x == 0.0 {
        if y == 0.0 {
            return f64::NAN;
        }
        return if y < 0.0 { f64::INFINITY } else { 0.0 };
    }
    if x.is_infinite() {
        if y == 0.0 {
            return f64::NAN;
        }
        return if y < 0.0 { 0.0 } else { f64::INFINITY };
    }
    if x == 1.0 && y.is_infinite() {
        return f64::NAN;
    }
    libm::pow(x, y)
}

/// `pown(x, n)`.
pub fn pown(x: f64, n: i32) -> f64 {
    libm::pow(x, f64::from(n))
}

/// `rootn(x, n)`: the n-th root.
pub fn rootn(x: f64, n: i32) -> f64 {
    if n == 0 || x.is_nan() {
        return f64::NAN;
    }
    let odd = n % 2 != 0;
    if x < 0.0 && !odd {
        return f64::NAN;
    }
    if x == 0.0 {
        return if n < 0 {
            if odd {
                f64::INFINITY.copysign(x)
            } else {
                f64::INFINITY
            }
        } else if odd {
            x
        } else {
            0.0
        };
    }
    let a = x.abs();
    let r = if n == 2 {
        a.sqrt()
    } else if n == 3 {
        libm::cbrt(a)
    } else if n == -1 {
        1.0 / a
    } else {
        let nn = f64::from(n);
        let q = 1.0 / nn;
        let r0 = libm::pow(a, q);
        // a^(1/n) = a^q · a^e with e = 1/n - q (fma gives it exactly
        // enough): to first order r0 · (1 + e·ln a). Without it the rounding
        // of 1/n costs up to ~100 ulp for a near DBL_MAX (test_bruteforce).
        let e = (-q).mul_add(nn, 1.0) / nn;
        let r0 = if r0.is_finite() && r0 != 0.0 {
            r0.mul_add(e * libm::log(a), r0)
        } else {
            r0
        };
        // One Newton step on r^n = a, where r^n is finite, for the rest.
        if r0.is_finite() && r0 != 0.0 {
            let p = libm::pow(r0, nn);
            if p.is_finite() && p != 0.0 {
                r0 - r0 * ((p - a) / (nn * p))
            } else {
                r0
            }
        } else {
            r0
        }
    };
    r.copysign(x)
}

/// `fdim(x, y)`: x - y if x > y, +0 otherwise (NaN if either is NaN).
pub fn fdim(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() {
        f64::NAN
    } else if x > y {
        x - y
    } else {
        0.0
    }
}

/// `round(x)`: half-way cases away from zero.
pub fn round(x: f64) -> f64 {
    libm::round(x)
}

/// Rust names of the one-argument functions, `double` versions.
macro_rules! unary {
    ($($name:ident => $f:expr;)*) => {
        $(
            #[allow(clippy::redundant_closure_call)]
            mod $name {
                pub extern "C" fn d(x: f64) -> f64 { ($f)(x) }
                pub extern "C" fn f(x: f32) -> f32 { ($f)(f64::from(x)) as f32 }
            }
        )*
        /// (name, float fn, double fn) of the one-argument host math functions.
        pub fn unary_fns() -> Vec<(&'static str, *const u8, *const u8)> {
            vec![$((stringify!($name), $name::f as *const u8, $name::d as *const u8)),*]
        }
    };
}

macro_rules! binary {
    ($($name:ident => $f:expr;)*) => {
        $(
            #[allow(clippy::redundant_closure_call)]
            mod $name {
                pub extern "C" fn d(x: f64, y: f64) -> f64 { ($f)(x, y) }
                pub extern "C" fn f(x: f32, y: f32) -> f32 {
                    ($f)(f64::from(x), f64::from(y)) as f32
                }
            }
        )*
        /// (name, float fn, double fn) of the two-argument host math functions.
        pub fn binary_fns() -> Vec<(&'static str, *const u8, *const u8)> {
            vec![$((stringify!($name), $name::f as *const u8, $name::d as *const u8)),*]
        }
    };
}

unary! {
    acos => libm::acos;
    acosh => |x: f64| if x < 1.0 { f64::NAN } else { libm::acosh(x) };
    acospi => |x| libm::acos(x) / super::PI;
    asin => libm::asin;
    asinh => libm::asinh;
    asinpi => |x| libm::asin(x) / super::PI;
    atan => libm::atan;
    atanh => libm::atanh;
    atanpi => |x| libm::atan(x) / super::PI;
    cbrt => libm::cbrt;
    cos => libm::cos;
    cosh => libm::cosh;
    cospi => super::cospi;
    erfc => libm::erfc;
    erf => libm::erf;
    exp => libm::exp;
    exp2 => libm::exp2;
    exp10 => super::exp10;
    expm1 => libm::expm1;
    lgamma => libm::lgamma;
    log => libm::log;
    log2 => libm::log2;
    log10 => libm::log10;
    log1p => libm::log1p;
    logb => super::logb;
    round => super::round;
    sin => libm::sin;
    sinh => libm::sinh;
    sinpi => super::sinpi;
    tan => libm::tan;
    tanh => libm::tanh;
    tanpi => super::tanpi;
    tgamma => libm::tgamma;
}

binary! {
    atan2 => libm::atan2;
    atan2pi => |y, x| libm::atan2(y, x) / super::PI;
    fdim => super::fdim;
    fmod => libm::fmod;
    hypot => libm::hypot;
    pow => libm::pow;
    powr => super::powr;
    remainder => libm::remainder;
}

// Functions with other signatures.
extern "C" fn nextafter_f(x: f32, y: f32) -> f32 {
    libm::nextafterf(x, y)
}
extern "C" fn nextafter_d(x: f64, y: f64) -> f64 {
    libm::nextafter(x, y)
}
extern "C" fn pown_f(x: f32, n: i32) -> f32 {
    pown(f64::from(x), n) as f32
}
extern "C" fn pown_d(x: f64, n: i32) -> f64 {
    pown(x, n)
}
extern "C" fn rootn_f(x: f32, n: i32) -> f32 {
    rootn(f64::from(x), n) as f32
}
extern "C" fn rootn_d(x: f64, n: i32) -> f64 {
    rootn(x, n)
}
extern "C" fn ldexp_f(x: f32, n: i32) -> f32 {
    libm::scalbn(f64::from(x), n.clamp(-1200, 1200)) as f32
}
extern "C" fn ldexp_d(x: f64, n: i32) -> f64 {
    libm::scalbn(x, n)
}
fn ilogb(x: f64) -> i32 {
    if x.is_nan() {
        i32::MAX
    } else if x == 0.0 {
        i32::MIN
    } else if x.is_infinite() {
        i32::MAX
    } else {
        libm::ilogb(x)
    }
}
extern "C" fn ilogb_f(x: f32) -> i32 {
    ilogb(f64::from(x))
}
extern "C" fn ilogb_d(x: f64) -> i32 {
    ilogb(x)
}

// Functions with an output pointer (written with an unaligned write: the
// pointer may be to any address space, including packed private storage).
extern "C" fn frexp_f(x: f32, e: *mut i32) -> f32 {
    let (m, ex) = if x.is_finite() {
        libm::frexp(f64::from(x))
    } else {
        (f64::from(x), 0)
    };
    // SAFETY: generated code passes the address of an int lane.
    unsafe { e.write_unaligned(ex) };
    m as f32
}
extern "C" fn frexp_d(x: f64, e: *mut i32) -> f64 {
    let (m, ex) = if x.is_finite() {
        libm::frexp(x)
    } else {
        (x, 0)
    };
    // SAFETY: generated code passes the address of an int lane.
    unsafe { e.write_unaligned(ex) };
    m
}
fn lgamma_r(x: f64) -> (f64, i32) {
    let (v, s) = libm::lgamma_r(x);
    // The sign of gamma is undefined at non-positive integers; report 0 for NaN.
    (v, if x.is_nan() { 0 } else { s })
}
extern "C" fn lgamma_r_f(x: f32, s: *mut i32) -> f32 {
    let (v, sg) = lgamma_r(f64::from(x));
    // SAFETY: generated code passes the address of an int lane.
    unsafe { s.write_unaligned(sg) };
    v as f32
}
extern "C" fn lgamma_r_d(x: f64, s: *mut i32) -> f64 {
    let (v, sg) = lgamma_r(x);
    // SAFETY: generated code passes the address of an int lane.
    unsafe { s.write_unaligned(sg) };
    v
}
extern "C" fn remquo_f(x: f32, y: f32, q: *mut i32) -> f32 {
    let (r, qq) = libm::remquof(x, y);
    // SAFETY: generated code passes the address of an int lane.
    unsafe { q.write_unaligned(qq) };
    r
}
extern "C" fn remquo_d(x: f64, y: f64, q: *mut i32) -> f64 {
    let (r, qq) = libm::remquo(x, y);
    // SAFETY: generated code passes the address of an int lane.
    unsafe { q.write_unaligned(qq) };
    r
}
fn fract(x: f64, limit: f64) -> (f64, f64) {
    if x.is_nan() {
        return (x, x);
    }
    if x.is_infinite() {
        return (0f64.copysign(x), x);
    }
    let fl = x.floor();
    ((x - fl).min(limit), fl)
}
extern "C" fn fract_f(x: f32, ip: *mut f32) -> f32 {
    let (f, i) = fract(f64::from(x), f64::from(f32::from_bits(0x3f7f_ffff)));
    // SAFETY: generated code passes the address of a float lane.
    unsafe { ip.write_unaligned(i as f32) };
    f as f32
}
extern "C" fn fract_d(x: f64, ip: *mut f64) -> f64 {
    let (f, i) = fract(x, f64::from_bits(0x3fef_ffff_ffff_ffff));
    // SAFETY: generated code passes the address of a double lane.
    unsafe { ip.write_unaligned(i) };
    f
}
fn modf(x: f64) -> (f64, f64) {
    if x.is_infinite() {
        return (0f64.copysign(x), x);
    }
    let i = x.trunc();
    ((x - i).copysign(x), i)
}
extern "C" fn modf_f(x: f32, ip: *mut f32) -> f32 {
    let (f, i) = modf(f64::from(x));
    // SAFETY: generated code passes the address of a float lane.
    unsafe { ip.write_unaligned(i as f32) };
    f as f32
}
extern "C" fn modf_d(x: f64, ip: *mut f64) -> f64 {
    let (f, i) = modf(x);
    // SAFETY: generated code passes the address of a double lane.
    unsafe { ip.write_unaligned(i) };
    f
}
extern "C" fn sincos_f(x: f32, c: *mut f32) -> f32 {
    let x = f64::from(x);
    // SAFETY: generated code passes the address of a float lane.
    unsafe { c.write_unaligned(libm::cos(x) as f32) };
    libm::sin(x) as f32
}
extern "C" fn sincos_d(x: f64, c: *mut f64) -> f64 {
    // SAFETY: generated code passes the address of a double lane.
    unsafe { c.write_unaligned(libm::cos(x)) };
    libm::sin(x)
}

/// Round `exact` (the true value, known to lie between the neighbours of
/// `r`) to the neighbour of `r` that `mode` asks for; `cmp` is the sign of
/// `r - exact`. Modes: 0 rte, 1 rtz, 2 rtp, 3 rtn.
fn directed_f32(r: f32, cmp: std::cmp::Ordering, exact_negative: bool, mode: u32) -> f32 {
    use std::cmp::Ordering::*;
    let down = |v: f32| libm::nextafterf(v, f32::NEG_INFINITY);
    let up = |v: f32| libm::nextafterf(v, f32::INFINITY);
    match (mode, cmp) {
        (_, Equal) | (0, _) => r,
        (1, Greater) if !exact_negative => down(r),
        (1, Less) if exact_negative => up(r),
        (2, Less) => up(r),
        (3, Greater) => down(r),
        _ => r,
    }
}
fn directed_f64(r: f64, cmp: std::cmp::Ordering, exact_negative: bool, mode: u32) -> f64 {
    use std::cmp::Ordering::*;
    let down = |v: f64| libm::nextafter(v, f64::NEG_INFINITY);
    let up = |v: f64| libm::nextafter(v, f64::INFINITY);
    match (mode, cmp) {
        (_, Equal) | (0, _) => r,
        (1, Greater) if !exact_negative => down(r),
        (1, Less) if exact_negative => up(r),
        (2, Less) => up(r),
        (3, Greater) => down(r),
        _ => r,
    }
}

/// Integer → float/double conversions with a rounding mode; `signed`
/// tells how to read the 64-bit argument.
extern "C" fn cvt_i_f(x: i64, signed: u32, mode: u32) -> f32 {
    let v: i128 = if signed != 0 {
        i128::from(x)
    } else {
        i128::from(x as u64)
    };
    // Rounds to nearest; never infinite (|v| < 2^64).
    let r = v as f32;
    let cmp = (r as i128).cmp(&v);
    directed_f32(r, cmp, v < 0, mode)
}
extern "C" fn cvt_i_d(x: i64, signed: u32, mode: u32) -> f64 {
    let v: i128 = if signed != 0 {
        i128::from(x)
    } else {
        i128::from(x as u64)
    };
    let r = v as f64;
    let cmp = (r as i128).cmp(&v);
    directed_f64(r, cmp, v < 0, mode)
}
/// double → float with a rounding mode.
extern "C" fn cvt_d_f(x: f64, mode: u32) -> f32 {
    let r = x as f32;
    if !x.is_finite() {
        return r;
    }
    if r.is_infinite() {
        // Overflowed under round-to-nearest: directed modes may give MAX.
        let max = f32::MAX;
        return match mode {
            1 => max.copysign(x as f32),
            2 if x < 0.0 => -max,
            3 if x > 0.0 => max,
            _ => r,
        };
    }
    let cmp = f64::from(r)
        .partial_cmp(&x)
        .unwrap_or(std::cmp::Ordering::Equal);
    directed_f32(r, cmp, x < 0.0, mode)
}

/// float/double → half bits, rounding by `mode` (0 rte, 1 rtz, 2 rtp, 3 rtn).
/// Integer arithmetic on the double's bits: the significand shifted down to
/// the half's last place, the bits shifted out deciding the rounding
/// (the reference of the inline conversion, `codegen::half`, and of the
/// half built-ins computed on the host).
pub fn to_half(x: f64, mode: u32) -> u16 {
    let bits = x.to_bits();
    let neg = bits >> 63 != 0;
    let sign: u16 = if neg { 0x8000 } else { 0 };
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    if biased == 0x7ff {
        return sign | if frac != 0 { 0x7e00 } else { 0x7c00 };
    }
    if biased == 0 && frac == 0 {
        return sign;
    }
    // Too large for half: infinity or the largest finite value.
    let overflow = || {
        let inf = match mode {
            0 => true,
            1 => false,
            2 => !neg,
            _ => neg,
        };
        sign | if inf { 0x7c00 } else { 0x7bff }
    };
    // |x| = m * 2^e2, m an integer (the implicit bit included for normals).
    let (m, e2) = if biased == 0 {
        (frac, -1074)
    } else {
        (frac | 1 << 52, biased - 1075)
    };
    let mut e = (63 - m.leading_zeros() as i32) + e2;
    if e > 15 {
        return overflow();
    }
    let denormal = e < -14;
    // The half's last place is 2^unit: the result's significand is
    // m * 2^(e2 - unit), at least 42 bits shifted out.
    let unit = if denormal { -24 } else { e - 10 };
    let shift = (unit - e2) as u32;
    // (quotient, remainder against half the last place, inexact)
    let (mut q, half_cmp, inexact) = if shift >= 64 {
        (0u64, std::cmp::Ordering::Less, true)
    } else {
        let rem = m & ((1u64 << shift) - 1);
        (m >> shift, rem.cmp(&(1u64 << (shift - 1))), rem != 0)
    };
    let away = match mode {
        0 => half_cmp.is_gt() || (half_cmp.is_eq() && q & 1 == 1),
        1 => false,
        2 => inexact && !neg,
        _ => inexact && neg,
    };
    if away {
        q += 1;
    }
    if denormal {
        // q == 1024 is the smallest normal's encoding: still right.
        return sign | q as u16;
    }
    if q == 2048 {
        q = 1024;
        e += 1;
        if e > 15 {
            return overflow();
        }
    }
    sign | ((((e + 15) as u64) << 10) | (q - 1024)) as u16
}

/// Half bits → float.
pub fn from_half(h: u16) -> f32 {
    let sign = if h & 0x8000 != 0 { -1.0f32 } else { 1.0 };
    let e = (h >> 10) & 0x1f;
    let m = f32::from(h & 0x3ff);
    match e {
        0 => sign * m * 2f32.powi(-24),
        31 if m == 0.0 => sign * f32::INFINITY,
        31 => f32::from_bits(
            0x7fc0_0000 | (u32::from(h & 0x3ff) << 13) | (u32::from(h & 0x8000) << 16),
        ),
        _ => sign * (1.0 + m / 1024.0) * 2f32.powi(i32::from(e) - 15),
    }
}

/// `fma` on half bits, correctly rounded: the product of two halves is
/// exact in double (22 bits), and for a finite result below half's overflow
/// the sum is exact too (its bits span at most 2^16 down to 2^-24); where
/// the sum is not exact (an addend of 2^16 against a product near 2^-48),
/// the tiny term cannot move the result across a half rounding boundary.
pub(crate) extern "C" fn half_fma(a: u32, b: u32, c: u32) -> u32 {
    let [a, b, c] = [a, b, c].map(|h| f64::from(from_half(h as u16)));
    u32::from(to_half(a * b + c, 0))
}

/// `mad_sat` on 64-bit integers.
extern "C" fn mad_sat_i64(a: i64, b: i64, c: i64) -> i64 {
    let r = i128::from(a) * i128::from(b) + i128::from(c);
    r.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
}
extern "C" fn mad_sat_u64(a: u64, b: u64, c: u64) -> u64 {
    let r = u128::from(a) * u128::from(b) + u128::from(c);
    r.min(u128::from(u64::MAX)) as u64
}

/// Every host function, by JIT symbol name.
pub fn symbols() -> Vec<(&'static str, *const u8)> {
    let mut v: Vec<(&'static str, *const u8)> = Vec::new();
    for (name, f, d) in unary_fns().into_iter().chain(binary_fns()) {
        v.push((leak_name(name, "f"), f));
        v.push((leak_name(name, "d"), d));
    }
    let more: &[(&'static str, *const u8)] = &[
        ("cranecl_nextafter_f", nextafter_f as *const u8),
        ("cranecl_nextafter_d", nextafter_d as *const u8),
        ("cranecl_pown_f", pown_f as *const u8),
        ("cranecl_pown_d", pown_d as *const u8),
        ("cranecl_rootn_f", rootn_f as *const u8),
        ("cranecl_rootn_d", rootn_d as *const u8),
        ("cranecl_ldexp_f", ldexp_f as *const u8),
        ("cranecl_ldexp_d", ldexp_d as *const u8),
        ("cranecl_ilogb_f", ilogb_f as *const u8),
        ("cranecl_ilogb_d", ilogb_d as *const u8),
        ("cranecl_frexp_f", frexp_f as *const u8),
        ("cranecl_frexp_d", frexp_d as *const u8),
        ("cranecl_lgamma_r_f", lgamma_r_f as *const u8),
        ("cranecl_lgamma_r_d", lgamma_r_d as *const u8),
        ("cranecl_remquo_f", remquo_f as *const u8),
        ("cranecl_remquo_d", remquo_d as *const u8),
        ("cranecl_fract_f", fract_f as *const u8),
        ("cranecl_fract_d", fract_d as *const u8),
        ("cranecl_modf_f", modf_f as *const u8),
        ("cranecl_modf_d", modf_d as *const u8),
        ("cranecl_sincos_f", sincos_f as *const u8),
        ("cranecl_sincos_d", sincos_d as *const u8),
        ("cranecl_cvt_i_f", cvt_i_f as *const u8),
        ("cranecl_cvt_i_d", cvt_i_d as *const u8),
        ("cranecl_cvt_d_f", cvt_d_f as *const u8),
        ("cranecl_mad_sat_i64", mad_sat_i64 as *const u8),
        ("cranecl_mad_sat_u64", mad_sat_u64 as *const u8),
    ];
    v.extend_from_slice(more);
    v
}

/// `cranecl_<name>_<f|d>` as a static string (the table is built once per
/// JIT module; the few hundred bytes are interned so they are leaked once).
fn leak_name(name: &str, suffix: &str) -> &'static str {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static NAMES: OnceLock<Mutex<HashMap<String, &'static str>>> = OnceLock::new();
    let full = format!("cranecl_{name}_{suffix}");
    let map = NAMES.get_or_init(|| Mutex::new(HashMap::new()));
    let mut m = match map.lock() {
        Ok(m) => m,
        Err(p) => p.into_inner(),
    };
    if let Some(s) = m.get(&full) {
        return s;
    }
    let s: &'static str = Box::leak(full.clone().into_boxed_str());
    m.insert(full, s);
    s
}

/// The symbol name of a host math function for an element type.
pub fn math_symbol(name: &str, double: bool) -> String {
    format!("cranecl_{name}_{}", if double { "d" } else { "f" })
}

#[cfg(test)]
mod tests {
    use super::to_half;

    /// The reference: the halves' own values (`from_half`, increasing with
    /// their bits up to 0x7bff; infinity counts as 65536, the next value
    /// past the largest), the two around |x| and the mode's choice between
    /// them. No arithmetic shared with `to_half`.
    fn reference(values: &[f64], x: f64, mode: u32) -> u16 {
        let neg = x.is_sign_negative();
        let sign: u16 = if neg { 0x8000 } else { 0 };
        if x.is_nan() {
            return sign | 0x7e00;
        }
        let a = x.abs();
        if a.is_infinite() {
            return sign | 0x7c00;
        }
        let lo = values.partition_point(|&v| v <= a) - 1;
        if values[lo] == a {
            return sign | lo as u16;
        }
        let hi_value = values.get(lo + 1).copied().unwrap_or(65536.0);
        let up = match mode {
            0 => {
                let (below, above) = (a - values[lo], hi_value - a);
                below > above || (below == above && lo & 1 == 1)
            }
            1 => false,
            2 => !neg,
            _ => neg,
        };
        sign | (lo + usize::from(up)) as u16
    }

    /// Every mode on: values around every half (each finite half's value,
    /// the midpoints to its neighbours and one double ulp either side of
    /// them, both signs), powers of two far below and above the range,
    /// doubles' subnormals, and a spread of floats' bit patterns.
    #[test]
    fn to_half_matches_the_reference() {
        let mut xs: Vec<f64> = Vec::new();
        for h in 0u16..0x7c00 {
            let v = f64::from(super::from_half(h));
            let next = f64::from(super::from_half(h + 1));
            let mid = (v + next) / 2.0;
            for y in [v, mid, next] {
                xs.extend([y, f64::from_bits(y.to_bits() + 1)]);
                if y > 0.0 {
                    xs.push(f64::from_bits(y.to_bits() - 1));
                }
            }
        }
        for k in -1074..1024 {
            xs.push(2f64.powi(k));
            xs.push(2f64.powi(k) * 1.5);
        }
        xs.extend([
            f64::from_bits(1),
            f64::from_bits(0x000f_ffff_ffff_ffff),
            65520.0,
            65519.99,
        ]);
        xs.extend((0..u32::MAX / 7919).map(|i| f64::from(f32::from_bits(i.wrapping_mul(7919)))));
        xs.extend([f64::INFINITY, f64::NAN, 0.0]);
        let values: Vec<f64> = (0u16..0x7c00)
            .map(|h| f64::from(super::from_half(h)))
            .collect();
        for x in xs {
            for x in [x, -x] {
                for mode in 0..4 {
                    assert_eq!(
                        to_half(x, mode),
                        reference(&values, x, mode),
                        "{x:e} ({:#x}), mode {mode}",
                        x.to_bits()
                    );
                }
            }
        }
    }
}
