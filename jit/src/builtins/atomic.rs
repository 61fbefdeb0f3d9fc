//! Atomic functions: the OpenCL C 1.x `atomic_*`/`atom_*` on 32-bit and
//! 64-bit integers (and `atomic_xchg` on `float`), and the C11-style
//! functions of OpenCL C 2.0 (spec 6.15.12): `atomic_init`,
//! `atomic_load`/`store`/`exchange`/`compare_exchange_*`/`fetch_*`
//! (`_explicit` forms included) and `atomic_flag_*`.
//!
//! Every operation is one Cranelift atomic instruction (`atomic_rmw`,
//! `atomic_cas`, `atomic_load`, `atomic_store`), which are sequentially
//! consistent: stronger than any memory order or scope a kernel can ask
//! for, so those arguments are ignored. Floating-point objects are accessed
//! as integers of the same size.

use super::{bitcast, clif, mem, pointee};
use crate::codegen::{CValue, FunctionCx};
use crate::sema::builtins::BuiltinFn;
use crate::sema::types::{Scalar, Type};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, AtomicRmwOp, InstBuilder, Value};

pub(super) fn emit(
    fx: &mut FunctionCx<'_, '_>,
    f: &BuiltinFn,
    args: &[CValue],
    arg_tys: &[Type],
) -> Option<Result<CValue, String>> {
    Some(emit_atomic(fx, f, args, arg_tys))
}

fn emit_atomic(
    fx: &mut FunctionCx<'_, '_>,
    f: &BuiltinFn,
    args: &[CValue],
    arg_tys: &[Type],
) -> Result<CValue, String> {
    let p = args
        .first()
        .ok_or("internal: atomic without object")?
        .scalar()?;
    // The overload's object type (the argument may point to a type that
    // merely converts to it).
    let obj = match f.params.first() {
        Some(t) if t.is_pointer() => pointee(t)?,
        _ => pointee(arg_tys.first().ok_or("internal: atomic without object")?)?,
    };
    // Checked mode: bounds only (atomics never race with atomics).
    let p = fx.checked_atomic(p, fx.size_of(obj).max(1));
    let name = f.name.as_str();
    if name.starts_with("atomic_flag_") {
        if name.contains("test_and_set") {
            let one = fx.b.ins().iconst(types::I32, 1);
            let old =
                fx.b.ins()
                    .atomic_rmw(types::I32, mem(), AtomicRmwOp::Xchg, p, one);
            let set = fx.b.ins().icmp_imm_s(IntCC::NotEqual, old, 0);
            return Ok(CValue::Scalar(set));
        }
        let zero = fx.b.ins().iconst(types::I32, 0);
        fx.b.ins().atomic_store(mem(), zero, p);
        return Ok(CValue::Void);
    }
    let s = match obj {
        Type::Scalar(s) | Type::Atomic(s) => *s,
        t => return Err(format!("internal: atomic object of type {t:?}")),
    };
    if !matches!(
        s,
        Scalar::Int | Scalar::UInt | Scalar::Long | Scalar::ULong | Scalar::Float | Scalar::Double
    ) {
        return Err(super::unsupported(f));
    }
    let vt = clif(s);
    let it = if vt.bits() == 64 {
        types::I64
    } else {
        types::I32
    };
    // The value operands as integers of the object's size.
    let int_arg = |fx: &mut FunctionCx<'_, '_>, i: usize| -> Result<Value, String> {
        let v = args
            .get(i)
            .ok_or("internal: missing atomic operand")?
            .scalar()?;
        Ok(bitcast(fx, it, v))
    };
    let back = |fx: &mut FunctionCx<'_, '_>, v: Value| CValue::Scalar(bitcast(fx, vt, v));
    let base = name
        .strip_suffix("_explicit")
        .unwrap_or(name)
        .trim_start_matches("atomic_")
        .trim_start_matches("atom_");
    let signed = s.is_signed();
    let rmw = |op: &str| -> Option<AtomicRmwOp> {
        Some(match op {
            "add" => AtomicRmwOp::Add,
            "sub" => AtomicRmwOp::Sub,
            "and" => AtomicRmwOp::And,
            "or" => AtomicRmwOp::Or,
            "xor" => AtomicRmwOp::Xor,
            "xchg" | "exchange" => AtomicRmwOp::Xchg,
            "min" if signed => AtomicRmwOp::Smin,
            "min" => AtomicRmwOp::Umin,
            "max" if signed => AtomicRmwOp::Smax,
            "max" => AtomicRmwOp::Umax,
            _ => return None,
        })
    };
    let op = base.strip_prefix("fetch_").unwrap_or(base);
    if let Some(op) = rmw(op) {
        let x = int_arg(fx, 1)?;
        let old = fx.b.ins().atomic_rmw(it, mem(), op, p, x);
        return Ok(back(fx, old));
    }
    Ok(match base {
        "inc" | "dec" => {
            let one = fx.b.ins().iconst(it, 1);
            let op = if base == "inc" {
                AtomicRmwOp::Add
            } else {
                AtomicRmwOp::Sub
            };
            let old = fx.b.ins().atomic_rmw(it, mem(), op, p, one);
            back(fx, old)
        }
        "cmpxchg" => {
            let cmp = int_arg(fx, 1)?;
            let val = int_arg(fx, 2)?;
            let old = fx.b.ins().atomic_cas(mem(), p, cmp, val);
            back(fx, old)
        }
        "init" | "store" => {
            let x = int_arg(fx, 1)?;
            fx.b.ins().atomic_store(mem(), x, p);
            CValue::Void
        }
        "load" => {
            let v = fx.b.ins().atomic_load(it, mem(), p);
            back(fx, v)
        }
        "compare_exchange_strong" | "compare_exchange_weak" => {
            let expected_ptr = args
                .get(1)
                .ok_or("internal: missing expected pointer")?
                .scalar()?;
            let expected = fx.b.ins().load(it, mem(), expected_ptr, 0);
            let desired = int_arg(fx, 2)?;
            let old = fx.b.ins().atomic_cas(mem(), p, expected, desired);
            let ok = fx.b.ins().icmp(IntCC::Equal, old, expected);
            // On failure *expected receives the current value (on success
            // it already holds it).
            fx.b.ins().store(mem(), old, expected_ptr, 0);
            CValue::Scalar(ok)
        }
        _ => return Err(super::unsupported(f)),
    })
}
