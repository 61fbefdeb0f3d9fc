//! Helpers for the memory-object tests (`mem.rs`, `mem_commands.rs`): thin
//! wrappers over the entry points that return the error code, a context and
//! queue that finish and release themselves, and a deterministic byte source.

#![allow(dead_code)]

use super::common::*;

/// `clCreateBuffer`, returning the handle and the error code.
pub fn create(
    ctx: cl_context,
    flags: cl_mem_flags,
    size: usize,
    host: *mut c_void,
) -> (cl_mem, cl_int) {
    let mut rc = 1;
    // SAFETY: the host pointer, if any, has `size` bytes (callers ensure it).
    let m = unsafe { clCreateBuffer(ctx, flags, size, host, &mut rc) };
    assert_eq!(m.is_null(), rc != CL_SUCCESS, "handle and code disagree");
    (m, rc)
}

pub fn buffer(ctx: cl_context, size: usize) -> cl_mem {
    let (m, rc) = create(ctx, CL_MEM_READ_WRITE, size, ptr::null_mut());
    assert_eq!(rc, CL_SUCCESS);
    m
}

pub fn release(m: cl_mem) {
    // SAFETY: plain call.
    assert_eq!(unsafe { clReleaseMemObject(m) }, CL_SUCCESS);
}

pub fn sub(m: cl_mem, flags: cl_mem_flags, origin: usize, size: usize) -> (cl_mem, cl_int) {
    let region = cl_buffer_region { origin, size };
    let mut rc = 1;
    // SAFETY: `region` is a cl_buffer_region.
    let s = unsafe {
        clCreateSubBuffer(
            m,
            flags,
            CL_BUFFER_CREATE_TYPE_REGION,
            &region as *const _ as *const c_void,
            &mut rc,
        )
    };
    (s, rc)
}

pub fn info<T: Copy + Default>(m: cl_mem, param: cl_mem_info) -> T {
    let mut v = T::default();
    let mut size = 0;
    // SAFETY: a T-sized answer into `v`.
    let rc = unsafe {
        clGetMemObjectInfo(
            m,
            param,
            std::mem::size_of::<T>(),
            &mut v as *mut T as *mut c_void,
            &mut size,
        )
    };
    assert_eq!(rc, CL_SUCCESS, "query {param:#x}");
    assert_eq!(size, std::mem::size_of::<T>());
    v
}

pub fn write(q: cl_command_queue, m: cl_mem, offset: usize, data: &[u8]) -> cl_int {
    // SAFETY: `data` is valid for the (blocking) call.
    unsafe {
        clEnqueueWriteBuffer(
            q,
            m,
            CL_TRUE,
            offset,
            data.len(),
            data.as_ptr() as *const c_void,
            0,
            ptr::null(),
            ptr::null_mut(),
        )
    }
}

pub fn read(q: cl_command_queue, m: cl_mem, offset: usize, out: &mut [u8]) -> cl_int {
    // SAFETY: `out` is valid for the (blocking) call.
    unsafe {
        clEnqueueReadBuffer(
            q,
            m,
            CL_TRUE,
            offset,
            out.len(),
            out.as_mut_ptr() as *mut c_void,
            0,
            ptr::null(),
            ptr::null_mut(),
        )
    }
}

pub fn read_all(q: cl_command_queue, m: cl_mem, size: usize) -> Vec<u8> {
    let mut v = vec![0u8; size];
    assert_eq!(read(q, m, 0, &mut v), CL_SUCCESS);
    v
}

pub fn copy(
    q: cl_command_queue,
    src: cl_mem,
    dst: cl_mem,
    so: usize,
    d: usize,
    n: usize,
) -> cl_int {
    // SAFETY: plain call.
    unsafe { clEnqueueCopyBuffer(q, src, dst, so, d, n, 0, ptr::null(), ptr::null_mut()) }
}

/// A deterministic byte pattern.
pub fn bytes(n: usize, seed: u32) -> Vec<u8> {
    let mut x = seed.wrapping_mul(2654435761).wrapping_add(12345);
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x as u8
        })
        .collect()
}

pub struct Env {
    pub ctx: cl_context,
    pub q: cl_command_queue,
}

impl Env {
    pub fn new() -> Env {
        let ctx = context();
        let q = queue(ctx, 0);
        Env { ctx, q }
    }
}

impl Drop for Env {
    fn drop(&mut self) {
        finish(self.q);
        release_queue(self.q);
        release_context(self.ctx);
    }
}

pub fn map(
    q: cl_command_queue,
    m: cl_mem,
    flags: cl_map_flags,
    offset: usize,
    size: usize,
) -> (*mut c_void, cl_int) {
    let mut rc = 1;
    // SAFETY: plain call.
    let p = unsafe {
        clEnqueueMapBuffer(
            q,
            m,
            CL_TRUE,
            flags,
            offset,
            size,
            0,
            ptr::null(),
            ptr::null_mut(),
            &mut rc,
        )
    };
    (p, rc)
}

pub fn unmap(q: cl_command_queue, m: cl_mem, p: *mut c_void) -> cl_int {
    // SAFETY: plain call.
    unsafe { clEnqueueUnmapMemObject(q, m, p, 0, ptr::null(), ptr::null_mut()) }
}
