//! Atomic functions: the OpenCL C 1.x `atomic_*`/`atom_*` on 32-bit and
//! 64-bit integers (and `atomic_xchg` on `float`), and the C11-style
//! functions of OpenCL C 2.0 (spec 6.15.12): `atomic_init`,
//! `atomic_load`/`store`/`exchange`/`compare_exchange_*`/`fetch_*`
//! (`_explicit` forms included) and `atomic_flag_*`.
//!
//! An operation on global memory is one Cranelift atomic instruction
//! (`atomic_rmw`, `atomic_cas`, `atomic_load`, `atomic_store`), which are
//! sequentially consistent: stronger than any memory order or scope a
//! kernel can ask for, so those arguments are ignored (a work-group-scope
//! atomic used by several groups keeps every update). An operation on an
//! object only the work-items of its own work-group can reach — `local` or
//! `private` — is a plain load, the operation and a plain store
//! ([`Reach`]): a work-group
//! runs on one host thread, its work-items one after another (between
//! barriers, or resumed as coroutines on that thread), so no other
//! work-item of the group can come between the load and the store, and
//! program order on that thread keeps every memory order among them. Through
//! a generic pointer, the address is tested against the group's local arena
//! at run time. A locked x86-64 instruction costs some twenty cycles even
//! uncontended, the plain form a few. Floating-point objects are accessed
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
    let reach = reach(arg_tys);
    if name.starts_with("atomic_flag_") {
        if name.contains("test_and_set") {
            let one = fx.b.ins().iconst(types::I32, 1);
            let old = read_modify_write(fx, reach, types::I32, AtomicRmwOp::Xchg, p, one);
            let set = fx.b.ins().icmp_imm_s(IntCC::NotEqual, old, 0);
            return Ok(CValue::Scalar(set));
        }
        let zero = fx.b.ins().iconst(types::I32, 0);
        store(fx, reach, zero, p);
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
        let old = read_modify_write(fx, reach, it, op, p, x);
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
            let old = read_modify_write(fx, reach, it, op, p, one);
            back(fx, old)
        }
        "cmpxchg" => {
            let cmp = int_arg(fx, 1)?;
            let val = int_arg(fx, 2)?;
            let old = cas(fx, reach, it, p, cmp, val);
            back(fx, old)
        }
        "init" | "store" => {
            let x = int_arg(fx, 1)?;
            store(fx, reach, x, p);
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
            let old = cas(fx, reach, it, p, expected, desired);
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

/// How far the operation must be indivisible (see the module comment).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reach {
    /// Only within its work-group: its object is `local` or `private`, which
    /// only the group's work-items can reach (they run one after another on
    /// one host thread).
    Group,
    /// Past the work-group: global memory, whatever scope the operation
    /// names (a `memory_scope_work_group` atomic on global memory used by
    /// several groups is a data race by the memory model, but it keeps
    /// every update here, as GPUs do).
    Shared,
    /// A generic pointer: [`Reach::Group`] when it points into the group's
    /// local arena at run time, else [`Reach::Shared`].
    Generic,
}

fn reach(arg_tys: &[Type]) -> Reach {
    match arg_tys.first().and_then(Type::pointee).map(|p| p.space) {
        Some(AddrSpace::Local | AddrSpace::Private) => Reach::Group,
        Some(AddrSpace::Generic) => Reach::Generic,
        _ => Reach::Shared,
    }
}

/// The operation `emit` (plain when its flag is true) for `reach`; with
/// [`Reach::Generic`], both forms, chosen by whether `p` is in the group's
/// local arena, their results (of type `ty`) joined.
fn by_reach(
    fx: &mut FunctionCx<'_, '_>,
    reach: Reach,
    p: Value,
    ty: Option<types::Type>,
    emit: impl Fn(&mut FunctionCx<'_, '_>, bool) -> Option<Value>,
) -> Option<Value> {
    match reach {
        Reach::Group => return emit(fx, true),
        Reach::Shared => return emit(fx, false),
        Reach::Generic => {}
    }
    let (lo, hi) = fx.local_range();
    let above = fx.b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, p, lo);
    let below = fx.b.ins().icmp(IntCC::UnsignedLessThan, p, hi);
    let local = fx.b.ins().band(above, below);
    let (plain, locked, done) = (
        fx.b.create_block(),
        fx.b.create_block(),
        fx.b.create_block(),
    );
    if let Some(t) = ty {
        fx.b.append_block_param(done, t);
    }
    fx.b.ins().brif(local, plain, &[], locked, &[]);
    fx.terminated();
    for (block, group) in [(plain, true), (locked, false)] {
        fx.enter(block);
        let v = emit(fx, group);
        let args: Vec<_> = v.into_iter().map(Into::into).collect();
        fx.b.ins().jump(done, &args);
        fx.terminated();
    }
    fx.enter(done);
    fx.b.block_params(done).first().copied()
}

