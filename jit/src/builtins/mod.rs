//! The OpenCL C built-in library's implementations (the declarations and
//! overload resolution live in `sema::builtins`).
//!
//! Code generation calls [`emit_builtin`] for every built-in call it does not
//! handle itself (codegen owns the work-item functions, `barrier`,
//! `work_group_barrier` and the memory fences, because they depend on its
//! calling convention). The interface:
//!
//! - Arguments arrive evaluated and already converted to the overload's
//!   parameter types (`BuiltinFn::params`) where those are arithmetic; for
//!   `printf`'s variadic part, and for pointer parameters, they keep the
//!   argument's own type, given in `arg_tys`. The result must have the type
//!   `BuiltinFn::ret`.
//! - Values (see `codegen::value`): scalars and pointers are
//!   `CValue::Scalar` (bool/char → i8, short/half → i16, int → i32,
//!   long/size_t/pointers → i64, float → f32, double → f64), vectors
//!   `CValue::Lanes` (one value per lane; 3-vectors have 3 lanes but occupy
//!   4 lanes' storage in memory), structs and arrays `CValue::Ref(address)`.
//!   `fx.b` is the Cranelift `FunctionBuilder`: emit inline IR with
//!   `fx.b.ins()`; helpers: `fx.iconst`, `fx.convert_scalar`,
//!   `fx.binop_scalar`, `fx.load`/`fx.store` (by OpenCL type), `fx.truth`.
//! - Host functions: a Rust `extern "C"` function can be called by address
//!   with [`FunctionCx::call_host`], or registered by name in
//!   [`host_symbols`] (a JIT symbol; `dlsym` cannot see inside an ICD loaded
//!   `RTLD_LOCAL`) and called with [`FunctionCx::call_import`].
//! - Address spaces: every pointer is a host address. `fx.local_range()`
//!   gives the current work-group's local arena, `fx.private_ranges()` the
//!   current work-item's private memory (two ranges); anything else is
//!   global (or constant). That is all `to_global`, `to_local`, `to_private`
//!   and `get_fence` need.
//! - Synchronisation: a built-in that makes the work-group wait
//!   (`wait_group_events`, work-group collectives) calls
//!   `fx.emit_barrier()`; `lower::walk::is_barrier` lists such names so
//!   that their kernels are run with a barrier strategy (all `WorkGroup`
//!   family built-ins and `wait_group_events` already are); the collectives
//!   keep their shared operands on the host (see `workgroup`).
//!
//! The library is split by family (one module each); every family works
//! lane by lane on the values above, with inline Cranelift IR where an
//! instruction has the spec's semantics and Rust host functions (registered
//! by name, see [`host_symbols`]) elsewhere.

mod addrspace;
mod async_copy;
mod atomic;
mod common;
mod convert;
mod dot_product;
mod geometric;
mod half;
pub mod host;
pub(crate) mod image;
pub(crate) mod integer;
pub(crate) mod math;
pub(crate) mod packed;
pub mod printf;
mod relational;
mod subgroup;
mod vload;
mod workgroup;

use crate::codegen::{CValue, FunctionCx};
use crate::sema::builtins::{BuiltinFn, Family};
use crate::sema::types::{Scalar, Type};
use cranelift_codegen::ir::{types, InstBuilder, MemFlagsData, Value};

/// Emit a call of the built-in overload `f`. An unsupported built-in is an
/// error value (it becomes a build failure), never a panic; its message
/// contains "is not supported yet".
pub fn emit_builtin(
    fx: &mut FunctionCx<'_, '_>,
    f: &BuiltinFn,
    args: &[CValue],
    arg_tys: &[Type],
) -> Result<CValue, String> {
    if half::applies(f) {
        return half::emit(fx, f, args, arg_tys);
    }
    let r = match f.family {
        Family::Math => math::emit(fx, f, args),
        Family::Integer if f.name.starts_with("dot") => Some(dot_product::emit(fx, f, args)),
        Family::Integer => integer::emit(fx, f, args),
        Family::Common => common::emit(fx, f, args),
        Family::Geometric => geometric::emit(fx, f, args),
        Family::Relational => relational::emit(fx, f, args),
        Family::Convert { sat, rounding } => convert::convert(fx, f, args, arg_tys, sat, rounding),
        Family::Reinterpret => convert::reinterpret(fx, f, args, arg_tys),
        Family::Shuffle => convert::shuffle(fx, f, args, arg_tys),
        Family::VectorLoadStore => vload::emit(fx, f, args, arg_tys),
        Family::Atomic | Family::AtomicC11 => atomic::emit(fx, f, args, arg_tys),
        Family::AsyncCopy => async_copy::emit(fx, f, args, arg_tys),
        Family::AddressSpace => addrspace::emit(fx, f, args),
        Family::Printf => printf::emit(fx, args, arg_tys),
        Family::WorkGroup => workgroup::emit(fx, f, args),
        Family::SubGroup => subgroup::emit(fx, f, args),
        Family::Image => image::emit(fx, f, args, arg_tys),
        _ => None,
    };
    r.unwrap_or_else(|| Err(unsupported(f)))
}

