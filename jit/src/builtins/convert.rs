//! Explicit conversions `convert_<type>[_sat][_<rounding>]` (spec 6.4.3),
//! reinterpretation `as_<type>` (6.4.4.2) and `shuffle`/`shuffle2` (6.15.10).
//!
//! Conversions work lane by lane:
//! - integer → integer: truncation or extension; `_sat` clamps to the
//!   destination's range first (compared in 64 bits with the source's
//!   signedness);
//! - float → integer: the rounding mode is applied first (`nearest`,
//!   `floor`, `ceil`, `trunc`), then Cranelift's saturating conversion
//!   (NaN → 0), narrowed with a clamp for `_sat` to 8/16-bit types;
//! - integer → float: round-to-nearest is Cranelift's conversion; directed
//!   modes call a host function that corrects the nearest result;
//! - double → float likewise; float → double is exact;
//! - `half` → anything widens to float first (exact); anything → `half`
//!   rounds once by the mode (`to_half`).
//!
//! `as_<type>` stores the value to a stack temporary and loads it as the
//! new type (a 3-vector occupies 4 lanes); scalars of equal size use
//! `bitcast`. `shuffle` picks lanes directly for constant masks, otherwise
//! loads from a stack copy of the inputs at the masked index.

use super::integer::range;
use super::{clif, elem, lanes, mem, result};
use crate::codegen::{CValue, FunctionCx};
use crate::sema::builtins::{BuiltinFn, Rounding};
use crate::sema::types::{Scalar, Type};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, InstBuilder, Value};

pub(super) fn convert(
    fx: &mut FunctionCx<'_, '_>,
    f: &BuiltinFn,
    args: &[CValue],
    arg_tys: &[Type],
    sat: bool,
    rounding: Rounding,
) -> Option<Result<CValue, String>> {
    Some((|| {
        let from = elem(
            arg_tys
                .first()
                .ok_or("internal: convert without argument")?,
        )?;
        let to = elem(&f.ret)?;
        let n = f.ret.width() as usize;
        let src = lanes(&args[0], n)?;
        let mut out = Vec::with_capacity(n);
        for x in src {
            out.push(if from == to {
                x
            } else if from == Scalar::Half {
                let x = fx.half_to_float(x);
                convert_scalar(fx, x, Scalar::Float, to, sat, rounding)?
            } else if to == Scalar::Half {
                to_half(fx, x, from, rounding)?
            } else {
                convert_scalar(fx, x, from, to, sat, rounding)?
            });
        }
        Ok(result(&f.ret, out))
    })())
}

/// Rounding mode number of the host functions (0 rte, 1 rtz, 2 rtp, 3 rtn).
fn mode(r: Rounding) -> i64 {
    match r {
        Rounding::Default | Rounding::Rte => 0,
        Rounding::Rtz => 1,
        Rounding::Rtp => 2,
        Rounding::Rtn => 3,
    }
}

/// Convert one lane.
pub(super) fn convert_scalar(
    fx: &mut FunctionCx<'_, '_>,
    x: Value,
    from: Scalar,
    to: Scalar,
    sat: bool,
    rounding: Rounding,
) -> Result<Value, String> {
    let (ft, tt) = (clif(from), clif(to));
    match (from.is_float(), to.is_float()) {
        (false, false) => {
            if !sat {
                return fx.convert_scalar(x, from, to);
            }
            Ok(int_sat(fx, x, from, to))
        }
        (true, false) => {
            let r = match rounding {
                Rounding::Default | Rounding::Rtz => x,
                Rounding::Rte => fx.b.ins().nearest(x),
                Rounding::Rtp => fx.b.ins().ceil(x),
                Rounding::Rtn => fx.b.ins().floor(x),
            };
            let wide = if tt.bits() < 32 { types::I32 } else { tt };
            // 8/16-bit results go through a signed 32-bit conversion (their
            // whole range fits) and a clamp.
            let v = if to.is_signed() || wide != tt {
                fx.b.ins().fcvt_to_sint_sat(wide, r)
            } else {
                fx.b.ins().fcvt_to_uint_sat(wide, r)
            };
            if wide == tt {
                return Ok(v);
            }
            let v = if sat {
                let (lo, hi) = range(to);
                let lo = fx.b.ins().iconst(types::I32, lo as i64);
                let hi = fx.b.ins().iconst(types::I32, hi as i64);
                let v = super::integer::minmax(fx, true, v, lo, true);
                super::integer::minmax(fx, true, v, hi, false)
            } else {
                v
            };
            Ok(fx.b.ins().ireduce(tt, v))
        }
        (false, true) => {
            let m = mode(rounding);
            if m == 0 {
                return fx.convert_scalar(x, from, to);
            }
            let signed = from.is_signed() && from != Scalar::Bool;
            let wide = if ft.bits() < 64 {
                if signed {
                    fx.b.ins().sextend(types::I64, x)
                } else {
                    fx.b.ins().uextend(types::I64, x)
                }
            } else {
                x
            };
            // Exact in double when the source has at most 32 bits.
            if to == Scalar::Double && ft.bits() <= 32 {
                return fx.convert_scalar(x, from, to);
            }
            if to == Scalar::Float && ft.bits() <= 16 {
                return fx.convert_scalar(x, from, to);
            }
            let sym = if to == Scalar::Double {
                "cranecl_cvt_i_d"
            } else {
                "cranecl_cvt_i_f"
            };
            let sg = fx.b.ins().iconst(types::I32, i64::from(signed));
            let md = fx.b.ins().iconst(types::I32, m);
            super::math::host(
                fx,
                sym,
                &[types::I64, types::I32, types::I32],
                tt,
                &[wide, sg, md],
            )
        }
        (true, true) => {
            if from == to || to == Scalar::Double {
                return fx.convert_scalar(x, from, to);
            }
            let m = mode(rounding);
            if m == 0 {
                return fx.convert_scalar(x, from, to);
            }
            let md = fx.b.ins().iconst(types::I32, m);
            super::math::host(
                fx,
                "cranecl_cvt_d_f",
                &[types::F64, types::I32],
                tt,
                &[x, md],
            )
        }
    }
}

