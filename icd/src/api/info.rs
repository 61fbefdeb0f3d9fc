//! The one writer for every `clGet*Info`: the `param_value_size` /
//! `param_value` / `param_value_size_ret` protocol.
//!
//! The spec's rule, the same for all of them: if `param_value` is not NULL and
//! `param_value_size` is smaller than the answer, return `CL_INVALID_VALUE`;
//! otherwise copy the answer; if `param_value_size_ret` is not NULL, store the
//! answer's size there.

use crate::error::{err, CLResult};
use opencl_sys::CL_INVALID_VALUE;
use std::ffi::c_void;

pub struct InfoOut {
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
}

impl InfoOut {
    pub fn new(size: usize, value: *mut c_void, size_ret: *mut usize) -> Self {
        InfoOut {
            size,
            value,
            size_ret,
        }
    }

    /// Write raw bytes as the answer.
    pub fn bytes(&self, bytes: &[u8]) -> CLResult<()> {
        if !self.value.is_null() {
            if self.size < bytes.len() {
                return err(
                    CL_INVALID_VALUE,
                    format!("param_value_size {} < {} needed", self.size, bytes.len()),
                );
            }
            // SAFETY: the caller gave `size` writable bytes at `value`, and we
            // checked `bytes.len() <= size`.
            unsafe {
                std::ptr::copy_nonoverlapping(bytes.as_ptr(), self.value as *mut u8, bytes.len())
            };
        }
        if !self.size_ret.is_null() {
            // SAFETY: a non-NULL `param_value_size_ret` points at a `size_t`.
            unsafe { self.size_ret.write(bytes.len()) };
        }
        Ok(())
    }

    /// A plain value (`cl_uint`, `cl_ulong`, a handle, a bitfield ...).
    pub fn value<T: Copy>(&self, v: T) -> CLResult<()> {
        self.slice(std::slice::from_ref(&v))
    }

    /// An array of plain values.
    pub fn slice<T: Copy>(&self, v: &[T]) -> CLResult<()> {
        // SAFETY: `T: Copy` values are plain data; viewing them as bytes for a
        // copy is sound (padding bytes, if any, are copied, never interpreted).
        let bytes = unsafe {
            std::slice::from_raw_parts(v.as_ptr() as *const u8, std::mem::size_of_val(v))
        };
        self.bytes(bytes)
    }

    /// A NUL-terminated string.
    pub fn string(&self, s: &str) -> CLResult<()> {
        let mut b = Vec::with_capacity(s.len() + 1);
        b.extend_from_slice(s.as_bytes());
        b.push(0);
        self.bytes(&b)
    }

    /// A `cl_bool`.
    pub fn boolean(&self, b: bool) -> CLResult<()> {
        self.value::<opencl_sys::cl_bool>(b as opencl_sys::cl_bool)
    }
}