pub use subgroup::{enter_sub_group_call, leave_sub_group_call};

/// The error for a built-in (or an overload of one) with no implementation.
pub(crate) fn unsupported(f: &BuiltinFn) -> String {
    format!("the built-in function '{}' is not supported yet", f.name)
}

/// Host functions generated code may call by name (registered as JIT symbols).
pub fn host_symbols() -> Vec<(&'static str, *const u8)> {
    let mut v = host::symbols();
    v.extend(printf::symbols());
    v.extend(async_copy::symbols());
    v.extend(workgroup::symbols());
    v.extend(subgroup::symbols());
    v
}

/// The Cranelift type of a scalar (as `codegen::value` represents it).
pub(crate) fn clif(s: Scalar) -> types::Type {
    match s {
        Scalar::Bool | Scalar::Char | Scalar::UChar => types::I8,
        Scalar::Short | Scalar::UShort | Scalar::Half => types::I16,
        Scalar::Int | Scalar::UInt => types::I32,
        Scalar::Long | Scalar::ULong => types::I64,
        Scalar::Float => types::F32,
        Scalar::Double => types::F64,
    }
}

/// The Cranelift type of a scalar, pointer or vector element.
pub(crate) fn value_type(ty: &Type) -> Result<types::Type, String> {
    match ty {
        Type::Scalar(s) | Type::Vector(s, _) | Type::Atomic(s) => Ok(clif(*s)),
        Type::Pointer(_) | Type::Event => Ok(types::I64),
        Type::AtomicFlag | Type::Sampler => Ok(types::I32),
        t => Err(format!("internal: no register type for {t:?}")),
    }
}

/// Plain memory flags (no alignment or trap assumptions).
pub(crate) fn mem() -> MemFlagsData {
    MemFlagsData::new()
}

/// The element type of a scalar or vector type.
pub(crate) fn elem(ty: &Type) -> Result<Scalar, String> {
    match ty {
        Type::Scalar(s) | Type::Vector(s, _) => Ok(*s),
        t => Err(format!("internal: built-in on a non-arithmetic type {t:?}")),
    }
}

/// The lanes of `v`, a scalar splatted to `n` lanes.
pub(crate) fn lanes(v: &CValue, n: usize) -> Result<Vec<Value>, String> {
    let l = v.lanes()?;
    Ok(if l.len() == 1 && n > 1 {
        vec![l[0]; n]
    } else {
        l
    })
}

/// A result of type `ty` from its lanes.
pub(crate) fn result(ty: &Type, l: Vec<Value>) -> CValue {
    if ty.is_vector() {
        CValue::Lanes(l)
    } else {
        CValue::from_lanes(l)
    }
}

/// Apply `op` lane by lane to the arguments (scalar arguments splatted to
/// the result's width) and build a result of type `ret`.
pub(crate) fn map_lanes(
    fx: &mut FunctionCx<'_, '_>,
    ret: &Type,
    args: &[CValue],
    mut op: impl FnMut(&mut FunctionCx<'_, '_>, &[Value]) -> Result<Value, String>,
) -> Result<CValue, String> {
    let n = args
        .iter()
        .map(|a| a.lanes().map(|l| l.len()).unwrap_or(1))
        .max()
        .unwrap_or(1)
        .max(ret.width() as usize);
    let cols = args
        .iter()
        .map(|a| lanes(a, n))
        .collect::<Result<Vec<_>, _>>()?;
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let row: Vec<Value> = cols.iter().map(|c| c[i]).collect();
        out.push(op(fx, &row)?);
    }
    Ok(result(ret, out))
}

/// The pointee of a pointer type.
pub(crate) fn pointee(ty: &Type) -> Result<&Type, String> {
    ty.pointee()
        .map(|p| &p.ty)
        .ok_or_else(|| format!("internal: expected a pointer, found {ty:?}"))
}

/// Reinterpret the bits of `v` as type `t` (same size).
pub(crate) fn bitcast(fx: &mut FunctionCx<'_, '_>, t: types::Type, v: Value) -> Value {
    if fx.b.func.dfg.value_type(v) == t {
        v
    } else {
        fx.b.ins().bitcast(t, mem(), v)
    }
}

/// `c ? x : y` for a comparison result `c`: a scalar select, or for packed
/// (vector) values a bit select on the comparison's lane masks.
pub(crate) fn select_cmp(fx: &mut FunctionCx<'_, '_>, c: Value, x: Value, y: Value) -> Value {
    let t = fx.b.func.dfg.value_type(x);
    if !t.is_vector() {
        return fx.b.ins().select(c, x, y);
    }
    let c = if fx.b.func.dfg.value_type(c) == t {
        c
    } else {
        fx.b.ins().bitcast(t, MemFlagsData::new(), c)
    };
    fx.b.ins().bitselect(c, x, y)
}
