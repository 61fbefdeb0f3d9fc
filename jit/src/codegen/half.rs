//! `half` arithmetic (`cl_khr_fp16`, OpenCL C 3.0 §6.1.1.1).
//!
//! A `half` value lives in an `i16` holding its IEEE 754 binary16 bits,
//! exactly as it is stored, so loads, stores, vector lanes, swizzles,
//! `as_half` and the lanes' per-lane fallback need nothing special. An
//! operation widens its operands to `float` (exact: every half is a float),
//! computes there, and rounds the result to half once, to nearest even with
//! denormals (`float_to_half_rte`). The float result rounded again is
//! the correctly rounded half result for `+`, `-`, `*`, `/` (float's 24 bits
//! are at least 2·11 + 2, the bound under which rounding twice is innocuous,
//! Figueroa 1995) and `sqrt` (at least 2·11 + 1). Comparisons are made on the
//! widened values (exact). `fma` is computed in double by a host function
//! (`host::half_fma`). Conversions from `double` round once, straight from
//! the double; from an integer they go through float, which is exact below
//! 2^24 and above it lands on float values that all overflow half anyway.
//!
//! Widening and rounding are inline: a float to nearest even by
//! `float_to_half_rte` (a float addition rounds the subnormals), from
//! double or by another mode by integer arithmetic on the bits
//! (`round_to_half_bits`; `builtins::host::to_half` is its reference).

use super::fx::{FunctionCx, IntCC};
use crate::sema::hir::BinOp;
use crate::sema::types::Scalar;
use cranelift_codegen::ir::{types, Endianness, InstBuilder, MemFlagsData, Value};

/// Rounding of a conversion to half: the `mode` argument of the host
/// functions (0 rte, 1 rtz, 2 rtp, 3 rtn).
pub const ROUND_TO_NEAREST_EVEN: i64 = 0;

impl FunctionCx<'_, '_> {
    /// The `float` value of half bits `h` (an `i16`): exact, inline. A
    /// normal half's exponent and significand bits, shifted into a float's
    /// places, are the value once the exponent is rebiased (half's bias is
    /// 15, float's 127: an integer addition); a subnormal half is its
    /// significand, converted to float exactly, times 2^-24 (a normal float
    /// product); infinities and NaNs take float's all-ones exponent. The
    /// sign is put back last. No float subnormal is read or made, so
    /// flushing (`-cl-denorms-are-zero`, MXCSR's DAZ and FTZ) keeps half
    /// subnormals, which that option does not cover.
    pub fn half_to_float(&mut self, h: Value) -> Value {
        let u = self.b.ins().uextend(types::I32, h);
        self.half_bits_to_float(u)
    }

    /// [`Self::half_to_float`] of half bits zero-extended in an `i32`, or in
    /// each lane of an `i32x4` (then an `f32x4`: four work-items' values).
    pub(crate) fn half_bits_to_float(&mut self, u: Value) -> Value {
        let t = self.b.func.dfg.value_type(u);
        let ft = if t.is_vector() {
            types::F32X4
        } else {
            types::F32
        };
        let le = MemFlagsData::new().with_endianness(Endianness::Little);
        let magnitude = self.bits_and(u, 0x7fff);
        let shifted = self.bits_shl(magnitude, 13);
        let rebias = self.bits_const(t, (127 - 15) << 23);
        let normal = self.b.ins().iadd(shifted, rebias);
        let significand = self.b.ins().fcvt_from_sint(ft, magnitude);
        let two_m24 = self.b.ins().f32const(f32::from_bits(0x3380_0000));
        let two_m24 = self.lanes_of(ft, two_m24);
        let v = self.b.ins().fmul(significand, two_m24);
        let subnormal = self.b.ins().bitcast(t, le, v);
        let min_normal = self.bits_const(t, 0x0400);
        let is_subnormal = self
            .b
            .ins()
            .icmp(IntCC::UnsignedLessThan, magnitude, min_normal);
        let scaled = self.bits_select(is_subnormal, subnormal, normal);
        let exp = self.bits_const(t, 0x7f80_0000);
        let special = self.b.ins().bor(shifted, exp);
        let limit = self.bits_const(t, 0x7c00);
        let is_special = self
            .b
            .ins()
            .icmp(IntCC::UnsignedGreaterThanOrEqual, magnitude, limit);
        let bits = self.bits_select(is_special, special, scaled);
        let sign = self.bits_and(u, 0x8000);
        let sign = self.bits_shl(sign, 16);
        let bits = self.b.ins().bor(bits, sign);
        self.b.ins().bitcast(ft, le, bits)
    }

