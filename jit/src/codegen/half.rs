//! `half` arithmetic (`cl_khr_fp16`, OpenCL C 3.0 §6.1.1.1).
//!
//! A `half` value lives in an `i16` holding its IEEE 754 binary16 bits,
//! exactly as it is stored, so loads, stores, vector lanes, swizzles,
//! `as_half` and the lanes' per-lane fallback need nothing special. An
//! operation widens its operands to `float` (exact: every half is a float),
//! computes there, and rounds the result to half once, to nearest even with
//! denormals (`builtins::host::to_half`). The float result rounded again is
//! the correctly rounded half result for `+`, `-`, `*`, `/` (float's 24 bits
//! are at least 2·11 + 2, the bound under which rounding twice is innocuous,
//! Figueroa 1995) and `sqrt` (at least 2·11 + 1). Comparisons are made on the
//! widened values (exact). `fma` is computed in double by a host function
//! (`host::half_fma`). Conversions from `double` round once, straight from
//! the double; from an integer they go through float, which is exact below
//! 2^24 and above it lands on float values that all overflow half anyway.
//!
//! The conversions are host calls (`builtins::host::half_to_float`,
//! `float_to_half`, `double_to_half`), called by address.

use super::fx::{FunctionCx, IntCC};
use crate::builtins::host;
use crate::sema::hir::BinOp;
use crate::sema::types::Scalar;
use cranelift_codegen::ir::{types, InstBuilder, Value};

/// Rounding of a conversion to half: the `mode` argument of the host
/// functions (0 rte, 1 rtz, 2 rtp, 3 rtn).
pub const ROUND_TO_NEAREST_EVEN: i64 = 0;

impl FunctionCx<'_, '_> {
    /// The `float` value of half bits `h` (an `i16`): exact.
    pub fn half_to_float(&mut self, h: Value) -> Value {
        let h = self.b.ins().uextend(types::I32, h);
        let f = host::half_to_float as *const u8;
        self.call_host(f, &[types::I32], &[types::F32], &[h])[0]
    }

    /// `x` (a `float` or `double`) rounded to half bits (`i16`) by `mode`.
    pub fn float_to_half(&mut self, x: Value, mode: i64) -> Value {
        let t = self.b.func.dfg.value_type(x);
        let f = if t == types::F64 {
            host::double_to_half as *const u8
        } else {
            host::float_to_half as *const u8
        };
        let m = self.b.ins().iconst(types::I32, mode);
        let r = self.call_host(f, &[t, types::I32], &[types::I32], &[x, m])[0];
        self.b.ins().ireduce(types::I16, r)
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
