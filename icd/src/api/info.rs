//! The API's two output protocols, each written once.
//!
//! [`InfoOut`], the one writer for every `clGet*Info`: the
//! `param_value_size` / `param_value` / `param_value_size_ret` protocol. The
//! spec's rule, the same for all of them: if `param_value` is not NULL and
//! `param_value_size` is smaller than the answer, return `CL_INVALID_VALUE`;
//! otherwise copy the answer; if `param_value_size_ret` is not NULL, store the
//! answer's size there.
//!
//! [`ListOut`], for the calls that list platforms or devices
//! (`clGetPlatformIDs`, `clGetDeviceIDs` and the extensions' device lookups):
//! `num_entries` / an array / a count.

use crate::error::{check, err, CLResult};
use opencl_sys::{cl_uint, CL_INVALID_VALUE};
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

    /// The protocol around an answer of `needed` bytes: if `param_value` is
    /// not NULL, check its size and hand it to `write`, which must write at
    /// most `needed` bytes there; then store `needed` at
    /// `param_value_size_ret`. For answers that are not one contiguous value
    /// of ours (`CL_PROGRAM_BINARIES` fills the caller's buffers); the other
    /// writers all come through here.
    pub fn with(&self, needed: usize, write: impl FnOnce(*mut c_void)) -> CLResult<()> {
        if !self.value.is_null() {
            if self.size < needed {
                return err(
                    CL_INVALID_VALUE,
                    format!("param_value_size {} < {needed} needed", self.size),
                );
            }
            write(self.value);
        }
        if !self.size_ret.is_null() {
            // SAFETY: a non-NULL `param_value_size_ret` points at a `size_t`.
            unsafe { self.size_ret.write(needed) };
        }
        Ok(())
    }

    /// Write raw bytes as the answer.
    pub fn bytes(&self, bytes: &[u8]) -> CLResult<()> {
        self.with(bytes.len(), |value| {
            // SAFETY: the caller gave `size` writable bytes at `value`, and
            // `with` checked `bytes.len() <= size`.
            unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), value as *mut u8, bytes.len()) }
        })
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

/// The output of a listing call: room for `num_entries` handles at `list`,
/// and the count at `num_ret`.
pub struct ListOut<T> {
    list: *mut T,
    num_ret: *mut cl_uint,
}

impl<T> ListOut<T> {
    /// CL_INVALID_VALUE if num_entries is equal to zero and the list is not
    /// NULL, or if both the count and the list are NULL.
    pub fn new(num_entries: cl_uint, list: *mut T, num_ret: *mut cl_uint) -> CLResult<Self> {
        check(
            num_entries != 0 || list.is_null(),
            CL_INVALID_VALUE,
            "num_entries is 0",
        )?;
        check(
            !(list.is_null() && num_ret.is_null()),
            CL_INVALID_VALUE,
            "both outputs NULL",
        )?;
        Ok(ListOut { list, num_ret })
    }

    /// Answer a list of one: `item`.
    pub fn one(&self, item: T) {
        if !self.list.is_null() {
            // SAFETY: a non-NULL list has room for num_entries ≥ 1 handles
            // (`new` checked num_entries).
            unsafe { self.list.write(item) };
        }
        if !self.num_ret.is_null() {
            // SAFETY: a non-NULL count points at a cl_uint.
            unsafe { self.num_ret.write(1) };
        }
    }
}
