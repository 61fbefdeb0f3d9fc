//! Common functions (spec 6.15.4) on `float`/`double` scalars and vectors,
//! inline, lane by lane: `clamp`, `degrees`, `max`, `min`, `mix`, `radians`,
//! `step`, `smoothstep`, `sign`. `max`/`min`/`clamp` use the `fmax`/`fmin`
//! rules for NaN operands.

use super::math::{fconst, fmin_fmax};
use super::{clif, elem, map_lanes};
use crate::codegen::{CValue, FunctionCx};
use crate::sema::builtins::BuiltinFn;
use crate::sema::types::Scalar;
use cranelift_codegen::ir::condcodes::FloatCC;
use cranelift_codegen::ir::InstBuilder;

pub(super) fn emit(
    fx: &mut FunctionCx<'_, '_>,
    f: &BuiltinFn,
    args: &[CValue],
) -> Option<Result<CValue, String>> {
    let s = match elem(&f.ret) {
        Ok(s) => s,
        Err(e) => return Some(Err(e)),
    };
    if !matches!(s, Scalar::Float | Scalar::Double) {
        return Some(Err(format!(
            "the built-in function '{}' is not supported yet for half",
            f.name
        )));
    }
    let t = clif(s);
    let ret = &f.ret;
    let r = match f.name.as_str() {
        "max" => map_lanes(fx, ret, args, |fx, a| Ok(fmin_fmax(fx, a[0], a[1], true))),
        "min" => map_lanes(fx, ret, args, |fx, a| Ok(fmin_fmax(fx, a[0], a[1], false))),
        "clamp" => map_lanes(fx, ret, args, |fx, a| {
            let m = fmin_fmax(fx, a[0], a[1], true);
            Ok(fmin_fmax(fx, m, a[2], false))
        }),
        "degrees" | "radians" => {
            let k = if f.name == "degrees" {
                180.0 / std::f64::consts::PI
            } else {
                std::f64::consts::PI / 180.0
            };
            map_lanes(fx, ret, args, |fx, a| {
                let k = fconst(fx, t, k);
                Ok(fx.b.ins().fmul(a[0], k))
            })
        }
        "mix" => map_lanes(fx, ret, args, |fx, a| {
            // x + (y - x) * a
            let d = fx.b.ins().fsub(a[1], a[0]);
            let m = fx.b.ins().fmul(d, a[2]);
            Ok(fx.b.ins().fadd(a[0], m))
        }),
        "step" => map_lanes(fx, ret, args, |fx, a| {
            // x < edge ? 0 : 1
            let lt = fx.b.ins().fcmp(FloatCC::LessThan, a[1], a[0]);
            let zero = fconst(fx, t, 0.0);
            let one = fconst(fx, t, 1.0);
            Ok(fx.b.ins().select(lt, zero, one))
        }),
        "smoothstep" => map_lanes(fx, ret, args, |fx, a| {
            // t = clamp((x - e0) / (e1 - e0), 0, 1); t * t * (3 - 2 t)
            let num = fx.b.ins().fsub(a[2], a[0]);
            let den = fx.b.ins().fsub(a[1], a[0]);
            let q = fx.b.ins().fdiv(num, den);
            let zero = fconst(fx, t, 0.0);
            let one = fconst(fx, t, 1.0);
            let q = fmin_fmax(fx, q, zero, true);
            let q = fmin_fmax(fx, q, one, false);
            let two = fconst(fx, t, 2.0);
            let three = fconst(fx, t, 3.0);
            let tq = fx.b.ins().fmul(two, q);
            let k = fx.b.ins().fsub(three, tq);
            let qq = fx.b.ins().fmul(q, q);
            Ok(fx.b.ins().fmul(qq, k))
        }),
        "sign" => map_lanes(fx, ret, args, |fx, a| {
            // 1.0 for x > 0, -1.0 for x < 0, x itself for ±0, 0 for NaN.
            let x = a[0];
            let zero = fconst(fx, t, 0.0);
            let one = fconst(fx, t, 1.0);
            let signed_one = fx.b.ins().fcopysign(one, x);
            let is_zero = fx.b.ins().fcmp(FloatCC::Equal, x, zero);
            let is_nan = fx.b.ins().fcmp(FloatCC::Unordered, x, x);
            let r = fx.b.ins().select(is_zero, x, signed_one);
            Ok(fx.b.ins().select(is_nan, zero, r))
        }),
        _ => return None,
    };
    Some(r)
}