    /// `c` as a value of `t` (`i32`, or splat in each lane of an `i32x4`).
    fn bits_const(&mut self, t: types::Type, c: i64) -> Value {
        let k = self.b.ins().iconst(types::I32, c);
        self.lanes_of(t, k)
    }

    /// `x`, a scalar, as a value of `t`: itself, or splat for a vector.
    fn lanes_of(&mut self, t: types::Type, x: Value) -> Value {
        if t.is_vector() {
            self.b.ins().splat(t, x)
        } else {
            x
        }
    }

    fn bits_and(&mut self, x: Value, c: i64) -> Value {
        let t = self.b.func.dfg.value_type(x);
        let k = self.bits_const(t, c);
        self.b.ins().band(x, k)
    }

    fn bits_shl(&mut self, x: Value, n: i64) -> Value {
        self.b.ins().ishl_imm_s(x, n)
    }

    /// `a` where `c` holds, else `b` (per lane for vectors: `c` is a
    /// comparison's all-ones or all-zeros lanes).
    fn bits_select(&mut self, c: Value, a: Value, b: Value) -> Value {
        if self.b.func.dfg.value_type(c).is_vector() {
            self.b.ins().bitselect(c, a, b)
        } else {
            self.b.ins().select(c, a, b)
        }
    }

    /// `x` (a `float` or `double`) rounded to half bits (`i16`) by `mode`.
    pub fn float_to_half(&mut self, x: Value, mode: i64) -> Value {
        let t = self.b.func.dfg.value_type(x);
        if t == types::F32 && mode == ROUND_TO_NEAREST_EVEN {
            return self.float_to_half_rte(x);
        }
        self.round_to_half_bits(x, mode)
    }