/// Read-modify-write of the `it` at `p` with `x`; the old value.
fn read_modify_write(
    fx: &mut FunctionCx<'_, '_>,
    reach: Reach,
    it: types::Type,
    op: AtomicRmwOp,
    p: Value,
    x: Value,
) -> Value {
    let f = |fx: &mut FunctionCx<'_, '_>, g| Some(read_modify_write_as(fx, g, it, op, p, x));
    by_reach(fx, reach, p, Some(it), f).expect("a value")
}

/// Compare-and-swap of the `it` at `p`: `desired` replaces it when it
/// equals `expected`; the old value.
fn cas(
    fx: &mut FunctionCx<'_, '_>,
    reach: Reach,
    it: types::Type,
    p: Value,
    expected: Value,
    desired: Value,
) -> Value {
    let f = |fx: &mut FunctionCx<'_, '_>, g| Some(cas_as(fx, g, it, p, expected, desired));
    by_reach(fx, reach, p, Some(it), f).expect("a value")
}

/// Store `x` at `p`.
fn store(fx: &mut FunctionCx<'_, '_>, reach: Reach, x: Value, p: Value) {
    by_reach(fx, reach, p, None, |fx, g| {
        store_as(fx, g, x, p);
        None
    });
}

/// Read-modify-write of the `it` at `p` with `x`, plain when `group`; the
/// old value.
fn read_modify_write_as(
    fx: &mut FunctionCx<'_, '_>,
    group: bool,
    it: types::Type,
    op: AtomicRmwOp,
    p: Value,
    x: Value,
) -> Value {
    if !group {
        return fx.b.ins().atomic_rmw(it, mem(), op, p, x);
    }
    let old = fx.b.ins().load(it, mem(), p, 0);
    let new = match op {
        AtomicRmwOp::Xchg => x,
        AtomicRmwOp::Add => fx.b.ins().iadd(old, x),
        AtomicRmwOp::Sub => fx.b.ins().isub(old, x),
        AtomicRmwOp::And => fx.b.ins().band(old, x),
        AtomicRmwOp::Or => fx.b.ins().bor(old, x),
        AtomicRmwOp::Xor => fx.b.ins().bxor(old, x),
        AtomicRmwOp::Nand => {
            let a = fx.b.ins().band(old, x);
            fx.b.ins().bnot(a)
        }
        AtomicRmwOp::Smin | AtomicRmwOp::Umin | AtomicRmwOp::Smax | AtomicRmwOp::Umax => {
            let cc = match op {
                AtomicRmwOp::Smin => IntCC::SignedLessThan,
                AtomicRmwOp::Umin => IntCC::UnsignedLessThan,
                AtomicRmwOp::Smax => IntCC::SignedGreaterThan,
                _ => IntCC::UnsignedGreaterThan,
            };
            let keep = fx.b.ins().icmp(cc, old, x);
            fx.b.ins().select(keep, old, x)
        }
    };
    fx.b.ins().store(mem(), new, p, 0);
    old
}

/// Compare-and-swap of the `it` at `p`, plain when `group`: `desired`
/// replaces it when it equals `expected`; the old value.
fn cas_as(
    fx: &mut FunctionCx<'_, '_>,
    group: bool,
    it: types::Type,
    p: Value,
    expected: Value,
    desired: Value,
) -> Value {
    if !group {
        return fx.b.ins().atomic_cas(mem(), p, expected, desired);
    }
    let old = fx.b.ins().load(it, mem(), p, 0);
    let equal = fx.b.ins().icmp(IntCC::Equal, old, expected);
    let new = fx.b.ins().select(equal, desired, old);
    fx.b.ins().store(mem(), new, p, 0);
    old
}

/// Store `x` at `p`, plain when `group`.
fn store_as(fx: &mut FunctionCx<'_, '_>, group: bool, x: Value, p: Value) {
    if group {
        fx.b.ins().store(mem(), x, p, 0);
    } else {
        fx.b.ins().atomic_store(mem(), x, p);
    }
}
