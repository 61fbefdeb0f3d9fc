//! Helpers for the program, kernel and NDRange tests (rlib entry points):
//! create, build, compile and link programs, read their queries, and run a
//! kernel that writes ints.
#![allow(dead_code)]

use super::common::*;
use std::ffi::{c_char, CString};

/// A program from source strings.
pub fn source(ctx: cl_context, parts: &[&str]) -> cl_program {
    let owned: Vec<CString> = parts.iter().map(|s| CString::new(*s).unwrap()).collect();
    let ptrs: Vec<*const c_char> = owned.iter().map(|s| s.as_ptr()).collect();
    let mut rc = 0;
    // SAFETY: `ptrs` has parts.len() NUL-terminated strings.
    let p = unsafe {
        clCreateProgramWithSource(
            ctx,
            ptrs.len() as u32,
            ptrs.as_ptr() as *mut _,
            ptr::null(),
            &mut rc,
        )
    };
    assert_eq!(rc, CL_SUCCESS);
    p
}

/// `clBuildProgram` for all devices, waiting.
pub fn build(p: cl_program, options: &str) -> cl_int {
    let o = CString::new(options).unwrap();
    // SAFETY: valid strings; no callback.
    unsafe { clBuildProgram(p, 0, ptr::null(), o.as_ptr(), None, ptr::null_mut()) }
}

/// `clCompileProgram` with embedded headers `(program, include name)`.
pub fn compile(p: cl_program, options: &str, headers: &[(cl_program, &str)]) -> cl_int {
    let o = CString::new(options).unwrap();
    let progs: Vec<cl_program> = headers.iter().map(|h| h.0).collect();
    let names: Vec<CString> = headers.iter().map(|h| CString::new(h.1).unwrap()).collect();
    let name_ptrs: Vec<*const c_char> = names.iter().map(|n| n.as_ptr()).collect();
    let (hp, np) = if headers.is_empty() {
        (ptr::null(), ptr::null_mut())
    } else {
        (progs.as_ptr(), name_ptrs.as_ptr() as *mut _)
    };
    // SAFETY: arrays of headers.len() entries.
    unsafe {
        clCompileProgram(
            p,
            0,
            ptr::null(),
            o.as_ptr(),
            headers.len() as u32,
            hp,
            np,
            None,
            ptr::null_mut(),
        )
    }
}

/// `clLinkProgram`: the program and the error code.
pub fn link(ctx: cl_context, options: &str, inputs: &[cl_program]) -> (cl_program, cl_int) {
    let o = CString::new(options).unwrap();
    let mut rc = 0;
    // SAFETY: an array of inputs.len() programs.
    let p = unsafe {
        clLinkProgram(
            ctx,
            0,
            ptr::null(),
            o.as_ptr(),
            inputs.len() as u32,
            inputs.as_ptr(),
            None,
            ptr::null_mut(),
            &mut rc,
        )
    };
    (p, rc)
}

pub fn program_string(p: cl_program, param: cl_program_info) -> String {
    let mut size = 0usize;
    // SAFETY: size query, then a buffer of that size.
    unsafe {
        assert_eq!(
            clGetProgramInfo(p, param, 0, ptr::null_mut(), &mut size),
            CL_SUCCESS
        );
        let mut b = vec![0u8; size];
        assert_eq!(
            clGetProgramInfo(p, param, size, b.as_mut_ptr().cast(), ptr::null_mut()),
            CL_SUCCESS
        );
        String::from_utf8_lossy(&b[..size.saturating_sub(1)]).into_owned()
    }
}

fn build_string(p: cl_program, param: cl_program_build_info) -> String {
    let d = device();
    let mut size = 0usize;
    // SAFETY: size query, then a buffer of that size.
    unsafe {
        assert_eq!(
            clGetProgramBuildInfo(p, d, param, 0, ptr::null_mut(), &mut size),
            CL_SUCCESS
        );
        let mut b = vec![0u8; size];
        assert_eq!(
            clGetProgramBuildInfo(p, d, param, size, b.as_mut_ptr().cast(), ptr::null_mut()),
            CL_SUCCESS
        );
        String::from_utf8_lossy(&b[..size.saturating_sub(1)]).into_owned()
    }
}

pub fn build_log(p: cl_program) -> String {
    build_string(p, CL_PROGRAM_BUILD_LOG)
}
pub fn build_options(p: cl_program) -> String {
    build_string(p, CL_PROGRAM_BUILD_OPTIONS)
}

pub fn build_status(p: cl_program) -> cl_build_status {
    let mut s: cl_build_status = 0;
    // SAFETY: valid out-pointer.
    let rc = unsafe {
        clGetProgramBuildInfo(
            p,
            device(),
            CL_PROGRAM_BUILD_STATUS,
            4,
            (&mut s as *mut cl_build_status).cast(),
            ptr::null_mut(),
        )
    };
    assert_eq!(rc, CL_SUCCESS);
    s
}

pub fn binary_type(p: cl_program) -> cl_program_binary_type {
    let mut t: cl_program_binary_type = 0;
    // SAFETY: valid out-pointer.
    let rc = unsafe {
        clGetProgramBuildInfo(
            p,
            device(),
            CL_PROGRAM_BINARY_TYPE,
            4,
            (&mut t as *mut cl_program_binary_type).cast(),
            ptr::null_mut(),
        )
    };
    assert_eq!(rc, CL_SUCCESS);
    t
}

