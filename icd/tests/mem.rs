//! Memory objects and buffer commands through the `extern "C"` entry points:
//! creation errors for every flag combination, sub-buffers, info, destructor
//! callbacks, read/write/copy (linear and rect, checked byte by byte against a
//! host model), fills, map/unmap, copy overlap, and the lifetime of a buffer
//! released while a command still uses it.

mod common;

use common::*;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// `clCreateBuffer`, returning the handle and the error code.
fn create(
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

fn buffer(ctx: cl_context, size: usize) -> cl_mem {
    let (m, rc) = create(ctx, CL_MEM_READ_WRITE, size, ptr::null_mut());
    assert_eq!(rc, CL_SUCCESS);
    m
}

fn release(m: cl_mem) {
    // SAFETY: plain call.
    assert_eq!(unsafe { clReleaseMemObject(m) }, CL_SUCCESS);
}

fn sub(m: cl_mem, flags: cl_mem_flags, origin: usize, size: usize) -> (cl_mem, cl_int) {
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

fn info<T: Copy + Default>(m: cl_mem, param: cl_mem_info) -> T {
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

fn write(q: cl_command_queue, m: cl_mem, offset: usize, data: &[u8]) -> cl_int {
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

fn read(q: cl_command_queue, m: cl_mem, offset: usize, out: &mut [u8]) -> cl_int {
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

fn read_all(q: cl_command_queue, m: cl_mem, size: usize) -> Vec<u8> {
    let mut v = vec![0u8; size];
    assert_eq!(read(q, m, 0, &mut v), CL_SUCCESS);
    v
}

fn copy(q: cl_command_queue, src: cl_mem, dst: cl_mem, so: usize, d: usize, n: usize) -> cl_int {
    // SAFETY: plain call.
    unsafe { clEnqueueCopyBuffer(q, src, dst, so, d, n, 0, ptr::null(), ptr::null_mut()) }
}

/// A deterministic byte pattern.
fn bytes(n: usize, seed: u32) -> Vec<u8> {
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

struct Env {
    ctx: cl_context,
    q: cl_command_queue,
}

impl Env {
    fn new() -> Env {
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

const ACCESS: [cl_mem_flags; 3] = [CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY, CL_MEM_READ_ONLY];
const HOST_ACCESS: [cl_mem_flags; 3] = [
    CL_MEM_HOST_WRITE_ONLY,
    CL_MEM_HOST_READ_ONLY,
    CL_MEM_HOST_NO_ACCESS,
];
const ALL_FLAGS: [cl_mem_flags; 9] = [
    CL_MEM_READ_WRITE,
    CL_MEM_WRITE_ONLY,
    CL_MEM_READ_ONLY,
    CL_MEM_USE_HOST_PTR,
    CL_MEM_ALLOC_HOST_PTR,
    CL_MEM_COPY_HOST_PTR,
    CL_MEM_HOST_WRITE_ONLY,
    CL_MEM_HOST_READ_ONLY,
    CL_MEM_HOST_NO_ACCESS,
];

/// The memory-flags table of the spec, written out as its sentences.
fn flags_valid(f: cl_mem_flags) -> bool {
    let count = |set: &[cl_mem_flags]| set.iter().filter(|&&b| f & b != 0).count();
    count(&ACCESS) <= 1
        && !(f & CL_MEM_USE_HOST_PTR != 0 && f & CL_MEM_ALLOC_HOST_PTR != 0)
        && !(f & CL_MEM_USE_HOST_PTR != 0 && f & CL_MEM_COPY_HOST_PTR != 0)
        && count(&HOST_ACCESS) <= 1
}

#[test]
fn every_flag_combination_gives_the_specs_code() {
    let env = Env::new();
    let mut host = vec![7u8; 64];
    let mut seen = [0usize; 3];
    for combo in 0u32..(1 << ALL_FLAGS.len()) {
        let flags = ALL_FLAGS
            .iter()
            .enumerate()
            .filter(|(i, _)| combo & (1 << i) != 0)
            .fold(0, |acc, (_, &b)| acc | b);
        for with_ptr in [false, true] {
            let p = if with_ptr {
                host.as_mut_ptr() as *mut c_void
            } else {
                ptr::null_mut()
            };
            let wants_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR) != 0;
            let expected = if !flags_valid(flags) {
                CL_INVALID_VALUE
            } else if wants_ptr != with_ptr {
                CL_INVALID_HOST_PTR
            } else {
                CL_SUCCESS
            };
            let (m, rc) = create(env.ctx, flags, 64, p);
            assert_eq!(rc, expected, "flags {flags:#x} host_ptr {with_ptr}");
            seen[match expected {
                CL_SUCCESS => 0,
                CL_INVALID_VALUE => 1,
                _ => 2,
            }] += 1;
            if rc == CL_SUCCESS {
                assert_eq!(info::<cl_mem_flags>(m, CL_MEM_FLAGS), flags);
                let hp = info::<*mut c_void>(m, CL_MEM_HOST_PTR);
                let uses = flags & CL_MEM_USE_HOST_PTR != 0;
                assert_eq!(hp, if uses { p } else { ptr::null_mut() });
                release(m);
            }
        }
    }
    assert!(seen.iter().all(|&n| n > 0), "each outcome occurs: {seen:?}");
    // Bits outside the table, and KERNEL_READ_AND_WRITE (images only).
    for bad in [1 << 20, CL_MEM_KERNEL_READ_AND_WRITE, 1 << 63] {
        assert_eq!(
            create(env.ctx, bad, 64, ptr::null_mut()).1,
            CL_INVALID_VALUE
        );
    }
}

#[test]
fn creation_errors_come_in_the_specs_order() {
    let env = Env::new();
    let mut host = [0u8; 16];
    let hp = host.as_mut_ptr() as *mut c_void;
    let bad_flags = CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY;
    // CL_INVALID_CONTEXT first, whatever else is wrong.
    assert_eq!(
        create(ptr::null_mut(), bad_flags, 0, hp).1,
        CL_INVALID_CONTEXT
    );
    let not_a_context = env.q as cl_context;
    assert_eq!(
        create(not_a_context, 0, 16, ptr::null_mut()).1,
        CL_INVALID_CONTEXT
    );
    // Then the properties, before the flags.
    let props: [cl_mem_properties; 3] = [0x1234, 1, 0];
    let mut rc = 0;
    // SAFETY: a terminated properties list.
    let m =
        unsafe { clCreateBufferWithProperties(env.ctx, props.as_ptr(), bad_flags, 0, hp, &mut rc) };
    assert!(m.is_null());
    assert_eq!(rc, CL_INVALID_PROPERTY);
    // Then the flags, before the size.
    assert_eq!(create(env.ctx, bad_flags, 0, hp).1, CL_INVALID_VALUE);
    // Then the size, before the host pointer.
    assert_eq!(create(env.ctx, 0, 0, hp).1, CL_INVALID_BUFFER_SIZE);
    let max: cl_ulong = {
        let mut v: cl_ulong = 0;
        // SAFETY: a cl_ulong answer.
        let rc = unsafe {
            clGetDeviceInfo(
                device(),
                CL_DEVICE_MAX_MEM_ALLOC_SIZE,
                8,
                &mut v as *mut _ as *mut c_void,
                ptr::null_mut(),
            )
        };
        assert_eq!(rc, CL_SUCCESS);
        v
    };
    assert_eq!(
        create(env.ctx, 0, max as usize + 1, ptr::null_mut()).1,
        CL_INVALID_BUFFER_SIZE
    );
    assert_eq!(
        create(env.ctx, 0, usize::MAX, ptr::null_mut()).1,
        CL_INVALID_BUFFER_SIZE
    );
    assert_eq!(
        create(env.ctx, CL_MEM_USE_HOST_PTR, 16, ptr::null_mut()).1,
        CL_INVALID_HOST_PTR
    );
    // An empty properties list is valid and is given back by CL_MEM_PROPERTIES.
    let empty: [cl_mem_properties; 1] = [0];
    // SAFETY: a terminated (empty) list.
    let m = unsafe {
        clCreateBufferWithProperties(env.ctx, empty.as_ptr(), 0, 16, ptr::null_mut(), &mut rc)
    };
    assert_eq!(rc, CL_SUCCESS);
    let mut size = 99;
    // SAFETY: size query only.
    let rc = unsafe { clGetMemObjectInfo(m, CL_MEM_PROPERTIES, 0, ptr::null_mut(), &mut size) };
    assert_eq!((rc, size), (CL_SUCCESS, 8));
    release(m);
    let m = buffer(env.ctx, 16);
    // SAFETY: size query only.
    let rc = unsafe { clGetMemObjectInfo(m, CL_MEM_PROPERTIES, 0, ptr::null_mut(), &mut size) };
    assert_eq!(
        (rc, size),
        (CL_SUCCESS, 0),
        "no properties without the list"
    );
    release(m);
}

#[test]
fn host_pointer_flags_initialise_and_share_storage() {
    let env = Env::new();
    let data = bytes(1000, 1);
    let mut copy_src = data.clone();
    let (m, rc) = create(
        env.ctx,
        CL_MEM_COPY_HOST_PTR,
        1000,
        copy_src.as_mut_ptr() as _,
    );
    assert_eq!(rc, CL_SUCCESS);
    copy_src.fill(0); // COPY_HOST_PTR copied at creation
    assert_eq!(read_all(env.q, m, 1000), data);
    release(m);

    let (m, rc) = create(env.ctx, CL_MEM_ALLOC_HOST_PTR, 1000, ptr::null_mut());
    assert_eq!(rc, CL_SUCCESS);
    assert_eq!(read_all(env.q, m, 1000), vec![0; 1000], "zero-initialised");
    release(m);

    // USE_HOST_PTR: the buffer is the host memory itself.
    let mut host = data.clone();
    let (m, rc) = create(env.ctx, CL_MEM_USE_HOST_PTR, 1000, host.as_mut_ptr() as _);
    assert_eq!(rc, CL_SUCCESS);
    assert_eq!(write(env.q, m, 10, &[0xEE; 5]), CL_SUCCESS);
    finish(env.q);
    assert_eq!(&host[10..15], &[0xEE; 5]);
    let mut rc = 0;
    // SAFETY: blocking map of a valid region.
    let p = unsafe {
        clEnqueueMapBuffer(
            env.q,
            m,
            CL_TRUE,
            CL_MAP_READ,
            100,
            50,
            0,
            ptr::null(),
            ptr::null_mut(),
            &mut rc,
        )
    };
    assert_eq!(rc, CL_SUCCESS);
    assert_eq!(
        p as *mut u8,
        host.as_mut_ptr().wrapping_add(100),
        "derived from host_ptr"
    );
    // SAFETY: unmap of the pointer just mapped.
    let rc = unsafe { clEnqueueUnmapMemObject(env.q, m, p, 0, ptr::null(), ptr::null_mut()) };
    assert_eq!(rc, CL_SUCCESS);
    finish(env.q);
    release(m);
}

#[test]
fn buffer_info_answers() {
    let env = Env::new();
    let m = buffer(env.ctx, 4096);
    assert_eq!(
        info::<cl_mem_object_type>(m, CL_MEM_TYPE),
        CL_MEM_OBJECT_BUFFER
    );
    assert_eq!(info::<usize>(m, CL_MEM_SIZE), 4096);
    assert_eq!(info::<cl_uint>(m, CL_MEM_MAP_COUNT), 0);
    assert_eq!(info::<cl_uint>(m, CL_MEM_REFERENCE_COUNT), 1);
    assert_eq!(info::<cl_context>(m, CL_MEM_CONTEXT), env.ctx);
    assert_eq!(
        info::<cl_mem>(m, CL_MEM_ASSOCIATED_MEMOBJECT),
        ptr::null_mut()
    );
    assert_eq!(info::<usize>(m, CL_MEM_OFFSET), 0);
    assert_eq!(info::<cl_bool>(m, CL_MEM_USES_SVM_POINTER), CL_FALSE);
    // SAFETY: plain calls.
    unsafe {
        assert_eq!(clRetainMemObject(m), CL_SUCCESS);
        assert_eq!(info::<cl_uint>(m, CL_MEM_REFERENCE_COUNT), 2);
        let mut small = 0u8;
        let rc = clGetMemObjectInfo(
            m,
            CL_MEM_SIZE,
            1,
            &mut small as *mut u8 as _,
            ptr::null_mut(),
        );
        assert_eq!(rc, CL_INVALID_VALUE, "param_value_size too small");
        let rc = clGetMemObjectInfo(m, 0x7777, 0, ptr::null_mut(), ptr::null_mut());
        assert_eq!(rc, CL_INVALID_VALUE, "unknown param_name");
        let rc = clGetMemObjectInfo(
            ptr::null_mut(),
            CL_MEM_SIZE,
            0,
            ptr::null_mut(),
            ptr::null_mut(),
        );
        assert_eq!(rc, CL_INVALID_MEM_OBJECT);
    }
    release(m);
    release(m);
    // SAFETY: a released handle is rejected, not read.
    unsafe {
        assert_eq!(clReleaseMemObject(m), CL_INVALID_MEM_OBJECT);
        assert_eq!(clRetainMemObject(m), CL_INVALID_MEM_OBJECT);
        assert_eq!(clRetainMemObject(env.ctx as cl_mem), CL_INVALID_MEM_OBJECT);
    }
}

#[test]
fn sub_buffers_follow_the_alignment_bounds_and_flag_rules() {
    let env = Env::new();
    let mut host = bytes(1024, 3);
    let parent_flags = CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR | CL_MEM_HOST_WRITE_ONLY;
    let (p, rc) = create(env.ctx, parent_flags, 1024, host.as_mut_ptr() as _);
    assert_eq!(rc, CL_SUCCESS);
    // CL_DEVICE_MEM_BASE_ADDR_ALIGN is in bits.
    let mut bits: cl_uint = 0;
    // SAFETY: a cl_uint answer.
    unsafe {
        clGetDeviceInfo(
            device(),
            CL_DEVICE_MEM_BASE_ADDR_ALIGN,
            4,
            &mut bits as *mut _ as _,
            ptr::null_mut(),
        )
    };
    let align = bits as usize / 8;
    assert_eq!(sub(p, 0, align / 2, 16).1, CL_MISALIGNED_SUB_BUFFER_OFFSET);
    assert_eq!(sub(p, 0, 1, 16).1, CL_MISALIGNED_SUB_BUFFER_OFFSET);
    assert_eq!(sub(p, 0, align, 0).1, CL_INVALID_BUFFER_SIZE);
    assert_eq!(sub(p, 0, align, 1024).1, CL_INVALID_VALUE, "out of bounds");
    assert_eq!(
        sub(p, 0, usize::MAX - 3, 8).1,
        CL_INVALID_VALUE,
        "overflowing"
    );
    // Flag conflicts with the parent, and host pointer flags.
    assert_eq!(sub(p, CL_MEM_READ_WRITE, 0, 16).1, CL_INVALID_VALUE);
    assert_eq!(sub(p, CL_MEM_WRITE_ONLY, 0, 16).1, CL_INVALID_VALUE);
    assert_eq!(sub(p, CL_MEM_HOST_READ_ONLY, 0, 16).1, CL_INVALID_VALUE);
    assert_eq!(sub(p, CL_MEM_USE_HOST_PTR, 0, 16).1, CL_INVALID_VALUE);
    assert_eq!(sub(p, CL_MEM_COPY_HOST_PTR, 0, 16).1, CL_INVALID_VALUE);
    assert_eq!(sub(p, CL_MEM_ALLOC_HOST_PTR, 0, 16).1, CL_INVALID_VALUE);
    // Bad create type and NULL info.
    let mut rc = 0;
    let region = cl_buffer_region {
        origin: 0,
        size: 16,
    };
    // SAFETY: valid arguments but for the type / info under test.
    unsafe {
        clCreateSubBuffer(p, 0, 0x5555, &region as *const _ as _, &mut rc);
        assert_eq!(rc, CL_INVALID_VALUE);
        clCreateSubBuffer(p, 0, CL_BUFFER_CREATE_TYPE_REGION, ptr::null(), &mut rc);
        assert_eq!(rc, CL_INVALID_VALUE);
    }
    // A valid one inherits the parent's flags.
    let (s, rc) = sub(p, CL_MEM_HOST_NO_ACCESS, 2 * align, 100);
    assert_eq!(rc, CL_SUCCESS);
    assert_eq!(
        info::<cl_mem_flags>(s, CL_MEM_FLAGS),
        CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR | CL_MEM_HOST_NO_ACCESS
    );
    assert_eq!(info::<usize>(s, CL_MEM_SIZE), 100);
    assert_eq!(info::<usize>(s, CL_MEM_OFFSET), 2 * align);
    assert_eq!(info::<cl_mem>(s, CL_MEM_ASSOCIATED_MEMOBJECT), p);
    assert_eq!(
        info::<*mut c_void>(s, CL_MEM_HOST_PTR) as *mut u8,
        host.as_mut_ptr().wrapping_add(2 * align)
    );
    assert_eq!(info::<cl_context>(s, CL_MEM_CONTEXT), env.ctx);
    // A sub-buffer of a sub-buffer is refused.
    assert_eq!(sub(s, 0, 0, 16).1, CL_INVALID_MEM_OBJECT);
    // The sub-buffer holds its parent: releasing the parent first is fine.
    release(p);
    let (s2, rc) = sub(s, 0, 0, 16);
    assert_eq!((s2.is_null(), rc), (true, CL_INVALID_MEM_OBJECT));
    release(s);

    // Reads through a sub-buffer see the parent's bytes.
    let p = buffer(env.ctx, 1024);
    let data = bytes(1024, 9);
    assert_eq!(write(env.q, p, 0, &data), CL_SUCCESS);
    let (s, rc) = sub(p, 0, align, 2 * align);
    assert_eq!(rc, CL_SUCCESS);
    assert_eq!(read_all(env.q, s, 2 * align), data[align..3 * align]);
    release(s);
    release(p);
}

static CALLS: Mutex<Vec<usize>> = Mutex::new(Vec::new());

unsafe extern "C" fn record(_m: cl_mem, data: *mut c_void) {
    CALLS.lock().unwrap().push(data as usize);
}

#[test]
fn destructor_callbacks_run_in_reverse_after_the_last_command() {
    let env = Env::new();
    let m = buffer(env.ctx, 64);
    // SAFETY: valid buffer and callbacks; user data are plain numbers.
    unsafe {
        assert_eq!(
            clSetMemObjectDestructorCallback(m, None, ptr::null_mut()),
            CL_INVALID_VALUE
        );
        assert_eq!(
            clSetMemObjectDestructorCallback(ptr::null_mut(), Some(record), ptr::null_mut()),
            CL_INVALID_MEM_OBJECT
        );
        for tag in [101usize, 102, 103] {
            assert_eq!(
                clSetMemObjectDestructorCallback(m, Some(record), tag as *mut c_void),
                CL_SUCCESS
            );
        }
    }
    // A command gated by a user event still uses the buffer.
    let gate = user_event(env.ctx);
    let pattern = [0xABu8; 4];
    let mut done = ptr::null_mut();
    // SAFETY: valid arguments; the pattern is copied at enqueue.
    let rc = unsafe {
        clEnqueueFillBuffer(
            env.q,
            m,
            pattern.as_ptr() as _,
            4,
            0,
            64,
            1,
            &gate,
            &mut done,
        )
    };
    assert_eq!(rc, CL_SUCCESS);
    release(m);
    let mine = |calls: &Vec<usize>| calls.iter().filter(|&&t| (101..=103).contains(&t)).count();
    assert_eq!(
        mine(&CALLS.lock().unwrap()),
        0,
        "freed while a command uses it"
    );
    assert_eq!(set_status(gate, CL_COMPLETE), CL_SUCCESS);
    assert_eq!(wait(&[done]), CL_SUCCESS);
    finish(env.q);
    release_event(done);
    release_event(gate);
    let calls: Vec<usize> = CALLS
        .lock()
        .unwrap()
        .iter()
        .copied()
        .filter(|t| (101..=103).contains(t))
        .collect();
    assert_eq!(calls, vec![103, 102, 101]);
}

#[test]
fn read_write_copy_round_trip_and_errors() {
    let env = Env::new();
    let a = buffer(env.ctx, 4096);
    let b = buffer(env.ctx, 4096);
    let data = bytes(4096, 5);
    assert_eq!(write(env.q, a, 0, &data), CL_SUCCESS);
    assert_eq!(copy(env.q, a, b, 100, 200, 1000), CL_SUCCESS);
    let got = read_all(env.q, b, 4096);
    assert_eq!(&got[200..1200], &data[100..1100]);
    assert!(got[..200].iter().chain(&got[1200..]).all(|&x| x == 0));

    let mut out = [0u8; 8];
    // Out of bounds, overflow, NULL pointer.
    assert_eq!(read(env.q, a, 4090, &mut out), CL_INVALID_VALUE);
    assert_eq!(read(env.q, a, usize::MAX - 2, &mut out), CL_INVALID_VALUE);
    assert_eq!(copy(env.q, a, b, 0, 4000, 100), CL_INVALID_VALUE);
    assert_eq!(copy(env.q, a, b, usize::MAX, 0, 2), CL_INVALID_VALUE);
    // SAFETY: NULL ptr is the error under test.
    let rc = unsafe {
        clEnqueueReadBuffer(
            env.q,
            a,
            CL_TRUE,
            0,
            4,
            ptr::null_mut(),
            0,
            ptr::null(),
            ptr::null_mut(),
        )
    };
    assert_eq!(rc, CL_INVALID_VALUE);
    // Bad handles: the queue first, then the buffer.
    assert_eq!(
        read(ptr::null_mut(), ptr::null_mut(), 0, &mut out),
        CL_INVALID_COMMAND_QUEUE
    );
    assert_eq!(
        read(env.q, ptr::null_mut(), 0, &mut out),
        CL_INVALID_MEM_OBJECT
    );
    assert_eq!(
        copy(env.q, a, env.q as cl_mem, 0, 0, 4),
        CL_INVALID_MEM_OBJECT
    );
    // A buffer of another context.
    let other = context();
    let foreign = buffer(other, 64);
    assert_eq!(read(env.q, foreign, 0, &mut out), CL_INVALID_CONTEXT);
    assert_eq!(copy(env.q, a, foreign, 0, 0, 4), CL_INVALID_CONTEXT);
    release(foreign);
    release_context(other);
    // Wait list errors come after the values.
    // SAFETY: inconsistent wait list is the error under test.
    let rc = unsafe {
        clEnqueueReadBuffer(
            env.q,
            a,
            CL_TRUE,
            0,
            8,
            out.as_mut_ptr() as _,
            1,
            ptr::null(),
            ptr::null_mut(),
        )
    };
    assert_eq!(rc, CL_INVALID_EVENT_WAIT_LIST);
    release(a);
    release(b);
}

#[test]
fn host_access_flags_are_enforced() {
    let env = Env::new();
    let mut out = [0u8; 4];
    for (flags, can_read, can_write) in [
        (CL_MEM_HOST_WRITE_ONLY, false, true),
        (CL_MEM_HOST_READ_ONLY, true, false),
        (CL_MEM_HOST_NO_ACCESS, false, false),
        (0, true, true),
    ] {
        let (m, rc) = create(env.ctx, flags, 64, ptr::null_mut());
        assert_eq!(rc, CL_SUCCESS);
        let code = |ok: bool| if ok { CL_SUCCESS } else { CL_INVALID_OPERATION };
        assert_eq!(
            read(env.q, m, 0, &mut out),
            code(can_read),
            "read {flags:#x}"
        );
        assert_eq!(
            write(env.q, m, 0, &out),
            code(can_write),
            "write {flags:#x}"
        );
        for (map_flags, ok) in [
            (CL_MAP_READ, can_read),
            (CL_MAP_WRITE, can_write),
            (CL_MAP_WRITE_INVALIDATE_REGION, can_write),
        ] {
            let mut rc = 0;
            // SAFETY: valid arguments.
            let p = unsafe {
                clEnqueueMapBuffer(
                    env.q,
                    m,
                    CL_TRUE,
                    map_flags,
                    0,
                    8,
                    0,
                    ptr::null(),
                    ptr::null_mut(),
                    &mut rc,
                )
            };
            assert_eq!(rc, code(ok), "map {map_flags:#x} of {flags:#x}");
            if ok {
                // SAFETY: unmap of the pointer just mapped.
                let rc = unsafe {
                    clEnqueueUnmapMemObject(env.q, m, p, 0, ptr::null(), ptr::null_mut())
                };
                assert_eq!(rc, CL_SUCCESS);
            }
        }
        // Copies and fills ignore the host access flags.
        let other = buffer(env.ctx, 64);
        assert_eq!(copy(env.q, m, other, 0, 0, 64), CL_SUCCESS);
        release(other);
        release(m);
    }
}

/// The host model of a rect transfer: byte (x, y, z) of the region goes from
/// `src[so + z*ssp + y*srp + x]` to `dst[do + z*dsp + y*drp + x]`.
#[allow(clippy::too_many_arguments)]
fn model_rect(
    dst: &mut [u8],
    d_origin: [usize; 3],
    d_pitch: [usize; 2],
    src: &[u8],
    s_origin: [usize; 3],
    s_pitch: [usize; 2],
    region: [usize; 3],
) {
    let resolve = |p: [usize; 2]| {
        let row = if p[0] == 0 { region[0] } else { p[0] };
        let slice = if p[1] == 0 { region[1] * row } else { p[1] };
        (row, slice)
    };
    let (drp, dsp) = resolve(d_pitch);
    let (srp, ssp) = resolve(s_pitch);
    for z in 0..region[2] {
        for y in 0..region[1] {
            for x in 0..region[0] {
                let s = (s_origin[2] + z) * ssp + (s_origin[1] + y) * srp + s_origin[0] + x;
                let d = (d_origin[2] + z) * dsp + (d_origin[1] + y) * drp + d_origin[0] + x;
                dst[d] = src[s];
            }
        }
    }
}

/// (region, buffer origin, buffer pitches, host origin, host pitches).
type RectCase = ([usize; 3], [usize; 3], [usize; 2], [usize; 3], [usize; 2]);

#[test]
fn rect_transfers_match_the_host_model_byte_by_byte() {
    let env = Env::new();
    const N: usize = 8192;
    let cases: [RectCase; 5] = [
        // (region, buffer origin, buffer pitches, host origin, host pitches)
        ([5, 3, 2], [1, 2, 1], [16, 64], [2, 0, 1], [7, 28]),
        ([16, 4, 1], [0, 0, 0], [0, 0], [3, 1, 0], [20, 0]),
        ([1, 1, 1], [7, 9, 3], [11, 121], [0, 0, 0], [0, 0]),
        ([9, 7, 3], [4, 1, 2], [32, 0], [1, 2, 3], [10, 80]),
        ([32, 8, 4], [0, 0, 0], [0, 0], [0, 0, 0], [0, 0]),
    ];
    for (i, &(region, b_origin, b_pitch, h_origin, h_pitch)) in cases.iter().enumerate() {
        let init = bytes(N, 100 + i as u32);
        let host_src = bytes(N, 200 + i as u32);
        // Write rect: host -> buffer.
        let m = buffer(env.ctx, N);
        assert_eq!(write(env.q, m, 0, &init), CL_SUCCESS);
        // SAFETY: the arrays outlive the blocking call; the host rect is
        // inside `host_src` (the model indexes it too).
        let rc = unsafe {
            clEnqueueWriteBufferRect(
                env.q,
                m,
                CL_TRUE,
                b_origin.as_ptr(),
                h_origin.as_ptr(),
                region.as_ptr(),
                b_pitch[0],
                b_pitch[1],
                h_pitch[0],
                h_pitch[1],
                host_src.as_ptr() as _,
                0,
                ptr::null(),
                ptr::null_mut(),
            )
        };
        assert_eq!(rc, CL_SUCCESS, "write rect case {i}");
        let mut expect = init.clone();
        model_rect(
            &mut expect,
            b_origin,
            b_pitch,
            &host_src,
            h_origin,
            h_pitch,
            region,
        );
        assert!(read_all(env.q, m, N) == expect, "write rect case {i}");
        // Read rect: buffer -> host.
        let mut host_dst = init.clone();
        // SAFETY: as above.
        let rc = unsafe {
            clEnqueueReadBufferRect(
                env.q,
                m,
                CL_TRUE,
                b_origin.as_ptr(),
                h_origin.as_ptr(),
                region.as_ptr(),
                b_pitch[0],
                b_pitch[1],
                h_pitch[0],
                h_pitch[1],
                host_dst.as_mut_ptr() as _,
                0,
                ptr::null(),
                ptr::null_mut(),
            )
        };
        assert_eq!(rc, CL_SUCCESS, "read rect case {i}");
        let mut expect_host = init.clone();
        model_rect(
            &mut expect_host,
            h_origin,
            h_pitch,
            &expect,
            b_origin,
            b_pitch,
            region,
        );
        assert!(host_dst == expect_host, "read rect case {i}");
        // Copy rect: buffer -> another buffer, host pitches as destination.
        let d = buffer(env.ctx, N);
        assert_eq!(write(env.q, d, 0, &init), CL_SUCCESS);
        // SAFETY: valid arrays.
        let rc = unsafe {
            clEnqueueCopyBufferRect(
                env.q,
                m,
                d,
                b_origin.as_ptr(),
                h_origin.as_ptr(),
                region.as_ptr(),
                b_pitch[0],
                b_pitch[1],
                h_pitch[0],
                h_pitch[1],
                0,
                ptr::null(),
                ptr::null_mut(),
            )
        };
        assert_eq!(rc, CL_SUCCESS, "copy rect case {i}");
        let mut expect_copy = init.clone();
        model_rect(
            &mut expect_copy,
            h_origin,
            h_pitch,
            &expect,
            b_origin,
            b_pitch,
            region,
        );
        assert!(read_all(env.q, d, N) == expect_copy, "copy rect case {i}");
        release(d);
        release(m);
    }
}

#[test]
fn rect_argument_errors() {
    let env = Env::new();
    let m = buffer(env.ctx, 1024);
    let mut host = vec![0u8; 4096];
    let o = [0usize; 3];
    let call = |b_origin: &[usize; 3],
                region: &[usize; 3],
                bp: [usize; 2],
                hp: [usize; 2],
                p: *mut c_void| {
        // SAFETY: valid arrays; host buffer large enough for every accepted case.
        unsafe {
            clEnqueueReadBufferRect(
                env.q,
                m,
                CL_TRUE,
                b_origin.as_ptr(),
                o.as_ptr(),
                region.as_ptr(),
                bp[0],
                bp[1],
                hp[0],
                hp[1],
                p,
                0,
                ptr::null(),
                ptr::null_mut(),
            )
        }
    };
    let hp = host.as_mut_ptr() as *mut c_void;
    assert_eq!(call(&o, &[4, 4, 1], [0, 0], [0, 0], hp), CL_SUCCESS);
    assert_eq!(
        call(&o, &[0, 4, 1], [0, 0], [0, 0], hp),
        CL_INVALID_VALUE,
        "zero region"
    );
    assert_eq!(
        call(&o, &[4, 4, 1], [3, 0], [0, 0], hp),
        CL_INVALID_VALUE,
        "row pitch < width"
    );
    assert_eq!(
        call(&o, &[4, 4, 1], [8, 16], [0, 0], hp),
        CL_INVALID_VALUE,
        "slice < rows*pitch"
    );
    assert_eq!(
        call(&o, &[4, 4, 1], [8, 36], [0, 0], hp),
        CL_INVALID_VALUE,
        "slice not multiple"
    );
    assert_eq!(
        call(&o, &[4, 4, 1], [0, 0], [2, 0], hp),
        CL_INVALID_VALUE,
        "host row pitch"
    );
    assert_eq!(
        call(&o, &[32, 32, 2], [0, 0], [0, 0], hp),
        CL_INVALID_VALUE,
        "out of bounds"
    );
    assert_eq!(
        call(&[0, 0, usize::MAX / 4], &[4, 4, 1], [0, 0], [0, 0], hp),
        CL_INVALID_VALUE,
        "overflow"
    );
    assert_eq!(
        call(&o, &[4, 4, 1], [0, 0], [0, 0], ptr::null_mut()),
        CL_INVALID_VALUE,
        "NULL ptr"
    );
    // SAFETY: NULL origin is the error under test.
    let rc = unsafe {
        clEnqueueReadBufferRect(
            env.q,
            m,
            CL_TRUE,
            ptr::null(),
            o.as_ptr(),
            [1usize, 1, 1].as_ptr(),
            0,
            0,
            0,
            0,
            hp,
            0,
            ptr::null(),
            ptr::null_mut(),
        )
    };
    assert_eq!(rc, CL_INVALID_VALUE);
    // Same buffer: pitches must agree, and overlap is refused.
    let r = [8usize, 4, 1];
    let copy_rect = |src_o: [usize; 3], dst_o: [usize; 3], sp: [usize; 2], dp: [usize; 2]| {
        // SAFETY: valid arrays.
        unsafe {
            clEnqueueCopyBufferRect(
                env.q,
                m,
                m,
                src_o.as_ptr(),
                dst_o.as_ptr(),
                r.as_ptr(),
                sp[0],
                sp[1],
                dp[0],
                dp[1],
                0,
                ptr::null(),
                ptr::null_mut(),
            )
        }
    };
    assert_eq!(copy_rect(o, [0, 8, 0], [16, 0], [32, 0]), CL_INVALID_VALUE);
    assert_eq!(
        copy_rect(o, [4, 1, 0], [16, 0], [16, 0]),
        CL_MEM_COPY_OVERLAP
    );
    // Side by side in the same rows: columns 0..8 and 8..16 do not overlap.
    assert_eq!(copy_rect(o, [8, 0, 0], [16, 0], [16, 0]), CL_SUCCESS);
    assert_eq!(copy_rect(o, [0, 4, 0], [16, 0], [16, 0]), CL_SUCCESS);
    finish(env.q);
    release(m);
}

#[test]
fn copy_overlap_in_one_buffer_and_across_sub_buffers() {
    let env = Env::new();
    let m = buffer(env.ctx, 4096);
    assert_eq!(copy(env.q, m, m, 0, 100, 200), CL_MEM_COPY_OVERLAP);
    assert_eq!(copy(env.q, m, m, 100, 0, 101), CL_MEM_COPY_OVERLAP);
    assert_eq!(
        copy(env.q, m, m, 0, 100, 100),
        CL_SUCCESS,
        "touching, not overlapping"
    );
    let (s1, _) = sub(m, 0, 0, 1024);
    let (s2, _) = sub(m, 0, 512, 1024);
    // s1[600..700] is m[600..700]; s2[0..100] is m[512..612]: overlap.
    assert_eq!(copy(env.q, s1, s2, 600, 0, 100), CL_MEM_COPY_OVERLAP);
    assert_eq!(copy(env.q, s1, s2, 600, 200, 100), CL_SUCCESS);
    // A sub-buffer against its own parent.
    assert_eq!(copy(env.q, m, s2, 500, 0, 100), CL_MEM_COPY_OVERLAP);
    assert_eq!(copy(env.q, m, s2, 0, 0, 512), CL_SUCCESS);
    // Different buffers never overlap.
    let other = buffer(env.ctx, 4096);
    assert_eq!(copy(env.q, m, other, 0, 0, 4096), CL_SUCCESS);
    finish(env.q);
    for x in [s1, s2, other, m] {
        release(x);
    }
}

#[test]
fn fills_repeat_every_pattern_size() {
    let env = Env::new();
    const N: usize = 4096;
    let m = buffer(env.ctx, N);
    for size in [1usize, 2, 4, 8, 16, 32, 64, 128] {
        let pattern = bytes(size, size as u32);
        let init = bytes(N, 77);
        assert_eq!(write(env.q, m, 0, &init), CL_SUCCESS);
        let (offset, len) = (size * 3, size * 10);
        // SAFETY: the pattern is copied at enqueue.
        let rc = unsafe {
            clEnqueueFillBuffer(
                env.q,
                m,
                pattern.as_ptr() as _,
                size,
                offset,
                len,
                0,
                ptr::null(),
                ptr::null_mut(),
            )
        };
        assert_eq!(rc, CL_SUCCESS, "pattern size {size}");
        let got = read_all(env.q, m, N);
        let mut expect = init.clone();
        for i in 0..len {
            expect[offset + i] = pattern[i % size];
        }
        assert!(got == expect, "pattern size {size}");
    }
    let pat = [0u8; 256];
    let fill = |ps: usize, off: usize, size: usize, p: *const c_void| {
        // SAFETY: `pat` has 256 bytes.
        unsafe { clEnqueueFillBuffer(env.q, m, p, ps, off, size, 0, ptr::null(), ptr::null_mut()) }
    };
    let p = pat.as_ptr() as *const c_void;
    for (ps, off, size) in [
        (0, 0, 8),
        (3, 0, 6),
        (256, 0, 256),
        (4, 2, 8),
        (4, 0, 6),
        (4, 4096, 4),
    ] {
        assert_eq!(
            fill(ps, off, size, p),
            CL_INVALID_VALUE,
            "{ps} {off} {size}"
        );
    }
    assert_eq!(fill(4, 0, 8, ptr::null()), CL_INVALID_VALUE);
    assert_eq!(fill(4, usize::MAX - 3, 8, p), CL_INVALID_VALUE);
    release(m);
}

fn map(
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

fn unmap(q: cl_command_queue, m: cl_mem, p: *mut c_void) -> cl_int {
    // SAFETY: plain call.
    unsafe { clEnqueueUnmapMemObject(q, m, p, 0, ptr::null(), ptr::null_mut()) }
}

#[test]
fn map_and_unmap_are_zero_copy_and_counted() {
    let env = Env::new();
    let m = buffer(env.ctx, 1024);
    let data = bytes(1024, 11);
    assert_eq!(write(env.q, m, 0, &data), CL_SUCCESS);
    let (p, rc) = map(env.q, m, CL_MAP_READ | CL_MAP_WRITE, 256, 128);
    assert_eq!(rc, CL_SUCCESS);
    // SAFETY: the mapped region has 128 bytes.
    let view = unsafe { std::slice::from_raw_parts_mut(p as *mut u8, 128) };
    assert_eq!(view, &data[256..384]);
    view[..4].copy_from_slice(&[1, 2, 3, 4]);
    assert_eq!(info::<cl_uint>(m, CL_MEM_MAP_COUNT), 1);
    let (p2, rc) = map(env.q, m, CL_MAP_READ, 0, 16);
    assert_eq!(rc, CL_SUCCESS);
    assert_eq!(info::<cl_uint>(m, CL_MEM_MAP_COUNT), 2);
    // Overlapping a region mapped for writing is refused.
    assert_eq!(map(env.q, m, CL_MAP_READ, 300, 8).1, CL_INVALID_OPERATION);
    assert_eq!(map(env.q, m, CL_MAP_WRITE, 0, 8).1, CL_INVALID_OPERATION);
    // Map flag and region errors.
    assert_eq!(
        map(
            env.q,
            m,
            CL_MAP_WRITE_INVALIDATE_REGION | CL_MAP_READ,
            512,
            8
        )
        .1,
        CL_INVALID_VALUE
    );
    assert_eq!(map(env.q, m, 1 << 5, 512, 8).1, CL_INVALID_VALUE);
    assert_eq!(map(env.q, m, CL_MAP_READ, 512, 0).1, CL_INVALID_VALUE);
    assert_eq!(map(env.q, m, CL_MAP_READ, 1000, 100).1, CL_INVALID_VALUE);
    assert_eq!(unmap(env.q, m, p), CL_SUCCESS);
    assert_eq!(unmap(env.q, m, p), CL_INVALID_VALUE, "already unmapped");
    assert_eq!(
        unmap(env.q, m, data.as_ptr() as _),
        CL_INVALID_VALUE,
        "never mapped"
    );
    assert_eq!(unmap(env.q, m, p2), CL_SUCCESS);
    finish(env.q);
    assert_eq!(info::<cl_uint>(m, CL_MEM_MAP_COUNT), 0);
    let mut expect = data.clone();
    expect[256..260].copy_from_slice(&[1, 2, 3, 4]);
    assert_eq!(
        read_all(env.q, m, 1024),
        expect,
        "writes through the map land in the buffer"
    );
    // A sub-buffer's map and its parent's write map overlap.
    let (s, _) = sub(m, 0, 128, 256);
    let (ps, rc) = map(env.q, s, CL_MAP_WRITE, 0, 16);
    assert_eq!(rc, CL_SUCCESS);
    assert_eq!(map(env.q, m, CL_MAP_READ, 130, 4).1, CL_INVALID_OPERATION);
    assert_eq!(
        unmap(env.q, m, ps),
        CL_INVALID_VALUE,
        "mapped through the sub-buffer"
    );
    assert_eq!(unmap(env.q, s, ps), CL_SUCCESS);
    finish(env.q);
    release(s);
    release(m);
}

#[test]
fn released_buffer_lives_until_its_non_blocking_read_completes() {
    let env = Env::new();
    let data = bytes(1 << 20, 21);
    let m = buffer(env.ctx, 1 << 20);
    assert_eq!(write(env.q, m, 0, &data), CL_SUCCESS);
    let gate = user_event(env.ctx);
    let mut out = vec![0u8; 1 << 20];
    let mut done = ptr::null_mut();
    // SAFETY: `out` stays alive until the command completes (waited below).
    let rc = unsafe {
        clEnqueueReadBuffer(
            env.q,
            m,
            CL_FALSE,
            0,
            1 << 20,
            out.as_mut_ptr() as _,
            1,
            &gate,
            &mut done,
        )
    };
    assert_eq!(rc, CL_SUCCESS);
    release(m); // as real programs do, right after the enqueue
    assert_ne!(status(done), CL_COMPLETE, "returned before the read ran");
    // Churn the allocator so a freed buffer would be reused.
    let junk: Vec<cl_mem> = (0..8).map(|_| buffer(env.ctx, 1 << 20)).collect();
    assert_eq!(set_status(gate, CL_COMPLETE), CL_SUCCESS);
    assert_eq!(wait(&[done]), CL_SUCCESS);
    assert!(out == data);
    junk.into_iter().for_each(release);
    release_event(done);
    release_event(gate);
}

#[test]
fn non_blocking_write_then_read_in_order() {
    let env = Env::new();
    let m = buffer(env.ctx, 256);
    let data = bytes(256, 4);
    let mut out = vec![0u8; 256];
    let mut ev = ptr::null_mut();
    // SAFETY: `data` and `out` outlive the commands (waited below).
    unsafe {
        assert_eq!(
            clEnqueueWriteBuffer(
                env.q,
                m,
                CL_FALSE,
                0,
                256,
                data.as_ptr() as _,
                0,
                ptr::null(),
                ptr::null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(
            clEnqueueReadBuffer(
                env.q,
                m,
                CL_FALSE,
                0,
                256,
                out.as_mut_ptr() as _,
                0,
                ptr::null(),
                &mut ev
            ),
            CL_SUCCESS
        );
    }
    assert_eq!(wait(&[ev]), CL_SUCCESS);
    assert_eq!(out, data);
    release_event(ev);
    release(m);
}

#[test]
fn migrate_validates_and_completes() {
    let env = Env::new();
    let m = buffer(env.ctx, 64);
    let mut ev = ptr::null_mut();
    // SAFETY: valid arrays.
    unsafe {
        assert_eq!(
            clEnqueueMigrateMemObjects(env.q, 1, &m, 0, 0, ptr::null(), &mut ev),
            CL_SUCCESS
        );
        assert_eq!(wait(&[ev]), CL_SUCCESS);
        release_event(ev);
        assert_eq!(
            clEnqueueMigrateMemObjects(
                env.q,
                1,
                &m,
                CL_MIGRATE_MEM_OBJECT_HOST,
                0,
                ptr::null(),
                ptr::null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(
            clEnqueueMigrateMemObjects(env.q, 0, &m, 0, 0, ptr::null(), ptr::null_mut()),
            CL_INVALID_VALUE
        );
        assert_eq!(
            clEnqueueMigrateMemObjects(env.q, 1, ptr::null(), 0, 0, ptr::null(), ptr::null_mut()),
            CL_INVALID_VALUE
        );
        assert_eq!(
            clEnqueueMigrateMemObjects(env.q, 1, &m, 1 << 7, 0, ptr::null(), ptr::null_mut()),
            CL_INVALID_VALUE
        );
        let bad: cl_mem = ptr::null_mut();
        assert_eq!(
            clEnqueueMigrateMemObjects(env.q, 1, &bad, 0, 0, ptr::null(), ptr::null_mut()),
            CL_INVALID_MEM_OBJECT
        );
        assert_eq!(
            clEnqueueMigrateMemObjects(ptr::null_mut(), 1, &m, 0, 0, ptr::null(), ptr::null_mut()),
            CL_INVALID_COMMAND_QUEUE
        );
    }
    release(m);
}

#[test]
fn images_pipes_samplers_svm_and_native_kernels_are_refused() {
    let env = Env::new();
    let m = buffer(env.ctx, 64);
    let fmt = cl_image_format {
        image_channel_order: CL_RGBA,
        image_channel_data_type: CL_UNORM_INT8,
    };
    let mut rc = 0;
    let mut n: cl_uint = 9;
    let o = [0usize; 3];
    // SAFETY: valid or NULL arguments throughout.
    unsafe {
        clCreateImage2D(env.ctx, 0, &fmt, 4, 4, 0, ptr::null_mut(), &mut rc);
        assert_eq!(rc, CL_INVALID_OPERATION);
        clCreateImage2D(ptr::null_mut(), 0, &fmt, 4, 4, 0, ptr::null_mut(), &mut rc);
        assert_eq!(rc, CL_INVALID_CONTEXT);
        clCreateImage3D(env.ctx, 0, &fmt, 4, 4, 4, 0, 0, ptr::null_mut(), &mut rc);
        assert_eq!(rc, CL_INVALID_OPERATION);
        clCreateImage(env.ctx, 0, &fmt, ptr::null(), ptr::null_mut(), &mut rc);
        assert_eq!(rc, CL_INVALID_OPERATION);
        clCreateImageWithProperties(
            env.ctx,
            ptr::null(),
            0,
            &fmt,
            ptr::null(),
            ptr::null_mut(),
            &mut rc,
        );
        assert_eq!(rc, CL_INVALID_OPERATION);
        let r = clGetSupportedImageFormats(
            env.ctx,
            CL_MEM_READ_WRITE,
            CL_MEM_OBJECT_IMAGE2D,
            0,
            ptr::null_mut(),
            &mut n,
        );
        assert_eq!((r, n), (CL_SUCCESS, 0));
        let r = clGetSupportedImageFormats(
            env.ctx,
            0,
            CL_MEM_OBJECT_BUFFER,
            0,
            ptr::null_mut(),
            &mut n,
        );
        assert_eq!(r, CL_INVALID_VALUE);
        let r = clGetSupportedImageFormats(
            ptr::null_mut(),
            0,
            CL_MEM_OBJECT_IMAGE2D,
            0,
            ptr::null_mut(),
            &mut n,
        );
        assert_eq!(r, CL_INVALID_CONTEXT);
        let r = clGetImageInfo(m, CL_IMAGE_WIDTH, 0, ptr::null_mut(), ptr::null_mut());
        assert_eq!(r, CL_INVALID_MEM_OBJECT);
        clCreatePipe(env.ctx, 0, 4, 16, ptr::null(), &mut rc);
        assert_eq!(rc, CL_INVALID_OPERATION);
        clCreatePipe(ptr::null_mut(), 0, 4, 16, ptr::null(), &mut rc);
        assert_eq!(rc, CL_INVALID_CONTEXT);
        let r = clGetPipeInfo(m, CL_PIPE_PACKET_SIZE, 0, ptr::null_mut(), ptr::null_mut());
        assert_eq!(r, CL_INVALID_MEM_OBJECT);
        clCreateSampler(
            env.ctx,
            CL_FALSE,
            CL_ADDRESS_CLAMP,
            CL_FILTER_NEAREST,
            &mut rc,
        );
        assert_eq!(rc, CL_INVALID_OPERATION);
        clCreateSamplerWithProperties(ptr::null_mut(), ptr::null(), &mut rc);
        assert_eq!(rc, CL_INVALID_CONTEXT);
        assert_eq!(clRetainSampler(ptr::null_mut()), CL_INVALID_SAMPLER);
        assert_eq!(clReleaseSampler(m as cl_sampler), CL_INVALID_SAMPLER);
        let r = clGetSamplerInfo(
            ptr::null_mut(),
            CL_SAMPLER_CONTEXT,
            0,
            ptr::null_mut(),
            ptr::null_mut(),
        );
        assert_eq!(r, CL_INVALID_SAMPLER);
        // Image commands: the queue first, then the (non-)image.
        let r = clEnqueueReadImage(
            ptr::null_mut(),
            m,
            CL_TRUE,
            o.as_ptr(),
            o.as_ptr(),
            0,
            0,
            ptr::null_mut(),
            0,
            ptr::null(),
            ptr::null_mut(),
        );
        assert_eq!(r, CL_INVALID_COMMAND_QUEUE);
        let r = clEnqueueReadImage(
            env.q,
            m,
            CL_TRUE,
            o.as_ptr(),
            o.as_ptr(),
            0,
            0,
            ptr::null_mut(),
            0,
            ptr::null(),
            ptr::null_mut(),
        );
        assert_eq!(r, CL_INVALID_MEM_OBJECT);
        let r = clEnqueueCopyBufferToImage(
            env.q,
            m,
            m,
            0,
            o.as_ptr(),
            o.as_ptr(),
            0,
            ptr::null(),
            ptr::null_mut(),
        );
        assert_eq!(r, CL_INVALID_MEM_OBJECT);
        let r = clEnqueueFillImage(
            env.q,
            m,
            ptr::null(),
            o.as_ptr(),
            o.as_ptr(),
            0,
            ptr::null(),
            ptr::null_mut(),
        );
        assert_eq!(r, CL_INVALID_MEM_OBJECT);
        let p = clEnqueueMapImage(
            env.q,
            m,
            CL_TRUE,
            CL_MAP_READ,
            o.as_ptr(),
            o.as_ptr(),
            ptr::null_mut(),
            ptr::null_mut(),
            0,
            ptr::null(),
            ptr::null_mut(),
            &mut rc,
        );
        assert_eq!((p.is_null(), rc), (true, CL_INVALID_MEM_OBJECT));
        let r = clEnqueueNativeKernel(
            env.q,
            None,
            ptr::null_mut(),
            0,
            0,
            ptr::null(),
            ptr::null_mut(),
            0,
            ptr::null(),
            ptr::null_mut(),
        );
        assert_eq!(r, CL_INVALID_OPERATION);
        let r = clEnqueueSVMMemcpy(
            env.q,
            CL_TRUE,
            ptr::null_mut(),
            ptr::null(),
            4,
            0,
            ptr::null(),
            ptr::null_mut(),
        );
        assert_eq!(r, CL_INVALID_OPERATION);
        let r = clEnqueueSVMMemcpy(
            ptr::null_mut(),
            CL_TRUE,
            ptr::null_mut(),
            ptr::null(),
            4,
            0,
            ptr::null(),
            ptr::null_mut(),
        );
        assert_eq!(r, CL_INVALID_COMMAND_QUEUE);
    }
    release(m);
}

static LEAK_CHECK: AtomicUsize = AtomicUsize::new(0);

#[test]
fn released_buffers_free_their_allocations() {
    // Other tests run concurrently, so count only what this test makes: a
    // destructor callback per buffer, called when its store is freed.
    unsafe extern "C" fn freed(_m: cl_mem, _d: *mut c_void) {
        LEAK_CHECK.fetch_add(1, Ordering::SeqCst);
    }
    let env = Env::new();
    let data = bytes(4096, 8);
    for _ in 0..50 {
        let m = buffer(env.ctx, 4096);
        // SAFETY: valid buffer and callback.
        unsafe { clSetMemObjectDestructorCallback(m, Some(freed), ptr::null_mut()) };
        let (s, _) = sub(m, 0, 128, 256);
        let mut ev = ptr::null_mut();
        // SAFETY: `data` outlives the command (waited below).
        unsafe {
            clEnqueueWriteBuffer(
                env.q,
                s,
                CL_FALSE,
                0,
                256,
                data.as_ptr() as _,
                0,
                ptr::null(),
                &mut ev,
            )
        };
        release(m);
        release(s);
        assert_eq!(wait(&[ev]), CL_SUCCESS);
        release_event(ev);
    }
    finish(env.q);
    assert_eq!(LEAK_CHECK.load(Ordering::SeqCst), 50);
}
