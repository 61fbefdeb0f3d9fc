//! Arithmetic, comparisons and conversions on scalars, and their lane-wise
//! extension to vectors.
//!
//! OpenCL C semantics implemented here (spec 6.3, 6.4):
//! - integer arithmetic wraps at the type's width; shift counts are masked
//!   by the width (`x << (n & (bits - 1))`: Cranelift's shifts do exactly that);
//! - integer division and remainder by zero, and `INT_MIN / -1`, are
//!   undefined in OpenCL but must not trap the host: the divisor is replaced
//!   by 1 in those cases;
//! - comparisons give `int` 0/1 for scalars and -1/0 lanes of the signed
//!   integer type of the element's size for vectors;
//! - float → integer conversions round toward zero and saturate (Cranelift's
//!   `fcvt_to_*_sat`, which never traps; NaN gives 0);
//! - conversion to `bool` is `!= 0`;
//! - `half` operations and conversions are `half.rs`'s (widened to float,
//!   computed, rounded once to half).

use super::fx::{FloatCC, FunctionCx, IntCC};
use super::value::{clif_scalar, CValue};
use crate::sema::hir::BinOp;
use crate::sema::types::{Scalar, Type};
use cranelift_codegen::ir::{types, InstBuilder, Value};

impl FunctionCx<'_, '_> {
    /// Convert one scalar value between scalar types.
    pub fn convert_scalar(&mut self, v: Value, from: Scalar, to: Scalar) -> Result<Value, String> {
        if from == to {
            return Ok(v);
        }
        if from == Scalar::Half || to == Scalar::Half {
            return self.convert_half(v, from, to);
        }
        let (ft, tt) = (clif_scalar(from), clif_scalar(to));
        Ok(match (from.is_float(), to.is_float()) {
            (_, false) if to == Scalar::Bool => {
                let c = if from.is_float() {
                    let z = self.zero_scalar(ft);
                    self.b.ins().fcmp(FloatCC::NotEqual, v, z)
                } else {
                    self.b.ins().icmp_imm_s(IntCC::NotEqual, v, 0)
                };
                c // i8 0/1
            }
            (false, false) => self.int_resize(v, ft, tt, from.is_signed() && from != Scalar::Bool),
            (false, true) => {
                let signed = from.is_signed() && from != Scalar::Bool;
                let v = if ft.bits() < 32 {
                    self.int_resize(v, ft, types::I32, signed)
                } else {
                    v
                };
                if signed {
                    self.b.ins().fcvt_from_sint(tt, v)
                } else {
                    self.b.ins().fcvt_from_uint(tt, v)
                }
            }
            (true, false) => {
                let wide = if tt.bits() < 32 { types::I32 } else { tt };
                let r = if to.is_signed() {
                    self.b.ins().fcvt_to_sint_sat(wide, v)
                } else {
                    self.b.ins().fcvt_to_uint_sat(wide, v)
                };
                if wide != tt {
                    self.b.ins().ireduce(tt, r)
                } else {
                    r
                }
            }
            (true, true) => {
                if tt.bits() > ft.bits() {
                    self.b.ins().fpromote(tt, v)
                } else {
                    self.b.ins().fdemote(tt, v)
                }
            }
        })
    }

    /// Change an integer's width: truncate, or extend by its signedness.
    pub fn int_resize(
        &mut self,
        v: Value,
        from: types::Type,
        to: types::Type,
        signed: bool,
    ) -> Value {
        use std::cmp::Ordering::*;
        match to.bits().cmp(&from.bits()) {
            Equal => v,
            Less => self.b.ins().ireduce(to, v),
            Greater if signed => self.b.ins().sextend(to, v),
            Greater => self.b.ins().uextend(to, v),
        }
    }

    /// Convert a value between arithmetic types (scalar → vector splats).
    pub fn convert(&mut self, v: CValue, from: &Type, to: &Type) -> Result<CValue, String> {
        if from == to {
            return Ok(v);
        }
        match (from, to) {
            (Type::Pointer(_), Type::Pointer(_)) => Ok(v),
            (Type::Pointer(_), Type::Scalar(s)) => {
                let x = v.scalar()?;
                Ok(CValue::Scalar(self.convert_scalar(x, Scalar::ULong, *s)?))
            }
            (Type::Scalar(s), Type::Pointer(_)) => {
                let x = v.scalar()?;
                Ok(CValue::Scalar(self.convert_scalar(
                    x,
                    *s,
                    if s.is_signed() {
                        Scalar::Long
                    } else {
                        Scalar::ULong
                    },
                )?))
            }
            (Type::Scalar(a), Type::Scalar(b)) => {
                let x = v.scalar()?;
                Ok(CValue::Scalar(self.convert_scalar(x, *a, *b)?))
            }
            (Type::Scalar(a), Type::Vector(b, n)) => {
                let x = v.scalar()?;
                let x = self.convert_scalar(x, *a, *b)?;
                Ok(CValue::Lanes(vec![x; *n as usize]))
            }
            (Type::Vector(a, _), Type::Vector(b, _)) => {
                let lanes = v.lanes()?;
                let out = lanes
                    .into_iter()
                    .map(|l| self.convert_scalar(l, *a, *b))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(CValue::Lanes(out))
            }
            (_, Type::Void) => Ok(CValue::Void),
            _ if from.is_error() || to.is_error() => {
                Err("internal: poisoned type reached codegen".into())
            }
            _ => Ok(v),
        }
    }

