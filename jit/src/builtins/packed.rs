//! Built-ins written once as Cranelift instructions for one `float` or four
//! at once (one 128-bit register): `exp` (and `native_exp`, `half_exp`),
//! within the spec's 3 ulp. The lanes (`codegen/lanes/`) use the packed form
//! where the library's scalar call would run once per lane; the one
//! work-item code the scalar form, inline instead of a call (so a kernel
//! computes the same values whichever step runs it).

use crate::codegen::FunctionCx;
use cranelift_codegen::ir::condcodes::FloatCC;
use cranelift_codegen::ir::{types, InstBuilder, Value};

/// `v` as a value of type `t` (`F32`, or `F32X4` with `v` in each lane).
fn splat(fx: &mut FunctionCx<'_, '_>, t: types::Type, v: f32) -> Value {
    let c = fx.b.ins().f32const(v);
    if t.is_vector() {
        fx.b.ins().splat(t, c)
    } else {
        c
    }
}

/// e^x of each lane. x is clamped to [-104, 89] (outside, the result is 0
/// or +inf; NaN stays NaN, being neither below nor above);
/// n = round(x·log2 e); r = x - n·ln 2 in two
/// parts (the high part has 16 significant bits, so n·hi is exact);
/// e^r by its Taylor series to r^7 (|r| ≤ ln2/2: truncation below 2^-27);
/// then times 2^n as two powers of two, so that results below the normal
/// range round once, gradually. `x` is an `F32` or an `F32X4`.
pub(crate) fn exp_f32(fx: &mut FunctionCx<'_, '_>, x: Value) -> Value {
    let ty = fx.b.func.dfg.value_type(x);
    let it = if ty.is_vector() {
        types::I32X4
    } else {
        types::I32
    };
    // Clamped by comparisons, which a NaN fails (it stays): one compare
    // and select each, where `fmax`/`fmin` test for NaNs apart.
    let lo = splat(fx, ty, -104.0);
    let hi = splat(fx, ty, 89.0);
    let below = fx.b.ins().fcmp(FloatCC::LessThan, x, lo);
    let x = super::select_cmp(fx, below, lo, x);
    let above = fx.b.ins().fcmp(FloatCC::GreaterThan, x, hi);
    let x = super::select_cmp(fx, above, hi, x);
    let log2e = splat(fx, ty, std::f32::consts::LOG2_E);
    let t = fx.b.ins().fmul(x, log2e);
    let n = fx.b.ins().nearest(t);
    let ln2_hi = splat(fx, ty, f32::from_bits(0x3f31_7200));
    let ln2_lo = splat(fx, ty, 1.428_606_8e-6);
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
    // Horner's steps as `mad`s: fused multiply-adds where the CPU has them
    // (one instruction and one rounding each).
    let mut p = splat(fx, ty, coeffs[0]);
    for &c in &coeffs[1..] {
        let c = splat(fx, ty, c);
        p = super::math::mad(fx, p, r, c);
    }
    // 2^n = 2^n1 · 2^n2 with n1 = n >> 1, both normal for n in [-150, 128].
    // n as an integer: n + 1.5·2^23 is exact and holds 2^22 + n in its
    // mantissa (|n| ≤ 150), so its bits less those of 1.5·2^23 are n (no
    // conversion with its range tests).
    let magic = splat(fx, ty, 12_582_912.0);
    let m = fx.b.ins().fadd(n, magic);
    let m = super::bitcast(fx, it, m);
    let magic_bits = fx.b.ins().iconst(types::I32, 0x4B40_0000);
    let magic_bits = if ty.is_vector() {
        fx.b.ins().splat(it, magic_bits)
    } else {
        magic_bits
    };
    let ni = fx.b.ins().isub(m, magic_bits);
    let n1 = fx.b.ins().sshr_imm_u(ni, 1);
    let n2 = fx.b.ins().isub(ni, n1);
    let bias = fx.b.ins().iconst(types::I32, 127);
    let bias = if ty.is_vector() {
        fx.b.ins().splat(it, bias)
    } else {
        bias
    };
    let mut out = p;
    for k in [n1, n2] {
        let e = fx.b.ins().iadd(k, bias);
        let e = fx.b.ins().ishl_imm_u(e, 23);
        let s = super::bitcast(fx, ty, e);
        out = fx.b.ins().fmul(out, s);
    }
    out
}