/// The program's binary for our one device.
pub fn program_binary(p: cl_program) -> Vec<u8> {
    let mut size = 0usize;
    // SAFETY: sizes, then one pointer to a buffer of that size.
    unsafe {
        assert_eq!(
            clGetProgramInfo(
                p,
                CL_PROGRAM_BINARY_SIZES,
                8,
                (&mut size as *mut usize).cast(),
                ptr::null_mut()
            ),
            CL_SUCCESS
        );
        let mut b = vec![0u8; size];
        let mut ptrs = [b.as_mut_ptr()];
        assert_eq!(
            clGetProgramInfo(
                p,
                CL_PROGRAM_BINARIES,
                8,
                ptrs.as_mut_ptr().cast(),
                ptr::null_mut()
            ),
            CL_SUCCESS
        );
        b
    }
}

/// `clCreateProgramWithBinary` for our device: (program, binary_status, rc).
pub fn from_binary(ctx: cl_context, bin: &[u8]) -> (cl_program, cl_int, cl_int) {
    let d = device();
    let lens = [bin.len()];
    let ptrs = [bin.as_ptr()];
    let mut st = 0;
    let mut rc = 0;
    // SAFETY: one binary of bin.len() bytes.
    let p = unsafe {
        clCreateProgramWithBinary(
            ctx,
            1,
            &d,
            lens.as_ptr(),
            ptrs.as_ptr() as *mut _,
            &mut st,
            &mut rc,
        )
    };
    (p, st, rc)
}

pub fn kernel(p: cl_program, name: &str) -> cl_kernel {
    let n = CString::new(name).unwrap();
    let mut rc = 0;
    // SAFETY: a valid name.
    let k = unsafe { clCreateKernel(p, n.as_ptr(), &mut rc) };
    assert_eq!(rc, CL_SUCCESS, "clCreateKernel({name})");
    k
}

pub fn buffer(ctx: cl_context, size: usize) -> cl_mem {
    let mut rc = 0;
    // SAFETY: no host pointer.
    let m = unsafe { clCreateBuffer(ctx, CL_MEM_READ_WRITE, size, ptr::null_mut(), &mut rc) };
    assert_eq!(rc, CL_SUCCESS);
    m
}

pub fn set_mem_arg(k: cl_kernel, i: u32, m: cl_mem) -> cl_int {
    // SAFETY: arg_value points at a cl_mem.
    unsafe {
        clSetKernelArg(
            k,
            i,
            std::mem::size_of::<cl_mem>(),
            (&m as *const cl_mem).cast(),
        )
    }
}

pub fn set_arg<T: Copy>(k: cl_kernel, i: u32, v: T) -> cl_int {
    // SAFETY: arg_value points at a T.
    unsafe { clSetKernelArg(k, i, std::mem::size_of::<T>(), (&v as *const T).cast()) }
}

pub fn enqueue(
    q: cl_command_queue,
    k: cl_kernel,
    global: &[usize],
    local: Option<&[usize]>,
) -> cl_int {
    let lp = local.map_or(ptr::null(), |l| l.as_ptr());
    // SAFETY: arrays of global.len() entries.
    unsafe {
        clEnqueueNDRangeKernel(
            q,
            k,
            global.len() as u32,
            ptr::null(),
            global.as_ptr(),
            lp,
            0,
            ptr::null(),
            ptr::null_mut(),
        )
    }
}

pub fn read<T: Copy + Default>(q: cl_command_queue, m: cl_mem, n: usize) -> Vec<T> {
    let mut v = vec![T::default(); n];
    // SAFETY: a blocking read into a buffer of n Ts.
    let rc = unsafe {
        clEnqueueReadBuffer(
            q,
            m,
            CL_TRUE,
            0,
            n * std::mem::size_of::<T>(),
            v.as_mut_ptr().cast(),
            0,
            ptr::null(),
            ptr::null_mut(),
        )
    };
    assert_eq!(rc, CL_SUCCESS);
    v
}

pub fn write<T: Copy>(q: cl_command_queue, m: cl_mem, v: &[T]) {
    // SAFETY: a blocking write of v.
    let rc = unsafe {
        clEnqueueWriteBuffer(
            q,
            m,
            CL_TRUE,
            0,
            std::mem::size_of_val(v),
            v.as_ptr().cast(),
            0,
            ptr::null(),
            ptr::null_mut(),
        )
    };
    assert_eq!(rc, CL_SUCCESS);
}

/// Run kernel `name(global int *out)` of `p` over `n` items; the ints it wrote.
pub fn run_int_kernel(
    ctx: cl_context,
    q: cl_command_queue,
    p: cl_program,
    name: &str,
    n: usize,
) -> Vec<i32> {
    let k = kernel(p, name);
    let m = buffer(ctx, n * 4);
    write(q, m, &vec![0i32; n]);
    assert_eq!(set_mem_arg(k, 0, m), CL_SUCCESS);
    assert_eq!(enqueue(q, k, &[n], None), CL_SUCCESS);
    let v = read(q, m, n);
    release_mem(m);
    release_kernel(k);
    v
}

pub fn release_mem(m: cl_mem) {
    // SAFETY: a handle we own.
    assert_eq!(unsafe { clReleaseMemObject(m) }, CL_SUCCESS);
}
pub fn release_kernel(k: cl_kernel) {
    // SAFETY: a handle we own.
    assert_eq!(unsafe { clReleaseKernel(k) }, CL_SUCCESS);
}
pub fn release_program(p: cl_program) {
    // SAFETY: a handle we own.
    assert_eq!(unsafe { clReleaseProgram(p) }, CL_SUCCESS);
}