    /// `x` (a `float` or `double`) rounded to half bits (`i16`) by `mode`,
    /// inline, by integer arithmetic on `x`'s bits (`host::to_half` is the
    /// same rule one value at a time). With `a` the magnitude bits, `M` the
    /// significand's width and `B` the exponent bias:
    /// - from 2^-14 up: the bits below half's last place (`M - 10` of them)
    ///   decide the rounding by an increment added before they are shifted
    ///   out (to nearest even: half the last place less one, plus the last
    ///   place's own bit; away from zero: all ones; toward zero: none), and
    ///   the exponent is rebiased from `B` to 15 (a carry out of the
    ///   significand steps the exponent). Results past half's largest
    ///   exponent become infinity;
    /// - below 2^-14 the significand (its implicit bit put back) is shifted
    ///   down to units of 2^-24, half's subnormal step, and rounded by the
    ///   bits shifted out (1024, rounded up from the largest subnormal, is
    ///   the smallest normal's encoding);
    /// - rounding toward zero (`rtz`, `rtp` of a negative, `rtn` of a
    ///   positive value) never gives infinity for a finite value: at most
    ///   65504 (0x7bff);
    /// - NaN: a quiet NaN; the sign is put back last.
    fn round_to_half_bits(&mut self, x: Value, mode: i64) -> Value {
        let t = self.b.func.dfg.value_type(x);
        let (it, width, m_bits, bias) = if t == types::F64 {
            (types::I64, 64i64, 52i64, 1023i64)
        } else {
            (types::I32, 32, 23, 127)
        };
        let b = &mut self.b;
        let bits = b.ins().bitcast(it, MemFlagsData::new(), x);
        let a = b
            .ins()
            .band_imm_s(bits, (1i64 << (width - 1)).wrapping_sub(1));
        let neg = b.ins().icmp_imm_s(IntCC::SignedLessThan, bits, 0);
        let inf_bits = ((1i64 << (width - 1 - m_bits)) - 1) << m_bits;
        let zero = b.ins().iconst(it, 0);
        let one = b.ins().iconst(it, 1);
        // Rounding away from zero for this value (directed modes only).
        let away = match mode {
            1 => None,
            2 => Some(b.ins().icmp_imm_s(IntCC::SignedGreaterThanOrEqual, bits, 0)),
            3 => Some(neg),
            _ => None,
        };
        let nearest = mode == ROUND_TO_NEAREST_EVEN;
        // From 2^-14 up.
        let shift = m_bits - 10;
        let inc = if nearest {
            let last = b.ins().ushr_imm_s(a, shift);
            let last = b.ins().band_imm_s(last, 1);
            b.ins().iadd_imm_s(last, (1i64 << (shift - 1)) - 1)
        } else {
            match away {
                Some(away) => {
                    let all = b.ins().iconst(it, (1i64 << shift) - 1);
                    b.ins().select(away, all, zero)
                }
                None => zero,
            }
        };
        let r = b.ins().iadd(a, inc);
        let r = b.ins().ushr_imm_s(r, shift);
        let normal = b.ins().iadd_imm_s(r, -((bias - 15) << 10));
        let inf = b.ins().iconst(it, 0x7c00);
        let normal = b.ins().umin(normal, inf);
        // Below 2^-14: the significand in units of 2^-24.
        let e = b.ins().ushr_imm_s(a, m_bits);
        let frac = b.ins().band_imm_s(a, (1i64 << m_bits) - 1);
        let is_sub = b.ins().icmp_imm_s(IntCC::Equal, e, 0);
        let implicit = b.ins().iconst(it, 1i64 << m_bits);
        let implicit = b.ins().select(is_sub, zero, implicit);
        let sig = b.ins().bor(frac, implicit);
        let e = b.ins().umax(e, one);
        // Shifted right by B + M - 24 - e, at most M + 2: the significand
        // (below 2^(M + 1)) is then all shifted out, and below half the unit.
        let s = b.ins().iconst(it, bias + m_bits - 24);
        let s = b.ins().isub(s, e);
        let most = b.ins().iconst(it, m_bits + 2);
        let s = b.ins().umin(s, most);
        let q = b.ins().ushr(sig, s);
        let unit = b.ins().ishl(one, s);
        let below = b.ins().iadd_imm_s(unit, -1);
        let rem = b.ins().band(sig, below);
        let up = if nearest {
            let halfway = b.ins().ushr_imm_s(unit, 1);
            let gt = b.ins().icmp(IntCC::UnsignedGreaterThan, rem, halfway);
            let eq = b.ins().icmp(IntCC::Equal, rem, halfway);
            let odd = b.ins().band_imm_s(q, 1);
            let odd = b.ins().icmp_imm_s(IntCC::NotEqual, odd, 0);
            let tie_up = b.ins().band(eq, odd);
            Some(b.ins().bor(gt, tie_up))
        } else {
            away.map(|away| {
                let inexact = b.ins().icmp_imm_s(IntCC::NotEqual, rem, 0);
                b.ins().band(away, inexact)
            })
        };
        let small = match up {
            Some(up) => {
                let up = b.ins().uextend(it, up);
                b.ins().iadd(q, up)
            }
            None => q,
        };
        let is_small = b
            .ins()
            .icmp_imm_s(IntCC::UnsignedLessThan, a, (bias - 14) << m_bits);
        let mut r = b.ins().select(is_small, small, normal);
        // Toward zero, a finite value stops at the largest finite half.
        if !nearest {
            let largest = b.ins().iconst(it, 0x7bff);
            let capped = b.ins().umin(r, largest);
            let is_finite = b.ins().icmp_imm_s(IntCC::UnsignedLessThan, a, inf_bits);
            let toward = match away {
                Some(away) => {
                    let toward = b.ins().bxor_imm_s(away, 1);
                    b.ins().band(toward, is_finite)
                }
                None => is_finite,
            };
            r = b.ins().select(toward, capped, r);
        }
        let nan = b.ins().iconst(it, 0x7e00);
        let is_nan = b.ins().icmp_imm_s(IntCC::UnsignedGreaterThan, a, inf_bits);
        let r = b.ins().select(is_nan, nan, r);
        let sign = b.ins().iconst(it, 0x8000);
        let sign = b.ins().select(neg, sign, zero);
        let r = b.ins().bor(r, sign);
        b.ins().ireduce(types::I16, r)
    }

    /// A `float` rounded to half bits, to nearest even, inline (the
    /// rounding of every half operation). By the float's magnitude bits `a`:
    /// - NaN: a quiet NaN keeping the top of the payload;
    /// - 65520 (half's overflow threshold) or more: infinity;
    /// - a normal half: the 13 bits below half's last place are rounded
    ///   by adding 0xfff plus the last place's own bit (ties go to the even
    ///   side), shifted out, and the exponent rebiased from 127 to 15 (a
    ///   carry out of the significand steps the exponent, as it should);
    /// - below 2^-14 (half's subnormals and zero): `|x| + 0.5` in float has
    ///   an ulp of 2^-24, half's subnormal step, so the float addition
    ///   itself rounds to nearest even, and its low bits are the half's
    ///   (0x400, rounded up to the smallest normal, is that half's encoding).
    pub fn float_to_half_rte(&mut self, x: Value) -> Value {
        let r = self.float_to_half_bits_rte(x);
        self.b.ins().ireduce(types::I16, r)
    }

