//! The `half` overloads of the math, common, geometric and relational
//! built-ins (`cl_khr_fp16`), computed through their `float` overloads.
//!
//! A call whose overload has `half` in it is re-resolved to the same
//! built-in over `float` (`halfN` → `floatN`, `shortN` results of the
//! relational functions → `intN`, a `half *` out-parameter → a `float`
//! temporary on the stack), the `half` arguments are widened (exact), the
//! `float` overload runs, and its `half`-typed results are rounded to half
//! (round to nearest even). Exact functions stay exact (`fabs`, `floor`,
//! `fmin`, `fmod`, `isnan`, ...: the float result is a half value); the
//! others get the float implementation's error plus at most half an ulp of
//! half, within the spec's half limits. `fma` and `mad` are correctly
//! rounded on their own (`host::half_fma`: rounding float's fma result again
//! could round twice badly). `nextafter` steps the half's bits, `isnormal`
//! reads half's exponent (half's subnormals are normal floats), `nan` and
//! `fract` keep to half's own values. `select` and `bitselect` move bits
//! and take `half` as it is.

use super::{lanes, mem, result};
use crate::codegen::{CValue, FunctionCx};
use crate::sema::builtins::{BuiltinFn, Family};
use crate::sema::types::{Scalar, Type};
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{types, InstBuilder, Value};

/// Whether `f` is a `half` overload this module computes.
pub(super) fn applies(f: &BuiltinFn) -> bool {
    let family = matches!(
        f.family,
        Family::Math | Family::Common | Family::Geometric | Family::Relational
    );
    family
        && !matches!(f.name.as_str(), "select" | "bitselect")
        && std::iter::once(&f.ret)
            .chain(&f.params)
            .any(|t| elem_or_pointee(t) == Some(Scalar::Half))
}

fn elem_or_pointee(t: &Type) -> Option<Scalar> {
    match t {
        Type::Pointer(p) => p.ty.elem(),
        t => t.elem(),
    }
}

/// `t` with `half` elements made `float` (and `short` results `int`).
fn widened(t: &Type) -> Type {
    match t {
        Type::Scalar(Scalar::Half) => Type::Scalar(Scalar::Float),
        Type::Vector(Scalar::Half, n) => Type::Vector(Scalar::Float, *n),
        Type::Vector(Scalar::Short, n) => Type::Vector(Scalar::Int, *n),
        Type::Pointer(p) if p.ty.elem() == Some(Scalar::Half) => {
            Type::ptr(widened(&p.ty), p.space, p.quals)
        }
        t => t.clone(),
    }
}

