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
use crate::runtime::check::{self as check, SYNC_LOAD, SYNC_RMW, SYNC_STORE};
use crate::sema::addrspace::AddrSpace;
use crate::sema::builtins::BuiltinFn;
use crate::sema::types::{Scalar, Type};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, AtomicRmwOp, InstBuilder, Value};

/// Checked `races`: a C11 atomic operation on memory that may be global
/// tells the runtime what it read and wrote, with its memory order
/// (`runtime::check::cranecl_check_sync`), so that release/acquire between
/// work-groups orders their accesses.
struct Sync<'a> {
    explicit: bool,
    args: &'a [CValue],
}

impl<'a> Sync<'a> {
    fn new(
        fx: &FunctionCx<'_, '_>,
        name: &str,
        arg_tys: &[Type],
        args: &'a [CValue],
    ) -> Option<Sync<'a>> {
        let global = arg_tys
            .first()
            .and_then(|t| t.pointee())
            .is_some_and(|p| matches!(p.space, AddrSpace::Global | AddrSpace::Generic));
        // The C11 functions (the 1.x `atomic_add`... are relaxed).
        let base = name.strip_suffix("_explicit").unwrap_or(name);
        let c11 = matches!(base, "atomic_store" | "atomic_load" | "atomic_exchange")
            || base.starts_with("atomic_fetch_")
            || base.starts_with("atomic_compare_exchange_");
        (fx.pcx.check.races && global && c11).then(|| Sync {
            explicit: name.ends_with("_explicit"),
            args,
        })
    }

    /// The call after the operation at `p`: its order is argument
    /// `order_arg` of an `_explicit` form (else `seq_cst`).
    fn note(
        &self,
        fx: &mut FunctionCx<'_, '_>,
        p: Value,
        order_arg: usize,
        kind: u64,
        old: Value,
        new: Value,
    ) {
        let wide = |fx: &mut FunctionCx<'_, '_>, v: Value| {
            if fx.b.func.dfg.value_type(v) == types::I64 {
                v
            } else {
                fx.b.ins().uextend(types::I64, v)
            }
        };
        let order = match self.args.get(order_arg).map(CValue::scalar) {
            Some(Ok(o)) if self.explicit => wide(fx, o),
            _ => fx.b.ins().iconst(types::I64, 5),
        };
        let kind = fx.b.ins().iconst(types::I64, kind as i64);
        let (old, new) = (wide(fx, old), wide(fx, new));
        let item = fx.item;
        fx.call_host(
            check::cranecl_check_sync as *const u8,
            &[types::I64; 6],
            &[types::I64],
            &[item, p, order, kind, old, new],
        );
    }
}

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
    let sync = Sync::new(fx, name, arg_tys, args);
    let op = base.strip_prefix("fetch_").unwrap_or(base);
    if let Some(op) = rmw(op) {
        let x = int_arg(fx, 1)?;
        let old = fx.b.ins().atomic_rmw(it, mem(), op, p, x);
        if let Some(sync) = &sync {
            let new = match op {
                AtomicRmwOp::Add => fx.b.ins().iadd(old, x),
                AtomicRmwOp::Sub => fx.b.ins().isub(old, x),
                AtomicRmwOp::And => fx.b.ins().band(old, x),
                AtomicRmwOp::Or => fx.b.ins().bor(old, x),
                AtomicRmwOp::Xor => fx.b.ins().bxor(old, x),
                AtomicRmwOp::Smin => fx.b.ins().smin(old, x),
                AtomicRmwOp::Smax => fx.b.ins().smax(old, x),
                AtomicRmwOp::Umin => fx.b.ins().umin(old, x),
                AtomicRmwOp::Umax => fx.b.ins().umax(old, x),
                _ => x,
            };
            sync.note(fx, p, 2, SYNC_RMW, old, new);
        }
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
            if let (true, Some(sync)) = (base == "store", &sync) {
                sync.note(fx, p, 2, SYNC_STORE, x, x);
            }
            CValue::Void
        }
        "load" => {
            let v = fx.b.ins().atomic_load(it, mem(), p);
            if let Some(sync) = &sync {
                sync.note(fx, p, 1, SYNC_LOAD, v, v);
            }
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
            if let Some(sync) = &sync {
                // The success order (a failed exchange only reads).
                let new = fx.b.ins().select(ok, desired, old);
                sync.note(fx, p, 3, SYNC_RMW, old, new);
            }
            // On failure *expected receives the current value (on success
            // it already holds it).
            fx.b.ins().store(mem(), old, expected_ptr, 0);
            CValue::Scalar(ok)
        }
        _ => return Err(super::unsupported(f)),
    })
}