    /// A binary operation on two operands of type `ty` giving `res_ty`.
    /// Operands that are scalars where `ty` is a vector are splatted.
    pub fn binary(
        &mut self,
        op: BinOp,
        a: CValue,
        b: CValue,
        ty: &Type,
        rhs_ty: &Type,
        res_ty: &Type,
    ) -> Result<CValue, String> {
        let elem = ty
            .elem()
            .ok_or_else(|| format!("operator on a non-arithmetic type {ty:?}"))?;
        let n = ty.width() as usize;
        let rhs_elem = rhs_ty.elem().unwrap_or(elem);
        let la = splat(a.lanes()?, n);
        let lb = splat(b.lanes()?, n);
        let res_elem = res_ty.elem().unwrap_or(Scalar::Int);
        let mut out = Vec::with_capacity(n);
        for (x, y) in la.into_iter().zip(lb) {
            let y = if is_shift(op) || rhs_elem == elem {
                y
            } else {
                self.convert_scalar(y, rhs_elem, elem)?
            };
            let r = self.binop_scalar(op, x, y, elem)?;
            let r = if is_comparison(op) {
                // `r` is an i8 holding 0/1.
                let t = clif_scalar(res_elem);
                if res_ty.is_vector() {
                    self.b.ins().bmask(t, r)
                } else {
                    self.int_resize(r, types::I8, t, false)
                }
            } else {
                r
            };
            out.push(r);
        }
        Ok(if res_ty.is_vector() {
            CValue::Lanes(out)
        } else {
            CValue::from_lanes(out)
        })
    }

    /// One scalar operation; comparisons and logical operators give an i8 0/1.
    pub fn binop_scalar(
        &mut self,
        op: BinOp,
        x: Value,
        y: Value,
        s: Scalar,
    ) -> Result<Value, String> {
        use BinOp::*;
        if s == Scalar::Half {
            return self.half_binop(op, x, y);
        }
        if s.is_float() {
            return Ok(match op {
                Add => self.b.ins().fadd(x, y),
                Sub => self.b.ins().fsub(x, y),
                Mul => self.b.ins().fmul(x, y),
                Div => self.b.ins().fdiv(x, y),
                Lt => self.b.ins().fcmp(FloatCC::LessThan, x, y),
                Gt => self.b.ins().fcmp(FloatCC::GreaterThan, x, y),
                Le => self.b.ins().fcmp(FloatCC::LessThanOrEqual, x, y),
                Ge => self.b.ins().fcmp(FloatCC::GreaterThanOrEqual, x, y),
                Eq => self.b.ins().fcmp(FloatCC::Equal, x, y),
                Ne => self.b.ins().fcmp(FloatCC::NotEqual, x, y),
                LogAnd | LogOr => {
                    let t = clif_scalar(s);
                    let z = self.zero_scalar(t);
                    let a = self.b.ins().fcmp(FloatCC::NotEqual, x, z);
                    let b = self.b.ins().fcmp(FloatCC::NotEqual, y, z);
                    if op == LogAnd {
                        self.b.ins().band(a, b)
                    } else {
                        self.b.ins().bor(a, b)
                    }
                }
                Rem | Shl | Shr | BitAnd | BitOr | BitXor => {
                    return Err(format!("operator {op:?} on floating-point values"));
                }
            });
        }
        let signed = s.is_signed() && s != Scalar::Bool;
        let cc = |signed: bool, sc: IntCC, uc: IntCC| if signed { sc } else { uc };
        Ok(match op {
            Add => self.b.ins().iadd(x, y),
            Sub => self.b.ins().isub(x, y),
            Mul => self.b.ins().imul(x, y),
            Div | Rem => self.int_div(op == Div, x, y, s),
            Shl => self.b.ins().ishl(x, y),
            Shr if signed => self.b.ins().sshr(x, y),
            Shr => self.b.ins().ushr(x, y),
            BitAnd => self.b.ins().band(x, y),
            BitOr => self.b.ins().bor(x, y),
            BitXor => self.b.ins().bxor(x, y),
            Lt => self.b.ins().icmp(
                cc(signed, IntCC::SignedLessThan, IntCC::UnsignedLessThan),
                x,
                y,
            ),
            Gt => self.b.ins().icmp(
                cc(signed, IntCC::SignedGreaterThan, IntCC::UnsignedGreaterThan),
                x,
                y,
            ),
            Le => self.b.ins().icmp(
                cc(
                    signed,
                    IntCC::SignedLessThanOrEqual,
                    IntCC::UnsignedLessThanOrEqual,
                ),
                x,
                y,
            ),
            Ge => self.b.ins().icmp(
                cc(
                    signed,
                    IntCC::SignedGreaterThanOrEqual,
                    IntCC::UnsignedGreaterThanOrEqual,
                ),
                x,
                y,
            ),
            Eq => self.b.ins().icmp(IntCC::Equal, x, y),
            Ne => self.b.ins().icmp(IntCC::NotEqual, x, y),
            LogAnd | LogOr => {
                let a = self.b.ins().icmp_imm_s(IntCC::NotEqual, x, 0);
                let b = self.b.ins().icmp_imm_s(IntCC::NotEqual, y, 0);
                if op == LogAnd {
                    self.b.ins().band(a, b)
                } else {
                    self.b.ins().bor(a, b)
                }
            }
        })
    }

