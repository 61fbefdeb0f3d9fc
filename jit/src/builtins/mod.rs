//! The OpenCL C built-in library's implementations (the declarations and
//! overload resolution live in `sema::builtins`).
//!
//! Code generation calls [`emit_builtin`] for every built-in call it does not
//! handle itself (codegen owns the work-item functions, `barrier`,
//! `work_group_barrier` and the memory fences, because they depend on its
//! calling convention). The arguments arrive already converted to the
//! overload's parameter types (`BuiltinFn::params`; for `printf` the extra
//! arguments keep their own types, given in `arg_tys`). An emitter either
//! writes inline Cranelift IR through the [`FunctionCx`] (see
//! `codegen::value` for the value model: scalars and pointers are
//! `CValue::Scalar`, vectors `CValue::Lanes`, aggregates `CValue::Ref`) or
//! calls a Rust `extern "C"` function: register it by name in
//! [`host_symbols`] and call it with [`FunctionCx::call_import`], or call it
//! by address with [`FunctionCx::call_host`].
//!
//! This file is the hook; the library proper is written by the built-ins work.

use crate::codegen::{CValue, FunctionCx};
use crate::sema::builtins::BuiltinFn;
use crate::sema::types::Type;

/// Emit a call of the built-in overload `f`. An unsupported built-in is an
/// error value (it becomes a build failure), never a panic.
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
