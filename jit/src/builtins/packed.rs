//! Built-ins computed on four `float`s at once (one 128-bit register), for
//! the lanes (`codegen/lanes/`), where the library's scalar call would run
//! once per lane: `exp` (and `native_exp`, `half_exp`), within the spec's
//! 3 ulp.

use crate::codegen::FunctionCx;
use cranelift_codegen::ir::{types, InstBuilder, Value};

fn splat(fx: &mut FunctionCx<'_, '_>, v: f32) -> Value {
    let c = fx.b.ins().f32const(v);
    fx.b.ins().splat(types::F32X4, c)
}

/// e^x of each lane. x is clamped to [-104, 89] (outside, the result is 0
/// or +inf; NaN stays NaN); n = round(x·log2 e); r = x - n·ln 2 in two
/// parts (the high part has 16 significant bits, so n·hi is exact);
/// e^r by its Taylor series to r^7 (|r| ≤ ln2/2: truncation below 2^-27);
/// then times 2^n as two powers of two, so that results below the normal
/// range round once, gradually.
pub(crate) fn exp_f32x4(fx: &mut FunctionCx<'_, '_>, x: Value) -> Value {
    let lo = splat(fx, -104.0);
    let hi = splat(fx, 89.0);
    let x = fx.b.ins().fmax(x, lo);
    let x = fx.b.ins().fmin(x, hi);
    let log2e = splat(fx, std::f32::consts::LOG2_E);
    let t = fx.b.ins().fmul(x, log2e);
    let n = fx.b.ins().nearest(t);
    let ln2_hi = splat(fx, f32::from_bits(0x3f31_7200));
    let ln2_lo = splat(fx, 1.428_606_8e-6);
    let a = fx.b.ins().fmul(n, ln2_hi);
    let r = fx.b.ins().fsub(x, a);
    let b = fx.b.ins().fmul(n, ln2_lo);
    let r = fx.b.ins().fsub(r, b);
    // 1 + r(1 + r(1/2 + r(1/6 + r(1/24 + r(1/120 + r(1/720 + r/5040))))))
    let coeffs = [
        1.0 / 5040.0,
        1.0 / 720.0,
        1.0 / 120.0,
        1.0 / 24.0,
        1.0 / 6.0,
        0.5,
        1.0,
        1.0,
    ];
    let mut p = splat(fx, coeffs[0]);
    for &c in &coeffs[1..] {
        let m = fx.b.ins().fmul(p, r);
        let c = splat(fx, c);
        p = fx.b.ins().fadd(m, c);
    }
    // 2^n = 2^n1 · 2^n2 with n1 = n >> 1, both normal for n in [-150, 128].
    let ni = fx.b.ins().fcvt_to_sint_sat(types::I32X4, n);
    let n1 = fx.b.ins().sshr_imm_u(ni, 1);
    let n2 = fx.b.ins().isub(ni, n1);
    let bias = fx.b.ins().iconst(types::I32, 127);
    let bias = fx.b.ins().splat(types::I32X4, bias);
    let mut out = p;
    for k in [n1, n2] {
        let e = fx.b.ins().iadd(k, bias);
        let e = fx.b.ins().ishl_imm_u(e, 23);
        let s = super::bitcast(fx, types::F32X4, e);
        out = fx.b.ins().fmul(out, s);
    }
    out
}
