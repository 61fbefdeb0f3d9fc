//! One error type for the whole API layer: an OpenCL error code plus a message.
//!
//! Entry points return `CLResult<T>`; the C stub turns the error into the
//! `cl_int` the caller sees. The message is what a context's notify callback or a
//! build log gets; the code is what the spec says the call returns.

use opencl_sys::cl_int;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClError {
    pub code: cl_int,
    pub message: String,
}

pub type CLResult<T> = Result<T, ClError>;

impl ClError {
    pub fn new(code: cl_int, message: impl Into<String>) -> Self {
        ClError {
            code,
            message: message.into(),
        }
    }
}

impl From<cl_int> for ClError {
    fn from(code: cl_int) -> Self {
        ClError {
            code,
            message: String::new(),
        }
    }
}

impl fmt::Display for ClError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.message, self.code)
    }
}

/// `Err(ClError)` with a code and a message, for `return err(...)`.
pub fn err<T>(code: cl_int, message: impl Into<String>) -> CLResult<T> {
    Err(ClError::new(code, message))
}

/// `check(cond, code, msg)?`: fail with `code` unless `cond` holds.
pub fn check(cond: bool, code: cl_int, message: &str) -> CLResult<()> {
    if cond {
        Ok(())
    } else {
        err(code, message)
    }
}