    /// [`Self::float_to_half_rte`] of an `f32` as half bits in an `i32`, or
    /// of each lane of an `f32x4` in an `i32x4`.
    pub(crate) fn float_to_half_bits_rte(&mut self, x: Value) -> Value {
        let ft = self.b.func.dfg.value_type(x);
        let t = if ft.is_vector() {
            types::I32X4
        } else {
            types::I32
        };
        let le = MemFlagsData::new().with_endianness(Endianness::Little);
        let bits = self.b.ins().bitcast(t, le, x);
        let a = self.bits_and(bits, 0x7fff_ffff);
        let sign = self.b.ins().ushr_imm_s(bits, 16);
        let sign = self.bits_and(sign, 0x8000);
        // Normal range.
        let odd = self.b.ins().ushr_imm_s(a, 13);
        let odd = self.bits_and(odd, 1);
        let round = self.bits_const(t, 0xfff);
        let r = self.b.ins().iadd(a, round);
        let r = self.b.ins().iadd(r, odd);
        let r = self.b.ins().ushr_imm_s(r, 13);
        let rebias = self.bits_const(t, -((127 - 15) << 10));
        let normal = self.b.ins().iadd(r, rebias);
        // Subnormal range.
        let fa = self.b.ins().bitcast(ft, le, a);
        let half = self.b.ins().f32const(0.5);
        let half = self.lanes_of(ft, half);
        let sum = self.b.ins().fadd(fa, half);
        let sum = self.b.ins().bitcast(t, le, sum);
        let half_bits = self.bits_const(t, -(0.5f32.to_bits() as i64));
        let small = self.b.ins().iadd(sum, half_bits);
        let limit = self.bits_const(t, 0x3880_0000);
        let is_small = self.b.ins().icmp(IntCC::UnsignedLessThan, a, limit);
        let r = self.bits_select(is_small, small, normal);
        let inf = self.bits_const(t, 0x7c00);
        let limit = self.bits_const(t, 0x477f_f000);
        let is_big = self
            .b
            .ins()
            .icmp(IntCC::UnsignedGreaterThanOrEqual, a, limit);
        let r = self.bits_select(is_big, inf, r);
        let payload = self.b.ins().ushr_imm_s(a, 13);
        let payload = self.bits_and(payload, 0x3ff);
        let quiet = self.bits_const(t, 0x7e00);
        let nan = self.b.ins().bor(payload, quiet);
        let limit = self.bits_const(t, 0x7f80_0000);
        let is_nan = self.b.ins().icmp(IntCC::UnsignedGreaterThan, a, limit);
        let r = self.bits_select(is_nan, nan, r);
        self.b.ins().bor(r, sign)
    }

    /// Convert a scalar to or from `half` (one of `from`, `to` is half; the
    /// conversion rounds to nearest even, as implicit conversions do).
    pub(crate) fn convert_half(
        &mut self,
        v: Value,
        from: Scalar,
        to: Scalar,
    ) -> Result<Value, String> {
        if from == Scalar::Half {
            if to == Scalar::Bool {
                return Ok(self.half_is_nonzero(v));
            }
            let f = self.half_to_float(v);
            return self.convert_scalar(f, Scalar::Float, to);
        }
        let x = match from {
            Scalar::Float | Scalar::Double => v,
            _ => self.convert_scalar(v, from, Scalar::Float)?,
        };
        Ok(self.float_to_half(x, ROUND_TO_NEAREST_EVEN))
    }

    /// `h != 0` for half bits (NaN is non-zero, -0 is zero): an i8 0/1.
    pub(crate) fn half_is_nonzero(&mut self, h: Value) -> Value {
        let magnitude = self.b.ins().band_imm_s(h, 0x7fff);
        self.b.ins().icmp_imm_s(IntCC::NotEqual, magnitude, 0)
    }

    /// `-h` for half bits: the sign flipped (exact, NaN too).
    pub(crate) fn half_neg(&mut self, h: Value) -> Value {
        self.b.ins().bxor_imm_s(h, -0x8000)
    }

    /// One binary operation on half bits: an arithmetic result is half bits,
    /// a comparison or logical operator an i8 0/1.
    pub(crate) fn half_binop(&mut self, op: BinOp, x: Value, y: Value) -> Result<Value, String> {
        use BinOp::*;
        let (a, b) = (self.half_to_float(x), self.half_to_float(y));
        match op {
            Add | Sub | Mul | Div => {
                let r = self.binop_scalar(op, a, b, Scalar::Float)?;
                Ok(self.float_to_half(r, ROUND_TO_NEAREST_EVEN))
            }
            Lt | Gt | Le | Ge | Eq | Ne | LogAnd | LogOr => {
                self.binop_scalar(op, a, b, Scalar::Float)
            }
            _ => Err(format!("invalid operands to binary {op:?} on 'half'")),
        }
    }

    /// `!h` on half bits: an i8 0/1.
    pub(crate) fn half_is_zero(&mut self, h: Value) -> Value {
        let magnitude = self.b.ins().band_imm_s(h, 0x7fff);
        self.b.ins().icmp_imm_s(IntCC::Equal, magnitude, 0)
    }
}
