//! cl_khr_integer_dot_product: `dot` and `dot_acc_sat` of two 4-vectors of
//! 8-bit integers (`uchar4`/`char4` in each combination of signedness) and
//! the `_4x8packed_{uu,ss,us,su}` forms, whose four 8-bit components are the
//! bytes of a `uint`, component 0 in the low byte.
//!
//! Each component is widened to 32 bits (sign- or zero-extended by its
//! operand's signedness) and the four products summed: at most 4 × 255 × 255
//! in magnitude, so the sum is exact in 32 bits. `dot_acc_sat` adds the
//! accumulator in 64 bits and clamps to the result type's range (`uint` for
//! two unsigned operands, `int` otherwise). Scalar Cranelift instructions;
//! no SIMD dot-product instruction is used (the device reports no
//! acceleration).

use super::lanes;
use crate::codegen::{CValue, FunctionCx};
use crate::sema::builtins::BuiltinFn;
use crate::sema::types::{Scalar, Type};
use cranelift_codegen::ir::{types, InstBuilder, Value};

pub(super) fn emit(
    fx: &mut FunctionCx<'_, '_>,
    f: &BuiltinFn,
    args: &[CValue],
) -> Result<CValue, String> {
    let name = f.name.as_str();
    let packed = name.contains("4x8packed");
    // The signedness of each operand: from the vector types, or the
    // packed function's `uu`/`ss`/`us`/`su`.
    let (sa, sb) = if packed {
        let kind = ["_uu_", "_ss_", "_us_", "_su_"]
            .iter()
            .position(|k| name.contains(k))
            .ok_or_else(|| format!("internal: unknown dot product '{name}'"))?;
        [(false, false), (true, true), (false, true), (true, false)][kind]
    } else {
        let signed = |t: Option<&Type>| matches!(t.and_then(Type::elem), Some(Scalar::Char));
        (signed(f.params.first()), signed(f.params.get(1)))
    };
    let a = components(fx, args.first(), packed, sa)?;
    let b = components(fx, args.get(1), packed, sb)?;
    let mut sum = fx.b.ins().iconst(types::I32, 0);
    for (x, y) in a.iter().zip(&b) {
        let p = fx.b.ins().imul(*x, *y);
        sum = fx.b.ins().iadd(sum, p);
    }
    let unsigned = !sa && !sb;
    if !name.starts_with("dot_acc_sat") {
        return Ok(CValue::Scalar(sum));
    }
    let acc = args
        .get(2)
        .ok_or("internal: dot_acc_sat without accumulator")?
        .scalar()?;
    let (sum, acc) = if unsigned {
        (
            fx.b.ins().uextend(types::I64, sum),
            fx.b.ins().uextend(types::I64, acc),
        )
    } else {
        (
            fx.b.ins().sextend(types::I64, sum),
            fx.b.ins().sextend(types::I64, acc),
        )
    };
    let total = fx.b.ins().iadd(sum, acc);
    let (lo, hi) = if unsigned {
        (0, i64::from(u32::MAX))
    } else {
        (i64::from(i32::MIN), i64::from(i32::MAX))
    };
    let lo = fx.b.ins().iconst(types::I64, lo);
    let hi = fx.b.ins().iconst(types::I64, hi);
    let clamped = fx.b.ins().smax(total, lo);
    let clamped = fx.b.ins().smin(clamped, hi);
    Ok(CValue::Scalar(fx.b.ins().ireduce(types::I32, clamped)))
}

/// The four components of an operand as 32-bit integers.
fn components(
    fx: &mut FunctionCx<'_, '_>,
    v: Option<&CValue>,
    packed: bool,
    signed: bool,
) -> Result<Vec<Value>, String> {
    let v = v.ok_or("internal: dot product without an operand")?;
    if packed {
        let x = v.scalar()?;
        return Ok((0..4)
            .map(|k| {
                // Byte k to the top, then down with or without its sign.
                let up = fx.b.ins().ishl_imm_s(x, 24 - 8 * k);
                if signed {
                    fx.b.ins().sshr_imm_s(up, 24)
                } else {
                    fx.b.ins().ushr_imm_s(up, 24)
                }
            })
            .collect());
    }
    let l = lanes(v, 4)?;
    Ok(l.iter()
        .map(|&c| {
            if signed {
                fx.b.ins().sextend(types::I32, c)
            } else {
                fx.b.ins().uextend(types::I32, c)
            }
        })
        .collect())
}
