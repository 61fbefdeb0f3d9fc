//! The C ABI boundary: every `extern "C"` entry point runs its body through
//! [`api_call`] or [`api_create`], which turn a `CLResult` into the `cl_int` (or
//! handle plus `errcode_ret`) the caller sees, and stop any panic from crossing
//! into C: a panic becomes `CL_OUT_OF_HOST_MEMORY` with a message on stderr
//! (a bug of ours, reported, never an abort of the user's process).

use crate::error::{CLResult, ClError};
use opencl_sys::{cl_int, CL_OUT_OF_HOST_MEMORY, CL_SUCCESS};
use std::panic::{catch_unwind, AssertUnwindSafe};

fn run<T>(f: impl FnOnce() -> CLResult<T>) -> CLResult<T> {
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