/// Emit `f` (a `half` overload, see [`applies`]) through its float overload.
pub(super) fn emit(
    fx: &mut FunctionCx<'_, '_>,
    f: &BuiltinFn,
    args: &[CValue],
    arg_tys: &[Type],
) -> Result<CValue, String> {
    if f.name == "nan" {
        // A quiet NaN carrying the low bits of the code (spec 6.15.2).
        return super::map_lanes(fx, &f.ret, args, |fx, a| {
            let code = fx.b.ins().band_imm_s(a[0], 0x1ff);
            Ok(fx.b.ins().bor_imm_s(code, 0x7e00))
        });
    }
    if f.name == "nextafter" {
        // The next half (float's next value would round back to x).
        return super::map_lanes(fx, &f.ret, args, |fx, a| Ok(next_after(fx, a[0], a[1])));
    }
    if f.name == "isnormal" {
        // By half's own exponent field (a half subnormal is a normal float):
        // 1..=30. An int 1 for a scalar, a short -1 per vector lane.
        let vector = f.ret.is_vector();
        return super::map_lanes(fx, &f.ret, args, |fx, a| {
            let e = fx.b.ins().ushr_imm_s(a[0], 10);
            let e = fx.b.ins().band_imm_s(e, 0x1f);
            let e = fx.b.ins().iadd_imm_s(e, -1);
            let c = fx.b.ins().icmp_imm_s(IntCC::UnsignedLessThan, e, 30);
            Ok(if vector {
                fx.b.ins().bmask(types::I16, c)
            } else {
                fx.b.ins().uextend(types::I32, c)
            })
        });
    }
    if matches!(f.name.as_str(), "fma" | "mad") {
        return super::map_lanes(fx, &f.ret, args, |fx, a| {
            let w: Vec<Value> = a
                .iter()
                .map(|v| fx.b.ins().uextend(types::I32, *v))
                .collect();
            let h = super::host::half_fma as *const u8;
            let r = fx.call_host(h, &[types::I32; 3], &[types::I32], &w)[0];
            Ok(fx.b.ins().ireduce(types::I16, r))
        });
    }
    let ff = BuiltinFn {
        name: f.name.clone(),
        family: f.family,
        ret: widened(&f.ret),
        params: f.params.iter().map(widened).collect(),
        variadic: f.variadic,
    };
    let mut fargs = Vec::with_capacity(args.len());
    let mut fargs_tys = Vec::with_capacity(args.len());
    // Out-parameters: (the caller's pointer, the float temporary, width).
    let mut outs = Vec::new();
    for (i, (a, p)) in args.iter().zip(&f.params).enumerate() {
        let ty = arg_tys.get(i).unwrap_or(p);
        match p {
            Type::Pointer(pt) if pt.ty.elem() == Some(Scalar::Half) => {
                let n = pt.ty.width().max(1) as u64;
                let tmp = fx.stack_temp(4 * n.next_power_of_two(), 16);
                outs.push((a.scalar()?, tmp, n));
                fargs.push(CValue::Scalar(tmp));
                fargs_tys.push(widened(ty));
            }
            _ if p.elem() == Some(Scalar::Half) => {
                let w: Vec<Value> = a
                    .lanes()?
                    .into_iter()
                    .map(|h| fx.half_to_float(h))
                    .collect();
                fargs.push(result(&widened(p), w));
                fargs_tys.push(widened(p));
            }
            _ => {
                fargs.push(a.clone());
                fargs_tys.push(ty.clone());
            }
        }
    }
    let r = super::emit_builtin(fx, &ff, &fargs, &fargs_tys)?;
    for (dst, tmp, n) in outs {
        // Checked mode: the caller's half elements at once.
        let (dst, _) = fx.checked_addr(dst, 0, 2 * n, true, None);
        for i in 0..n as i32 {
            let v = fx.b.ins().load(types::F32, mem(), tmp, 4 * i);
            let h = fx.float_to_half(v, 0);
            fx.b.ins().store(mem(), h, dst, 2 * i);
        }
    }
    Ok(match f.ret.elem() {
        Some(Scalar::Half) => {
            let n = f.ret.width().max(1) as usize;
            let mut l: Vec<Value> = lanes(&r, n)?
                .into_iter()
                .map(|v| fx.float_to_half(v, 0))
                .collect();
            if f.name == "fract" {
                // fract is below 1 (at most 0x1.ffcp-1h): float's largest
                // fraction below 1 rounds to 1 in half.
                for v in &mut l {
                    let one = fx.b.ins().icmp_imm_s(IntCC::Equal, *v, 0x3c00);
                    let below = fx.b.ins().iconst(types::I16, 0x3bff);
                    *v = fx.b.ins().select(one, below, *v);
                }
            }
            result(&f.ret, l)
        }
        Some(Scalar::Short) if ff.ret.elem() == Some(Scalar::Int) => {
            let l: Vec<Value> = r
                .lanes()?
                .into_iter()
                .map(|v| fx.b.ins().ireduce(types::I16, v))
                .collect();
            result(&f.ret, l)
        }
        _ => r,
    })
}

/// `nextafter(x, y)` on half bits: x stepped one half toward y (a step of
/// the bits away from or toward zero), y when they are equal, NaN when
/// either is.
fn next_after(fx: &mut FunctionCx<'_, '_>, x: Value, y: Value) -> Value {
    let (fx_, fy) = (fx.half_to_float(x), fx.half_to_float(y));
    let zero = fx.b.ins().f32const(0.0);
    // Away from zero when y lies beyond x on x's side of zero.
    let y_above = fx.b.ins().fcmp(FloatCC::GreaterThan, fy, fx_);
    let x_positive = fx.b.ins().fcmp(FloatCC::GreaterThan, fx_, zero);
    let away = fx.b.ins().icmp(IntCC::Equal, y_above, x_positive);
    let up = fx.b.ins().iadd_imm_s(x, 1);
    let down = fx.b.ins().iadd_imm_s(x, -1);
    let stepped = fx.b.ins().select(away, up, down);
    // From ±0 the smallest subnormal with y's sign.
    let y_sign = fx.b.ins().band_imm_s(y, -0x8000);
    let tiny = fx.b.ins().bor_imm_s(y_sign, 1);
    let x_zero = fx.b.ins().fcmp(FloatCC::Equal, fx_, zero);
    let r = fx.b.ins().select(x_zero, tiny, stepped);
    let equal = fx.b.ins().fcmp(FloatCC::Equal, fx_, fy);
    let r = fx.b.ins().select(equal, y, r);
    let nan = fx.b.ins().fcmp(FloatCC::Unordered, fx_, fy);
    let quiet = fx.b.ins().iconst(types::I16, 0x7e00);
    fx.b.ins().select(nan, quiet, r)
}
