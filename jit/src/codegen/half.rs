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
//! Widening and rounding a float to nearest even are inline
//! (`half_to_float`, `float_to_half_rte`); rounding from double, or by
//! another mode, is a host call (`builtins::host::float_to_half`,
//! `double_to_half`), called by address.

use super::fx::{FunctionCx, IntCC};
use crate::builtins::host;
use crate::sema::hir::BinOp;
use crate::sema::types::Scalar;
use cranelift_codegen::ir::{types, InstBuilder, MemFlagsData, Value};

/// Rounding of a conversion to half: the `mode` argument of the host
/// functions (0 rte, 1 rtz, 2 rtp, 3 rtn).
pub const ROUND_TO_NEAREST_EVEN: i64 = 0;

impl FunctionCx<'_, '_> {
    /// The `float` value of half bits `h` (an `i16`): exact, inline. The
    /// exponent and significand bits shifted into a float's places read as
    /// the value times 2^-112 (a normal half's exponent bias is 15, float's
    /// 127; a subnormal half lands on a float subnormal with the same
    /// significand), so one multiplication by 2^112 is the value; infinities
    /// and NaNs take float's all-ones exponent instead. The sign is put back
    /// last.
    pub fn half_to_float(&mut self, h: Value) -> Value {
        let b = &mut self.b;
        let u = b.ins().uextend(types::I32, h);
        let magnitude = b.ins().band_imm_s(u, 0x7fff);
        let shifted = b.ins().ishl_imm_s(magnitude, 13);
        let f = b.ins().bitcast(types::F32, MemFlagsData::new(), shifted);
        let two_112 = b.ins().f32const(f32::from_bits(0x7780_0000));
        let v = b.ins().fmul(f, two_112);
        let scaled = b.ins().bitcast(types::I32, MemFlagsData::new(), v);
        let special = b.ins().bor_imm_s(shifted, 0x7f80_0000);
        let is_special = b
            .ins()
            .icmp_imm_s(IntCC::UnsignedGreaterThanOrEqual, magnitude, 0x7c00);
        let bits = b.ins().select(is_special, special, scaled);
        let sign = b.ins().band_imm_s(u, 0x8000);
        let sign = b.ins().ishl_imm_s(sign, 16);
        let bits = b.ins().bor(bits, sign);
        b.ins().bitcast(types::F32, MemFlagsData::new(), bits)
    }

    /// `x` (a `float` or `double`) rounded to half bits (`i16`) by `mode`.
    pub fn float_to_half(&mut self, x: Value, mode: i64) -> Value {
        let t = self.b.func.dfg.value_type(x);
        if t == types::F32 && mode == ROUND_TO_NEAREST_EVEN {
            return self.float_to_half_rte(x);
        }
        let f = if t == types::F64 {
            host::double_to_half as *const u8
        } else {
            host::float_to_half as *const u8
        };
        let m = self.b.ins().iconst(types::I32, mode);
        let r = self.call_host(f, &[t, types::I32], &[types::I32], &[x, m])[0];
        self.b.ins().ireduce(types::I16, r)
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
        let b = &mut self.b;
        let bits = b.ins().bitcast(types::I32, MemFlagsData::new(), x);
        let a = b.ins().band_imm_s(bits, 0x7fff_ffff);
        let sign = b.ins().ushr_imm_s(bits, 16);
        let sign = b.ins().band_imm_s(sign, 0x8000);
        // Normal range.
        let odd = b.ins().ushr_imm_s(a, 13);
        let odd = b.ins().band_imm_s(odd, 1);
        let r = b.ins().iadd_imm_s(a, 0xfff);
        let r = b.ins().iadd(r, odd);
        let r = b.ins().ushr_imm_s(r, 13);
        let normal = b.ins().iadd_imm_s(r, -((127 - 15) << 10));
        // Subnormal range.
        let fa = b.ins().bitcast(types::F32, MemFlagsData::new(), a);
        let half = b.ins().f32const(0.5);
        let sum = b.ins().fadd(fa, half);
        let sum = b.ins().bitcast(types::I32, MemFlagsData::new(), sum);
        let small = b.ins().iadd_imm_s(sum, -(0.5f32.to_bits() as i64));
        let is_small = b.ins().icmp_imm_s(IntCC::UnsignedLessThan, a, 0x3880_0000);
        let r = b.ins().select(is_small, small, normal);
        let inf = b.ins().iconst(types::I32, 0x7c00);
        let is_big = b
            .ins()
            .icmp_imm_s(IntCC::UnsignedGreaterThanOrEqual, a, 0x477f_f000);
        let r = b.ins().select(is_big, inf, r);
        let payload = b.ins().ushr_imm_s(a, 13);
        let payload = b.ins().band_imm_s(payload, 0x3ff);
        let nan = b.ins().bor_imm_s(payload, 0x7e00);
        let is_nan = b
            .ins()
            .icmp_imm_s(IntCC::UnsignedGreaterThan, a, 0x7f80_0000);
        let r = b.ins().select(is_nan, nan, r);
        let r = b.ins().bor(r, sign);
        b.ins().ireduce(types::I16, r)
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
