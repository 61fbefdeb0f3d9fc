//! Loading the ICD starts no thread and does no work: in a fresh process
//! (this file holds one test), `dlopen` of `libcranecl.so` and the calls a
//! loader makes at its start (`clIcdGetPlatformIDsKHR`, `clGetPlatformInfo`
//! for the extensions and suffix, `clGetDeviceIDs` for GPU, CPU and ALL)
//! leave the process's thread count unchanged, and each is quick.

use opencl_sys::*;
use std::ffi::c_void;
use std::time::{Duration, Instant};

fn threads() -> usize {
    std::fs::read_dir("/proc/self/task")
        .map(|d| d.count())
        .unwrap_or(0)
}

#[test]
fn loading_and_loader_startup_start_no_thread() {
    let so = cranecl_conformance::cranecl_so();
    let before = threads();
    assert!(before >= 1);
    let start = Instant::now();
    // SAFETY: loading the ICD runs only its initialisers (the point of the test).
    let lib = unsafe { libloading::Library::new(&so) }.expect("load libcranecl.so");
    type GetIds = unsafe extern "C" fn(cl_uint, *mut cl_platform_id, *mut cl_uint) -> cl_int;
    type PlatInfo = unsafe extern "C" fn(
        cl_platform_id,
        cl_platform_info,
        usize,
        *mut c_void,
        *mut usize,
    ) -> cl_int;
    type DevIds = unsafe extern "C" fn(
        cl_platform_id,
        cl_device_type,
        cl_uint,
        *mut cl_device_id,
        *mut cl_uint,
    ) -> cl_int;
    // SAFETY: the symbols have these C signatures (cl.h, cl_icd.h).
    let (ids, info, devs) = unsafe {
        (
            *lib.get::<GetIds>(b"clIcdGetPlatformIDsKHR\0")
                .expect("exported"),
            *lib.get::<PlatInfo>(b"clGetPlatformInfo\0")
                .expect("exported"),
            *lib.get::<DevIds>(b"clGetDeviceIDs\0").expect("exported"),
        )
    };
    let mut p: cl_platform_id = std::ptr::null_mut();
    let mut n: cl_uint = 0;
    let mut buf = [0u8; 4096];
    // SAFETY: valid out-pointers of the sizes given.
    unsafe {
        assert_eq!(ids(1, &mut p, &mut n), CL_SUCCESS);
        for q in [
            CL_PLATFORM_EXTENSIONS,
            CL_PLATFORM_ICD_SUFFIX_KHR,
            CL_PLATFORM_NAME,
        ] {
            assert_eq!(
                info(
                    p,
                    q,
                    buf.len(),
                    buf.as_mut_ptr().cast(),
                    std::ptr::null_mut()
                ),
                CL_SUCCESS
            );
        }
        let mut d: cl_device_id = std::ptr::null_mut();
        assert_eq!(
            devs(p, CL_DEVICE_TYPE_GPU, 1, &mut d, &mut n),
            CL_DEVICE_NOT_FOUND
        );
        assert_eq!(devs(p, CL_DEVICE_TYPE_CPU, 1, &mut d, &mut n), CL_SUCCESS);
        assert_eq!(devs(p, CL_DEVICE_TYPE_ALL, 1, &mut d, &mut n), CL_SUCCESS);
    }
    let elapsed = start.elapsed();
    assert_eq!(
        threads(),
        before,
        "threads before loading {before}, after the loader's start-up calls {}",
        threads()
    );
    assert!(
        elapsed < Duration::from_millis(500),
        "load and start-up calls took {elapsed:?}"
    );
    println!("load + start-up calls: {elapsed:?}, threads: {before}");
}
