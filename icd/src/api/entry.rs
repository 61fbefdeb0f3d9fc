//! The C ABI boundary: every `extern "C"` entry point runs its body through
//! [`api_call`] or [`api_create`], which turn a `CLResult` into the `cl_int` (or
//! handle plus `errcode_ret`) the caller sees, and stop any panic from crossing
//! into C: a panic becomes `CL_OUT_OF_HOST_MEMORY` with a message on stderr
//! (a bug of ours, reported, never an abort of the user's process).
//!
//! Two macros write the stubs that would otherwise be copied:
//! `info_entry_points!` for every `clGet*Info` (the info protocol's three
//! out-parameters and the [`InfoOut`](super::info::InfoOut) they make), and
//! `entry_family!` for entry points the spec gives one signature.

use crate::error::{CLResult, ClError};
use opencl_sys::{cl_int, CL_OUT_OF_HOST_MEMORY, CL_SUCCESS};
use std::panic::{catch_unwind, AssertUnwindSafe};

fn run<T>(f: impl FnOnce() -> CLResult<T>) -> CLResult<T> {
    let outer = crate::core::context::begin_call();
    let r = guarded(f);
    let first = crate::core::context::end_call(outer);
    if let Err(e) = &r {
        if !e.message.is_empty() {
            report(e, crate::core::context::call_context(first).as_deref());
        }
    }
    r
}

/// `CRANECL_LOG` (set and not `0`, read once): failed calls print their
/// error to stderr.
fn log_errors() -> bool {
    static LOG: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *LOG.get_or_init(|| std::env::var_os("CRANECL_LOG").is_some_and(|v| v != "0"))
}

/// A failed call's words: to the notify callback of the context of the
/// handles it was given (if it has one), and to stderr with `CRANECL_LOG`.
fn report(e: &ClError, ctx: Option<&crate::core::handle::Obj<crate::core::context::Context>>) {
    if e.message.is_empty() {
        return;
    }
    let text = format!("cranecl: error {}: {}", e.code, e.message);
    if log_errors() {
        eprintln!("{text}");
    }
    if let Some(ctx) = ctx {
        ctx.notify(&text);
    }
}

fn guarded<T>(f: impl FnOnce() -> CLResult<T>) -> CLResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            eprintln!("cranecl: internal error (please report): {what}");
            Err(ClError::new(
                CL_OUT_OF_HOST_MEMORY,
                format!("internal error: {what}"),
            ))
        }
    }
}

/// For entry points that return `cl_int`.
pub fn api_call(f: impl FnOnce() -> CLResult<()>) -> cl_int {
    match run(f) {
        Ok(()) => CL_SUCCESS,
        Err(e) => e.code,
    }
}

/// For entry points that return a handle (or pointer) and report through
/// `errcode_ret`: NULL and the error code on failure.
///
/// # Safety
/// `errcode_ret` is NULL or points at a writable `cl_int` (the caller's
/// promise to the OpenCL entry point, passed on unchanged).
pub unsafe fn api_create<H>(
    errcode_ret: *mut cl_int,
    null: H,
    f: impl FnOnce() -> CLResult<H>,
) -> H {
    let (h, code) = match run(f) {
        Ok(h) => (h, CL_SUCCESS),
        Err(e) => (null, e.code),
    };
    if !errcode_ret.is_null() {
        // SAFETY: a non-NULL `errcode_ret` points at a `cl_int` the caller owns
        // (the spec's contract for every function with this parameter).
        unsafe { errcode_ret.write(code) };
    }
    h
}

/// Entry points the spec gives one C signature: the signature is written
/// once, then each `name => body;` becomes
/// `#[no_mangle] pub unsafe extern "C" fn name(signature) -> ret { body }`.
/// For the families that differ only in name (the acquire/release commands
/// of the sharing extensions, marker and barrier), so that one change to the
/// shared body or signature reaches every member.
///
/// ```ignore
/// entry_family! {
///     (command_queue: cl_command_queue, event: *mut cl_event) -> cl_int;
///     clFirst => api_call(|| first(command_queue, event));
///     clSecond => api_call(|| second(command_queue, event));
/// }
/// ```
macro_rules! entry_family {
    ($params:tt -> $ret:ty; $($name:ident => $body:expr;)+) => {$(
        #[no_mangle]
        #[allow(unused_variables)]
        pub unsafe extern "C" fn $name $params -> $ret {
            $body
        }
    )+};
}
pub(crate) use entry_family;

/// The `clGet*Info` entry points: `fn clGetFooInfo(foo: cl_foo, param_name:
/// cl_foo_info) = foo_info;` becomes the C function with the three
/// out-parameters of the info protocol appended (`param_value_size`,
/// `param_value`, `param_value_size_ret`), whose body runs
/// `foo_info(foo, param_name, InfoOut)` through [`api_call`]. Every query
/// thus reaches the one writer, [`InfoOut`](super::info::InfoOut), the same way.
macro_rules! info_entry_points {
    ($(fn $name:ident($($arg:ident: $ty:ty),* $(,)?) = $imp:path;)+) => {$(
        #[no_mangle]
        pub unsafe extern "C" fn $name(
            $($arg: $ty,)*
            param_value_size: usize,
            param_value: *mut ::std::ffi::c_void,
            param_value_size_ret: *mut usize,
        ) -> ::opencl_sys::cl_int {
            $crate::api::entry::api_call(|| {
                let out = $crate::api::info::InfoOut::new(
                    param_value_size,
                    param_value,
                    param_value_size_ret,
                );
                $imp($($arg,)* out)
            })
        }
    )+};
}
pub(crate) use info_entry_points;