/// A lane converted to `half` by `rounding`. From an integer it goes
/// through float in the same mode: exact below 2^24, and rounding twice in
/// one direction is rounding once (half's values are float values); larger
/// integers overflow half either way.
fn to_half(
    fx: &mut FunctionCx<'_, '_>,
    x: Value,
    from: Scalar,
    rounding: Rounding,
) -> Result<Value, String> {
    let x = if from.is_float() {
        x
    } else {
        convert_scalar(fx, x, from, Scalar::Float, false, rounding)?
    };
    Ok(fx.float_to_half(x, mode(rounding)))
}

/// Integer → integer with saturation.
fn int_sat(fx: &mut FunctionCx<'_, '_>, x: Value, from: Scalar, to: Scalar) -> Value {
    let (ft, tt) = (clif(from), clif(to));
    let fsg = from.is_signed() && from != Scalar::Bool;
    let w = if ft.bits() < 64 {
        if fsg {
            fx.b.ins().sextend(types::I64, x)
        } else {
            fx.b.ins().uextend(types::I64, x)
        }
    } else {
        x
    };
    let (flo, fhi) = range(from);
    let (tlo, thi) = range(to);
    let mut v = w;
    if tlo > flo {
        // Only a signed source can be below the destination's minimum.
        let lo = fx.b.ins().iconst(types::I64, tlo as i64);
        let below = fx.b.ins().icmp(IntCC::SignedLessThan, v, lo);
        v = fx.b.ins().select(below, lo, v);
    }
    if thi < fhi {
        let hi = fx.b.ins().iconst(types::I64, thi as i64);
        let cc = if fsg {
            IntCC::SignedGreaterThan
        } else {
            IntCC::UnsignedGreaterThan
        };
        let above = fx.b.ins().icmp(cc, v, hi);
        v = fx.b.ins().select(above, hi, v);
    }
    if tt.bits() < 64 {
        fx.b.ins().ireduce(tt, v)
    } else {
        v
    }
}

pub(super) fn reinterpret(
    fx: &mut FunctionCx<'_, '_>,
    f: &BuiltinFn,
    args: &[CValue],
    arg_tys: &[Type],
) -> Option<Result<CValue, String>> {
    Some((|| {
        let from = arg_tys.first().ok_or("internal: as_ without argument")?;
        let to = &f.ret;
        if let (CValue::Scalar(x), false) = (&args[0], to.is_vector()) {
            let t = super::value_type(to)?;
            return Ok(CValue::Scalar(super::bitcast(fx, t, *x)));
        }
        let size = fx.size_of(to).max(fx.size_of(from));
        let tmp = fx.stack_temp(size, 16);
        fx.store(tmp, from, &args[0])?;
        fx.load(tmp, to)
    })())
}

pub(super) fn shuffle(
    fx: &mut FunctionCx<'_, '_>,
    f: &BuiltinFn,
    args: &[CValue],
    _arg_tys: &[Type],
) -> Option<Result<CValue, String>> {
    Some((|| {
        let two = f.name == "shuffle2";
        let mut src = args[0].lanes()?;
        if two {
            src.extend(args[1].lanes()?);
        }
        let total = src.len();
        let mask = args[if two { 2 } else { 1 }].lanes()?;
        let s = elem(&f.ret)?;
        let consts: Option<Vec<i64>> = mask.iter().map(|v| fx.const_of(*v)).collect();
        if let Some(c) = consts {
            let out = c.iter().map(|i| src[(*i as usize) & (total - 1)]).collect();
            return Ok(result(&f.ret, out));
        }
        // Variable mask: index a stack copy of the inputs.
        let size = s.size();
        let tmp = fx.stack_temp(size * total as u64, 16);
        for (i, v) in src.iter().enumerate() {
            fx.b.ins().store(mem(), *v, tmp, (i as u64 * size) as i32);
        }
        let mt = fx.b.func.dfg.value_type(mask[0]);
        let mut out = Vec::with_capacity(mask.len());
        for k in mask {
            let idx = fx.b.ins().band_imm_s(k, (total - 1) as i64);
            let idx = if mt.bits() < 64 {
                fx.b.ins().uextend(types::I64, idx)
            } else {
                idx
            };
            let off = fx.b.ins().imul_imm_s(idx, size as i64);
            let addr = fx.b.ins().iadd(tmp, off);
            out.push(fx.b.ins().load(clif(s), mem(), addr, 0));
        }
        Ok(result(&f.ret, out))
    })())
}
