//! A buffer the system cannot allocate fails with
//! `CL_MEM_OBJECT_ALLOCATION_FAILURE`, without aborting the process.
//!
//! Alone in its own test binary: it lowers the process's address-space limit
//! (`RLIMIT_AS`), which would disturb tests running beside it.

mod common;

use common::*;

#[repr(C)]
struct Rlimit {
    cur: u64,
    max: u64,
}

extern "C" {
    fn getrlimit(resource: i32, rlim: *mut Rlimit) -> i32;
    fn setrlimit(resource: i32, rlim: *const Rlimit) -> i32;
}

/// `RLIMIT_AS` on Linux.
const RLIMIT_AS: i32 = 9;

/// The process's current virtual size in bytes (`VmSize` in /proc).
fn vm_size() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("procfs");
    let line = status
        .lines()
        .find(|l| l.starts_with("VmSize:"))
        .expect("VmSize line");
    let kib: u64 = line
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .expect("VmSize value");
    kib * 1024
}

#[test]
fn allocation_beyond_the_address_space_limit_fails_cleanly() {
    let ctx = context();
    let mut max: cl_ulong = 0;
    // SAFETY: a cl_ulong answer.
    let rc = unsafe {
        clGetDeviceInfo(
            device(),
            CL_DEVICE_MAX_MEM_ALLOC_SIZE,
            8,
            &mut max as *mut _ as *mut c_void,
            ptr::null_mut(),
        )
    };
    assert_eq!(rc, CL_SUCCESS);
    let size = max.min(1 << 30) as usize;
    let mut old = Rlimit { cur: 0, max: 0 };
    // SAFETY: valid out-pointer.
    assert_eq!(unsafe { getrlimit(RLIMIT_AS, &mut old) }, 0);
    let limit = Rlimit {
        cur: vm_size() + size as u64 / 2,
        max: old.max,
    };
    // SAFETY: lowering our own soft limit.
    assert_eq!(unsafe { setrlimit(RLIMIT_AS, &limit) }, 0);
    let mut code = 0;
    // SAFETY: plain call.
    let m = unsafe { clCreateBuffer(ctx, 0, size, ptr::null_mut(), &mut code) };
    // SAFETY: restoring the limit we read.
    assert_eq!(unsafe { setrlimit(RLIMIT_AS, &old) }, 0);
    assert!(m.is_null());
    assert_eq!(code, CL_MEM_OBJECT_ALLOCATION_FAILURE);
    // The same size succeeds once the limit is lifted.
    // SAFETY: plain calls.
    let m = unsafe { clCreateBuffer(ctx, 0, size, ptr::null_mut(), &mut code) };
    assert_eq!(code, CL_SUCCESS);
    // SAFETY: plain call.
    assert_eq!(unsafe { clReleaseMemObject(m) }, CL_SUCCESS);
    release_context(ctx);
}