    /// Division or remainder that cannot trap: a zero divisor (and `MIN / -1`)
    /// is replaced by 1.
    fn int_div(&mut self, div: bool, x: Value, y: Value, s: Scalar) -> Value {
        let t = clif_scalar(s);
        let signed = s.is_signed();
        let zero = self.b.ins().icmp_imm_s(IntCC::Equal, y, 0);
        let bad = if signed {
            let m1 = self.iconst(t, -1);
            let min = self.iconst(t, 1i128 << (t.bits() - 1));
            let is_m1 = self.b.ins().icmp(IntCC::Equal, y, m1);
            let is_min = self.b.ins().icmp(IntCC::Equal, x, min);
            let ovf = self.b.ins().band(is_m1, is_min);
            self.b.ins().bor(zero, ovf)
        } else {
            zero
        };
        let one = self.b.ins().iconst(t, 1);
        let d = self.b.ins().select(bad, one, y);
        match (div, signed) {
            (true, true) => self.b.ins().sdiv(x, d),
            (true, false) => self.b.ins().udiv(x, d),
            (false, true) => self.b.ins().srem(x, d),
            (false, false) => self.b.ins().urem(x, d),
        }
    }

    /// `-x`, `~x`, `!x` on a scalar or vector of type `ty`; `res_ty` is the result type.
    pub fn unary(
        &mut self,
        op: crate::sema::hir::UnOp,
        v: CValue,
        ty: &Type,
        res_ty: &Type,
    ) -> Result<CValue, String> {
        use crate::sema::hir::UnOp::*;
        if op == Plus {
            return Ok(v);
        }
        if let Type::Pointer(_) = ty {
            // `!p`
            let x = v.scalar()?;
            let c = self.b.ins().icmp_imm_s(IntCC::Equal, x, 0);
            let t = super::value::clif_type(res_ty).unwrap_or(types::I32);
            return Ok(CValue::Scalar(self.int_resize(c, types::I8, t, false)));
        }
        let s = ty.elem().ok_or("operator on a non-arithmetic type")?;
        let t = clif_scalar(s);
        let res_elem = res_ty.elem().map(clif_scalar).unwrap_or(types::I32);
        let mut out = Vec::new();
        for x in v.lanes()? {
            out.push(match op {
                Neg if s == Scalar::Half => self.half_neg(x),
                Neg if s.is_float() => self.b.ins().fneg(x),
                Neg => self.b.ins().ineg(x),
                BitNot if s == Scalar::Bool => self.b.ins().bxor_imm_s(x, 1),
                BitNot => self.b.ins().bnot(x),
                LogNot => {
                    let c = if s == Scalar::Half {
                        self.half_is_zero(x)
                    } else if s.is_float() {
                        let z = self.zero_scalar(t);
                        self.b.ins().fcmp(FloatCC::Equal, x, z)
                    } else {
                        self.b.ins().icmp_imm_s(IntCC::Equal, x, 0)
                    };
                    if res_ty.is_vector() {
                        self.b.ins().bmask(res_elem, c)
                    } else {
                        self.int_resize(c, types::I8, res_elem, false)
                    }
                }
                Plus => x,
            });
        }
        Ok(if res_ty.is_vector() {
            CValue::Lanes(out)
        } else {
            CValue::from_lanes(out)
        })
    }

    /// A C condition (`if (c)`): an i8 that is non-zero when `v` (of type `ty`) is.
    pub fn truth(&mut self, v: &CValue, ty: &Type) -> Result<Value, String> {
        let x = v.scalar()?;
        Ok(match ty.elem() {
            Some(Scalar::Half) => self.half_is_nonzero(x),
            Some(s) if s.is_float() => {
                let z = self.zero_scalar(clif_scalar(s));
                self.b.ins().fcmp(FloatCC::NotEqual, x, z)
            }
            _ => self.b.ins().icmp_imm_s(IntCC::NotEqual, x, 0),
        })
    }
}

fn splat(v: Vec<Value>, n: usize) -> Vec<Value> {
    if v.len() == 1 && n > 1 {
        vec![v[0]; n]
    } else {
        v
    }
}

pub fn is_comparison(op: BinOp) -> bool {
    use BinOp::*;
    matches!(op, Lt | Gt | Le | Ge | Eq | Ne | LogAnd | LogOr)
}

fn is_shift(op: BinOp) -> bool {
    matches!(op, BinOp::Shl | BinOp::Shr)
}
