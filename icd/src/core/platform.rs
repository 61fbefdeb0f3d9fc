//! The one platform cranecl exposes, and the process-wide clock its events and
//! host timer read.

use super::handle::Obj;
use opencl_sys::*;
use std::sync::{Arc, OnceLock};
use std::time::Instant;

pub struct Platform;
crate::cl_object!(Platform, cl_platform_id, CL_INVALID_PLATFORM, "platform");

pub const NAME: &str = "cranecl";
pub const VENDOR: &str = "The cranecl project";
pub const PROFILE: &str = "FULL_PROFILE";
pub const VERSION_STRING: &str = concat!("OpenCL 3.0 cranecl ", env!("CARGO_PKG_VERSION"));
pub const ICD_SUFFIX: &str = "CRANECL";

/// The platform object (created on first use; never released).
pub fn platform() -> &'static Arc<Obj<Platform>> {
    static PLATFORM: OnceLock<Arc<Obj<Platform>>> = OnceLock::new();
    PLATFORM.get_or_init(|| Obj::new(Platform))
}

/// Nanoseconds on the host clock shared by profiling timestamps and
/// `clGetHostTimer` / `clGetDeviceAndHostTimer` (monotonic, from first use).
pub fn now_ns() -> u64 {
    static START: OnceLock<Instant> = OnceLock::new();
    // Start at a non-zero value so a 0 timestamp always means "not recorded".
    START.get_or_init(Instant::now).elapsed().as_nanos() as u64 + 1
}
