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
//!   `fx.emit_barrier()`; `codegen::walk::is_barrier` lists such names so
//!   that their kernels are run with a barrier strategy (all `WorkGroup`
//!   family built-ins and `wait_group_events` already are). Scratch memory
//!   shared by the group for collectives is not provided yet: ask codegen.
//!
//! This file is the hook; the library proper is written by the built-ins work.

use crate::codegen::{CValue, FunctionCx};
use crate::sema::builtins::BuiltinFn;
use crate::sema::types::Type;

/// Emit a call of the built-in overload `f`. An unsupported built-in is an
/// error value (it becomes a build failure), never a panic; its message
/// contains "is not supported yet".
pub fn emit_builtin(
    fx: &mut FunctionCx<'_, '_>,
    f: &BuiltinFn,
    args: &[CValue],
    arg_tys: &[Type],
) -> Result<CValue, String> {
    let _ = (fx, args, arg_tys);
    Err(format!(
        "the built-in function '{}' is not supported yet",
        f.name
    ))
}

/// Host functions generated code may call by name (registered as JIT symbols).
pub fn host_symbols() -> Vec<(&'static str, *const u8)> {
    Vec::new()
}
