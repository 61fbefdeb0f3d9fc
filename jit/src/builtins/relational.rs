//! Relational functions (spec 6.15.6), inline: comparisons (`isequal` …
//! `isunordered`), classification (`isfinite`, `isinf`, `isnan`,
//! `isnormal`, `signbit`), `any`, `all`, `bitselect` and `select`.
//!
//! Scalar results are `int` 1 or 0; vector results are -1 (all bits set) or
//! 0 per lane, in the signed integer type of the operands' element size.
//! `select` on vectors tests the most significant bit of each mask lane, on
//! scalars the whole value.

use super::{clif, elem, lanes, map_lanes};
use crate::codegen::{CValue, FunctionCx};
use crate::sema::builtins::BuiltinFn;
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{types, InstBuilder, Value};

pub(super) fn emit(
    fx: &mut FunctionCx<'_, '_>,
    f: &BuiltinFn,
    args: &[CValue],
) -> Option<Result<CValue, String>> {
    let s = match f.params.first().map(elem) {
        Some(Ok(s)) => s,
        Some(Err(e)) => return Some(Err(e)),
        None => return None,
    };
    let vector = f.params[0].is_vector();
    let ret = &f.ret;
    let rt = match elem(ret) {
        Ok(r) => clif(r),
        Err(e) => return Some(Err(e)),
    };
    // An i8 0/1 condition as the function's result lane.
    let out = move |fx: &mut FunctionCx<'_, '_>, c: Value| -> Value {
        if vector {
            fx.b.ins().bmask(rt, c)
        } else {
            fx.b.ins().uextend(rt, c)
        }
    };
    let cmp = |cc: FloatCC| {
        move |fx: &mut FunctionCx<'_, '_>, a: &[Value]| -> Result<Value, String> {
            let c = fx.b.ins().fcmp(cc, a[0], a[1]);
            Ok(out(fx, c))
        }
    };
    let t = clif(s);
    let r = match f.name.as_str() {
        "isequal" => map_lanes(fx, ret, args, cmp(FloatCC::Equal)),
        "isnotequal" => map_lanes(fx, ret, args, cmp(FloatCC::NotEqual)),
        "isgreater" => map_lanes(fx, ret, args, cmp(FloatCC::GreaterThan)),
        "isgreaterequal" => map_lanes(fx, ret, args, cmp(FloatCC::GreaterThanOrEqual)),
        "isless" => map_lanes(fx, ret, args, cmp(FloatCC::LessThan)),
        "islessequal" => map_lanes(fx, ret, args, cmp(FloatCC::LessThanOrEqual)),
        "islessgreater" => map_lanes(fx, ret, args, cmp(FloatCC::OrderedNotEqual)),
        "isordered" => map_lanes(fx, ret, args, cmp(FloatCC::Ordered)),
        "isunordered" => map_lanes(fx, ret, args, cmp(FloatCC::Unordered)),
        "isnan" => map_lanes(fx, ret, args, |fx, a| {
            let c = fx.b.ins().fcmp(FloatCC::Unordered, a[0], a[0]);
            Ok(out(fx, c))
        }),
        "isinf" | "isfinite" | "isnormal" => {
            let name = f.name.clone();
            map_lanes(fx, ret, args, |fx, a| {
                let ax = fx.b.ins().fabs(a[0]);
                let inf = super::math::fconst(fx, t, f64::INFINITY);
                let c = match name.as_str() {
                    "isinf" => fx.b.ins().fcmp(FloatCC::Equal, ax, inf),
                    "isfinite" => fx.b.ins().fcmp(FloatCC::LessThan, ax, inf),
                    _ => {
                        let min = if t == types::F64 {
                            f64::MIN_POSITIVE
                        } else {
                            f64::from(f32::MIN_POSITIVE)
                        };
                        let min = super::math::fconst(fx, t, min);
                        let lo = fx.b.ins().fcmp(FloatCC::GreaterThanOrEqual, ax, min);
                        let hi = fx.b.ins().fcmp(FloatCC::LessThan, ax, inf);
                        fx.b.ins().band(lo, hi)
                    }
                };
                Ok(out(fx, c))
            })
        }
        "signbit" => map_lanes(fx, ret, args, |fx, a| {
            let it = types::Type::int(t.bits() as u16).unwrap_or(types::I32);
            let bits = fx.b.ins().bitcast(it, super::mem(), a[0]);
            let c = fx.b.ins().icmp_imm_s(IntCC::SignedLessThan, bits, 0);
            Ok(out(fx, c))
        }),
        "any" | "all" => {
            let any = f.name == "any";
            (|| {
                let l = args[0].lanes()?;
                let mut acc = None;
                for x in l {
                    let c = fx.b.ins().icmp_imm_s(IntCC::SignedLessThan, x, 0);
                    acc = Some(match acc {
                        None => c,
                        Some(p) if any => fx.b.ins().bor(p, c),
                        Some(p) => fx.b.ins().band(p, c),
                    });
                }
                let c = acc.ok_or("internal: any/all of nothing")?;
                Ok(CValue::Scalar(fx.b.ins().uextend(types::I32, c)))
            })()
        }
        "bitselect" => {
            let it = types::Type::int(t.bits() as u16).unwrap_or(types::I32);
            map_lanes(fx, ret, args, |fx, a| {
                let [x, y, c] = [a[0], a[1], a[2]].map(|v| super::bitcast(fx, it, v));
                // (x & ~c) | (y & c)
                let nc = fx.b.ins().band_not(x, c);
                let yc = fx.b.ins().band(y, c);
                let r = fx.b.ins().bor(nc, yc);
                Ok(super::bitcast(fx, t, r))
            })
        }
        "select" => (|| {
            let n = ret.width() as usize;
            let a = lanes(&args[0], n)?;
            let b = lanes(&args[1], n)?;
            let c = lanes(&args[2], n)?;
            let mut o = Vec::with_capacity(n);
            for i in 0..n {
                let cond = if vector {
                    fx.b.ins().icmp_imm_s(IntCC::SignedLessThan, c[i], 0)
                } else {
                    fx.b.ins().icmp_imm_s(IntCC::NotEqual, c[i], 0)
                };
                o.push(fx.b.ins().select(cond, b[i], a[i]));
            }
            Ok(super::result(ret, o))
        })(),
        _ => return None,
    };
    Some(r)
}
