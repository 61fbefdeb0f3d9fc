//! What every API module needs in scope.

pub use super::entry::{api_call, api_create};
pub(crate) use super::entry::{entry_family, info_entry_points};
pub use super::info::{InfoOut, ListOut};
pub use crate::core::handle::Obj;
pub use crate::error::{check, err, CLResult, ClError};
pub use opencl_sys::cl_d3d10::*;
pub use opencl_sys::cl_d3d11::*;
pub use opencl_sys::cl_dx9_media_sharing::*;
pub use opencl_sys::cl_egl::*;
pub use opencl_sys::*;
pub use std::ffi::{c_char, c_void};
pub use std::ptr;
pub use std::sync::Arc;
#[allow(non_camel_case_types)]
pub type size_t = usize;
