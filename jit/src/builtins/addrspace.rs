//! The address-space functions of the generic address space (spec
//! 6.15.13): `to_global`, `to_local`, `to_private` and `get_fence`.
//!
//! Every pointer is a host address, so a generic pointer is classified by
//! range: the current work-group's local arena (`fx.local_range()`), the
//! current work-item's private memory (`fx.private_ranges()`: its stack and
//! its frame arena), and global memory for everything else. A conversion to
//! the wrong space gives NULL; `get_fence` answers `CLK_LOCAL_MEM_FENCE` for
//! local addresses and `CLK_GLOBAL_MEM_FENCE` otherwise.

use crate::codegen::{CValue, FunctionCx};
use crate::sema::builtins::BuiltinFn;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, InstBuilder, Value};

/// `CLK_LOCAL_MEM_FENCE` and `CLK_GLOBAL_MEM_FENCE` (as sema declares them).
const LOCAL_FENCE: i64 = 1;
const GLOBAL_FENCE: i64 = 2;

pub(super) fn emit(
    fx: &mut FunctionCx<'_, '_>,
    f: &BuiltinFn,
    args: &[CValue],
) -> Option<Result<CValue, String>> {
    let p = match args.first().map(CValue::scalar) {
        Some(Ok(p)) => p,
        Some(Err(e)) => return Some(Err(e)),
        None => return None,
    };
    let zero = fx.b.ins().iconst(types::I64, 0);
    let r = match f.name.as_str() {
        "to_local" => {
            let l = is_local(fx, p);
            fx.b.ins().select(l, p, zero)
        }
        "to_private" => {
            let pr = is_private(fx, p);
            fx.b.ins().select(pr, p, zero)
        }
        "to_global" => {
            let l = is_local(fx, p);
            let pr = is_private(fx, p);
            let other = fx.b.ins().bor(l, pr);
            fx.b.ins().select(other, zero, p)
        }
        "get_fence" => {
            let l = is_local(fx, p);
            let lf = fx.b.ins().iconst(types::I32, LOCAL_FENCE);
            let gf = fx.b.ins().iconst(types::I32, GLOBAL_FENCE);
            fx.b.ins().select(l, lf, gf)
        }
        _ => return None,
    };
    Some(Ok(CValue::Scalar(r)))
}

fn in_range(fx: &mut FunctionCx<'_, '_>, p: Value, (lo, hi): (Value, Value)) -> Value {
    let a = fx.b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, p, lo);
    let b = fx.b.ins().icmp(IntCC::UnsignedLessThan, p, hi);
    fx.b.ins().band(a, b)
}

fn is_local(fx: &mut FunctionCx<'_, '_>, p: Value) -> Value {
    let r = fx.local_range();
    in_range(fx, p, r)
}

fn is_private(fx: &mut FunctionCx<'_, '_>, p: Value) -> Value {
    let [r0, r1] = fx.private_ranges();
    let a = in_range(fx, p, r0);
    let b = in_range(fx, p, r1);
    fx.b.ins().bor(a, b)
}
