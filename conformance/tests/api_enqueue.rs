//! API behaviour of the buffer commands: `clEnqueue{Read,Write,Copy}Buffer`,
//! their `Rect` forms, `clEnqueueFillBuffer`, `clEnqueueMapBuffer`,
//! `clEnqueueUnmapMemObject`, `clEnqueueMigrateMemObjects`: bad queues and
//! buffers (NULL, another type), objects of another context, out-of-bounds
//! and overflowing regions, NULL pointers, malformed wait lists, host-access
//! flags, overlap, and the spec's order among them.

use cranecl_conformance::{assert_code, both_ways, call, null, Cl};
use opencl_sys::*;
use std::ffi::c_void;

const SIZE: usize = 1024;

/// Two contexts, a queue and buffers in the first, a buffer, queue and user
/// event in the second.
struct Fix<'a> {
    t: &'a Cl,
    ctx: cl_context,
    ctx2: cl_context,
    q: cl_command_queue,
    a: cl_mem,
    b: cl_mem,
    other: cl_mem,
    other_ev: cl_event,
}

impl<'a> Fix<'a> {
    fn new(t: &'a Cl) -> Self {
        let ctx = t.context();
        let ctx2 = t.context();
        Fix {
            t,
            ctx,
            ctx2,
            q: t.queue(ctx, 0),
            a: t.buffer(ctx, CL_MEM_READ_WRITE, SIZE),
            b: t.buffer(ctx, CL_MEM_READ_WRITE, SIZE),
            other: t.buffer(ctx2, CL_MEM_READ_WRITE, SIZE),
            other_ev: t.user_event(ctx2),
        }
    }
}

impl Drop for Fix<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            return;
        }
        let t = self.t;
        assert_code!(
            call!(t; clSetUserEventStatus(self.other_ev, CL_COMPLETE)),
            CL_SUCCESS
        );
        assert_code!(call!(t; clFinish(self.q)), CL_SUCCESS);
        for m in [self.a, self.b, self.other] {
            assert_code!(call!(t; clReleaseMemObject(m)), CL_SUCCESS);
        }
        assert_code!(call!(t; clReleaseEvent(self.other_ev)), CL_SUCCESS);
        assert_code!(call!(t; clReleaseCommandQueue(self.q)), CL_SUCCESS);
        assert_code!(call!(t; clReleaseContext(self.ctx)), CL_SUCCESS);
        assert_code!(call!(t; clReleaseContext(self.ctx2)), CL_SUCCESS);
    }
}

/// Wait-list cases every enqueue shares: `f(num, list)` must answer
/// CL_INVALID_EVENT_WAIT_LIST for malformed lists and CL_INVALID_CONTEXT
/// for an event of another context.
fn wait_list_cases(fx: &Fix, what: &str, f: &dyn Fn(cl_uint, *const cl_event) -> cl_int) {
    let ue = fx.t.user_event(fx.ctx);
    assert_code!(
        f(1, null()),
        CL_INVALID_EVENT_WAIT_LIST,
        "{what}: NULL list, 1 event"
    );
    assert_code!(
        f(0, &ue),
        CL_INVALID_EVENT_WAIT_LIST,
        "{what}: a list with 0 events"
    );
    let not_event = fx.a as cl_event;
    // (A loader dispatches on the queue, so the list reaches the ICD as is.)
    assert_code!(
        f(1, &not_event),
        CL_INVALID_EVENT_WAIT_LIST,
        "{what}: a buffer in the list"
    );
    let nul: cl_event = null();
    assert_code!(
        f(1, &nul),
        CL_INVALID_EVENT_WAIT_LIST,
        "{what}: a NULL event in the list"
    );
    assert_code!(
        f(1, &fx.other_ev),
        CL_INVALID_CONTEXT,
        "{what}: an event of another context"
    );
    assert_code!(
        call!(fx.t; clSetUserEventStatus(ue, CL_COMPLETE)),
        CL_SUCCESS
    );
    assert_code!(call!(fx.t; clReleaseEvent(ue)), CL_SUCCESS);
}

fn read_write_buffer(t: &Cl) {
    let fx = Fix::new(t);
    let mut host = vec![0u8; SIZE];
    let hp: *mut c_void = host.as_mut_ptr().cast();
    for write in [false, true] {
        let f = |q: cl_command_queue,
                 m: cl_mem,
                 off: usize,
                 n: usize,
                 p: *mut c_void,
                 ne: cl_uint,
                 l: *const cl_event| {
            if write {
                call!(t; clEnqueueWriteBuffer(q, m, CL_FALSE, off, n, p, ne, l, null()))
            } else {
                call!(t; clEnqueueReadBuffer(q, m, CL_FALSE, off, n, p, ne, l, null()))
            }
        };
        let w = if write { "write" } else { "read" };
        assert_code!(
            f(null(), fx.a, 0, 4, hp, 0, null()),
            CL_INVALID_COMMAND_QUEUE,
            "{w}: NULL queue"
        );
        assert_code!(
            f(fx.ctx as _, fx.a, 0, 4, hp, 0, null()),
            CL_INVALID_COMMAND_QUEUE,
            "{w}: a context as queue"
        );
        assert_code!(
            f(fx.q, null(), 0, 4, hp, 0, null()),
            CL_INVALID_MEM_OBJECT,
            "{w}: NULL buffer"
        );
        assert_code!(
            f(fx.q, fx.ctx as _, 0, 4, hp, 0, null()),
            CL_INVALID_MEM_OBJECT,
            "{w}: a context as buffer"
        );
        assert_code!(
            f(fx.q, fx.other, 0, 4, hp, 0, null()),
            CL_INVALID_CONTEXT,
            "{w}: a buffer of another context"
        );
        assert_code!(
            f(fx.q, fx.a, SIZE - 3, 4, hp, 0, null()),
            CL_INVALID_VALUE,
            "{w}: one byte past the end"
        );
        assert_code!(
            f(fx.q, fx.a, SIZE, 1, hp, 0, null()),
            CL_INVALID_VALUE,
            "{w}: offset at the end"
        );
        assert_code!(
            f(fx.q, fx.a, usize::MAX, 2, hp, 0, null()),
            CL_INVALID_VALUE,
            "{w}: offset + size overflows"
        );
        assert_code!(
            f(fx.q, fx.a, 2, usize::MAX, hp, 0, null()),
            CL_INVALID_VALUE,
            "{w}: size overflows"
        );
        assert_code!(
            f(fx.q, fx.a, 0, 4, null(), 0, null()),
            CL_INVALID_VALUE,
            "{w}: ptr NULL"
        );
        wait_list_cases(&fx, w, &|n, l| f(fx.q, fx.a, 0, 4, hp, n, l));
        // Order: the queue before the buffer, the buffer before the range.
        assert_code!(
            f(fx.ctx as _, null(), SIZE, 4, null(), 0, null()),
            CL_INVALID_COMMAND_QUEUE,
            "{w}: all bad"
        );
        assert_code!(
            f(fx.q, null(), SIZE, 4, null(), 0, null()),
            CL_INVALID_MEM_OBJECT,
            "{w}: buffer and range bad"
        );
        // Host access flags.
        let denied = if write {
            CL_MEM_HOST_READ_ONLY
        } else {
            CL_MEM_HOST_WRITE_ONLY
        };
        for flags in [denied, CL_MEM_HOST_NO_ACCESS] {
            let m = t.buffer(fx.ctx, flags, SIZE);
            assert_code!(
                f(fx.q, m, 0, 4, hp, 0, null()),
                CL_INVALID_OPERATION,
                "{w}: buffer flags {flags:#x}"
            );
            assert_code!(call!(t; clReleaseMemObject(m)), CL_SUCCESS);
        }
        // Size 0 is not listed as an error for read/write: a valid command.
        assert_code!(
            f(fx.q, fx.a, 0, 4, hp, 0, null()),
            CL_SUCCESS,
            "{w}: a valid command"
        );
        assert_code!(call!(t; clFinish(fx.q)), CL_SUCCESS);
    }
    drop(fx);
}

fn copy_buffer(t: &Cl) {
    let fx = Fix::new(t);
    let f = |q: cl_command_queue,
             s: cl_mem,
             d: cl_mem,
             so: usize,
             dof: usize,
             n: usize,
             ne: cl_uint,
             l: *const cl_event| {
        call!(t; clEnqueueCopyBuffer(q, s, d, so, dof, n, ne, l, null()))
    };
    assert_code!(
        f(null(), fx.a, fx.b, 0, 0, 4, 0, null()),
        CL_INVALID_COMMAND_QUEUE
    );
    assert_code!(
        f(fx.a as _, fx.a, fx.b, 0, 0, 4, 0, null()),
        CL_INVALID_COMMAND_QUEUE
    );
    assert_code!(
        f(fx.q, null(), fx.b, 0, 0, 4, 0, null()),
        CL_INVALID_MEM_OBJECT,
        "NULL src"
    );
    assert_code!(
        f(fx.q, fx.a, fx.q as _, 0, 0, 4, 0, null()),
        CL_INVALID_MEM_OBJECT,
        "a queue as dst"
    );
    assert_code!(
        f(fx.q, fx.other, fx.b, 0, 0, 4, 0, null()),
        CL_INVALID_CONTEXT,
        "src of another context"
    );
    assert_code!(
        f(fx.q, fx.a, fx.other, 0, 0, 4, 0, null()),
        CL_INVALID_CONTEXT,
        "dst of another context"
    );
    assert_code!(
        f(fx.q, fx.a, fx.b, SIZE - 3, 0, 4, 0, null()),
        CL_INVALID_VALUE,
        "src range past the end"
    );
    assert_code!(
        f(fx.q, fx.a, fx.b, 0, SIZE - 3, 4, 0, null()),
        CL_INVALID_VALUE,
        "dst range past the end"
    );
    assert_code!(
        f(fx.q, fx.a, fx.b, usize::MAX - 1, 0, 4, 0, null()),
        CL_INVALID_VALUE,
        "src offset + size overflows"
    );
    assert_code!(
        f(fx.q, fx.a, fx.b, 0, usize::MAX - 1, 4, 0, null()),
        CL_INVALID_VALUE,
        "dst offset + size overflows"
    );
    assert_code!(
        f(fx.q, fx.a, fx.a, 0, 8, 16, 0, null()),
        CL_MEM_COPY_OVERLAP,
        "overlapping copy in one buffer"
    );
    assert_code!(
        f(fx.q, fx.a, fx.a, 0, 16, 16, 0, null()),
        CL_SUCCESS,
        "adjacent ranges do not overlap"
    );
    wait_list_cases(&fx, "copy", &|n, l| f(fx.q, fx.a, fx.b, 0, 0, 4, n, l));
    // Overlap through two sub-buffers of one parent.
    let region = |origin, size| cl_buffer_region { origin, size };
    let mut e = 0;
    let mut align_bits: cl_uint = 0;
    assert_code!(
        call!(t; clGetDeviceInfo(t.device(), CL_DEVICE_MEM_BASE_ADDR_ALIGN, 4, (&mut align_bits as *mut u32).cast(), null())),
        CL_SUCCESS
    );
    let align = (align_bits / 8) as usize;
    let parent = t.buffer(fx.ctx, CL_MEM_READ_WRITE, 4 * align);
    let r1 = region(0, 2 * align);
    let r2 = region(align, 2 * align);
    let s1 = call!(t; clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, (&r1 as *const cl_buffer_region).cast(), &mut e));
    assert_code!(e, CL_SUCCESS);
    let s2 = call!(t; clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, (&r2 as *const cl_buffer_region).cast(), &mut e));
    assert_code!(e, CL_SUCCESS);
    assert_code!(
        f(fx.q, s1, s2, align, 0, align, 0, null()),
        CL_MEM_COPY_OVERLAP,
        "sub-buffers of one parent overlapping"
    );
    assert_code!(
        f(fx.q, s1, s2, 0, align, align, 0, null()),
        CL_SUCCESS,
        "sub-buffers, disjoint ranges"
    );
    assert_code!(call!(t; clFinish(fx.q)), CL_SUCCESS);
    for m in [s1, s2, parent] {
        assert_code!(call!(t; clReleaseMemObject(m)), CL_SUCCESS);
    }
    drop(fx);
}

#[allow(clippy::too_many_arguments)]
fn rect_rw(
    t: &Cl,
    write: bool,
    q: cl_command_queue,
    m: cl_mem,
    bo: *const usize,
    ho: *const usize,
    r: *const usize,
    brp: usize,
    bsp: usize,
    hrp: usize,
    hsp: usize,
    p: *mut c_void,
) -> cl_int {
    if write {
        call!(t; clEnqueueWriteBufferRect(q, m, CL_TRUE, bo, ho, r, brp, bsp, hrp, hsp, p, 0, null(), null()))
    } else {
        call!(t; clEnqueueReadBufferRect(q, m, CL_TRUE, bo, ho, r, brp, bsp, hrp, hsp, p, 0, null(), null()))
    }
}

fn read_write_buffer_rect(t: &Cl) {
    let fx = Fix::new(t);
    let mut host = vec![0u8; SIZE];
    let hp: *mut c_void = host.as_mut_ptr().cast();
    let z = [0usize; 3];
    let reg = [16usize, 4, 2];
    for write in [false, true] {
        let w = if write { "write rect" } else { "read rect" };
        let f = |q, m, bo: &[usize; 3], r: &[usize; 3], brp, bsp, hrp, hsp, p| {
            rect_rw(
                t,
                write,
                q,
                m,
                bo.as_ptr(),
                z.as_ptr(),
                r.as_ptr(),
                brp,
                bsp,
                hrp,
                hsp,
                p,
            )
        };
        assert_code!(
            f(null(), fx.a, &z, &reg, 16, 64, 16, 64, hp),
            CL_INVALID_COMMAND_QUEUE,
            "{w}"
        );
        assert_code!(
            f(fx.q, fx.ctx as _, &z, &reg, 16, 64, 16, 64, hp),
            CL_INVALID_MEM_OBJECT,
            "{w}"
        );
        assert_code!(
            f(fx.q, fx.other, &z, &reg, 16, 64, 16, 64, hp),
            CL_INVALID_CONTEXT,
            "{w}"
        );
        assert_code!(
            rect_rw(
                t,
                write,
                fx.q,
                fx.a,
                null(),
                z.as_ptr(),
                reg.as_ptr(),
                16,
                64,
                16,
                64,
                hp
            ),
            CL_INVALID_VALUE,
            "{w}: buffer_origin NULL"
        );
        assert_code!(
            rect_rw(
                t,
                write,
                fx.q,
                fx.a,
                z.as_ptr(),
                null(),
                reg.as_ptr(),
                16,
                64,
                16,
                64,
                hp
            ),
            CL_INVALID_VALUE,
            "{w}: host_origin NULL"
        );
        assert_code!(
            rect_rw(
                t,
                write,
                fx.q,
                fx.a,
                z.as_ptr(),
                z.as_ptr(),
                null(),
                16,
                64,
                16,
                64,
                hp
            ),
            CL_INVALID_VALUE,
            "{w}: region NULL"
        );
        assert_code!(
            f(fx.q, fx.a, &z, &[16, 0, 1], 16, 64, 16, 64, hp),
            CL_INVALID_VALUE,
            "{w}: region[1] 0"
        );
        assert_code!(
            f(fx.q, fx.a, &z, &reg, 8, 64, 16, 64, hp),
            CL_INVALID_VALUE,
            "{w}: buffer_row_pitch < region[0]"
        );
        assert_code!(
            f(fx.q, fx.a, &z, &reg, 16, 32, 16, 64, hp),
            CL_INVALID_VALUE,
            "{w}: buffer_slice_pitch < region[1] * row pitch"
        );
        assert_code!(
            f(fx.q, fx.a, &z, &reg, 16, 72, 16, 64, hp),
            CL_INVALID_VALUE,
            "{w}: buffer_slice_pitch not a multiple of the row pitch"
        );
        assert_code!(
            f(fx.q, fx.a, &z, &reg, 16, 64, 8, 64, hp),
            CL_INVALID_VALUE,
            "{w}: host_row_pitch < region[0]"
        );
        assert_code!(
            f(fx.q, fx.a, &z, &reg, 16, 64, 16, 72, hp),
            CL_INVALID_VALUE,
            "{w}: host_slice_pitch not a multiple"
        );
        assert_code!(
            f(fx.q, fx.a, &z, &reg, 16, 64, 16, 64, null()),
            CL_INVALID_VALUE,
            "{w}: ptr NULL"
        );
        assert_code!(
            f(fx.q, fx.a, &[0, 0, 16], &reg, 16, 64, 16, 64, hp),
            CL_INVALID_VALUE,
            "{w}: slices past the end"
        );
        assert_code!(
            f(
                fx.q,
                fx.a,
                &[usize::MAX - 4, 0, 0],
                &reg,
                16,
                64,
                16,
                64,
                hp
            ),
            CL_INVALID_VALUE,
            "{w}: origin overflows"
        );
        assert_code!(
            f(fx.q, fx.a, &z, &[16, 4, 2], usize::MAX / 2, 0, 16, 64, hp),
            CL_INVALID_VALUE,
            "{w}: pitch * rows overflows"
        );
        assert_code!(
            f(
                fx.q,
                fx.a,
                &[0, 0, 2],
                &reg,
                16,
                (usize::MAX / 2) & !15,
                16,
                64,
                hp
            ),
            CL_INVALID_VALUE,
            "{w}: slice offset overflows"
        );
        assert_code!(
            f(fx.q, fx.a, &z, &reg, 16, 64, 16, 64, hp),
            CL_SUCCESS,
            "{w}: valid"
        );
        assert_code!(
            f(fx.q, fx.a, &z, &reg, 0, 0, 0, 0, hp),
            CL_SUCCESS,
            "{w}: pitches 0 are computed"
        );
    }
    let ro = t.buffer(fx.ctx, CL_MEM_HOST_READ_ONLY, SIZE);
    assert_code!(
        rect_rw(
            t,
            true,
            fx.q,
            ro,
            z.as_ptr(),
            z.as_ptr(),
            reg.as_ptr(),
            16,
            64,
            16,
            64,
            hp
        ),
        CL_INVALID_OPERATION,
        "write rect into a HOST_READ_ONLY buffer"
    );
    assert_code!(call!(t; clReleaseMemObject(ro)), CL_SUCCESS);
    drop(fx);
}

fn copy_buffer_rect(t: &Cl) {
    let fx = Fix::new(t);
    let z = [0usize; 3];
    let reg = [16usize, 4, 2];
    let f = |q, s, d, so: &[usize; 3], dof: &[usize; 3], r: &[usize; 3], srp, ssp, drp, dsp| call!(t; clEnqueueCopyBufferRect(q, s, d, so.as_ptr(), dof.as_ptr(), r.as_ptr(), srp, ssp, drp, dsp, 0, null(), null()));
    assert_code!(
        f(null(), fx.a, fx.b, &z, &z, &reg, 16, 64, 16, 64),
        CL_INVALID_COMMAND_QUEUE
    );
    assert_code!(
        f(fx.q, fx.a, fx.ctx as _, &z, &z, &reg, 16, 64, 16, 64),
        CL_INVALID_MEM_OBJECT
    );
    assert_code!(
        f(fx.q, fx.other, fx.b, &z, &z, &reg, 16, 64, 16, 64),
        CL_INVALID_CONTEXT
    );
    assert_code!(
        call!(t; clEnqueueCopyBufferRect(fx.q, fx.a, fx.b, null(), z.as_ptr(), reg.as_ptr(), 16, 64, 16, 64, 0, null(), null())),
        CL_INVALID_VALUE,
        "src_origin NULL"
    );
    assert_code!(
        f(fx.q, fx.a, fx.b, &z, &z, &[0, 4, 2], 16, 64, 16, 64),
        CL_INVALID_VALUE,
        "region[0] 0"
    );
    assert_code!(
        f(fx.q, fx.a, fx.b, &z, &z, &reg, 8, 64, 16, 64),
        CL_INVALID_VALUE,
        "src_row_pitch < region[0]"
    );
    assert_code!(
        f(fx.q, fx.a, fx.b, &z, &z, &reg, 16, 64, 16, 40),
        CL_INVALID_VALUE,
        "dst_slice_pitch < rows * pitch"
    );
    assert_code!(
        f(fx.q, fx.a, fx.b, &[0, 0, 15], &z, &reg, 16, 64, 16, 64),
        CL_INVALID_VALUE,
        "src past the end"
    );
    assert_code!(
        f(
            fx.q,
            fx.a,
            fx.b,
            &z,
            &[0, usize::MAX / 16, 0],
            &reg,
            16,
            64,
            16,
            64
        ),
        CL_INVALID_VALUE,
        "dst origin overflows"
    );
    assert_code!(
        f(fx.q, fx.a, fx.a, &z, &[0, 0, 1], &reg, 16, 64, 32, 128),
        CL_INVALID_VALUE,
        "same buffer, different pitches"
    );
    assert_code!(
        f(fx.q, fx.a, fx.a, &z, &[8, 0, 0], &reg, 16, 64, 16, 64),
        CL_MEM_COPY_OVERLAP,
        "same buffer, overlapping"
    );
    assert_code!(
        f(fx.q, fx.a, fx.a, &z, &[0, 0, 2], &reg, 16, 64, 16, 64),
        CL_SUCCESS,
        "same buffer, disjoint slices"
    );
    assert_code!(
        f(fx.q, fx.a, fx.b, &z, &z, &reg, 16, 64, 16, 64),
        CL_SUCCESS
    );
    drop(fx);
}

fn fill_buffer(t: &Cl) {
    let fx = Fix::new(t);
    let pat = [1u8, 2, 3, 4, 5, 6, 7, 8];
    let pp: *const c_void = pat.as_ptr().cast();
    let f = |q,
             m,
             p: *const c_void,
             ps: usize,
             off: usize,
             n: usize,
             ne: cl_uint,
             l: *const cl_event| {
        call!(t; clEnqueueFillBuffer(q, m, p, ps, off, n, ne, l, null()))
    };
    assert_code!(
        f(null(), fx.a, pp, 4, 0, 16, 0, null()),
        CL_INVALID_COMMAND_QUEUE
    );
    assert_code!(
        f(fx.q, fx.q as _, pp, 4, 0, 16, 0, null()),
        CL_INVALID_MEM_OBJECT
    );
    assert_code!(
        f(fx.q, fx.other, pp, 4, 0, 16, 0, null()),
        CL_INVALID_CONTEXT
    );
    assert_code!(
        f(fx.q, fx.a, null(), 4, 0, 16, 0, null()),
        CL_INVALID_VALUE,
        "pattern NULL"
    );
    assert_code!(
        f(fx.q, fx.a, pp, 0, 0, 16, 0, null()),
        CL_INVALID_VALUE,
        "pattern_size 0"
    );
    assert_code!(
        f(fx.q, fx.a, pp, 3, 0, 15, 0, null()),
        CL_INVALID_VALUE,
        "pattern_size 3"
    );
    let big = [0u8; 256];
    assert_code!(
        f(fx.q, fx.a, big.as_ptr().cast(), 256, 0, 256, 0, null()),
        CL_INVALID_VALUE,
        "pattern_size 256"
    );
    assert_code!(
        f(fx.q, fx.a, big.as_ptr().cast(), 128, 0, 256, 0, null()),
        CL_SUCCESS,
        "pattern_size 128"
    );
    assert_code!(
        f(fx.q, fx.a, pp, 4, 2, 16, 0, null()),
        CL_INVALID_VALUE,
        "offset not a multiple"
    );
    assert_code!(
        f(fx.q, fx.a, pp, 4, 0, 18, 0, null()),
        CL_INVALID_VALUE,
        "size not a multiple"
    );
    assert_code!(
        f(fx.q, fx.a, pp, 4, SIZE - 4, 8, 0, null()),
        CL_INVALID_VALUE,
        "past the end"
    );
    assert_code!(
        f(fx.q, fx.a, pp, 8, usize::MAX - 7, 16, 0, null()),
        CL_INVALID_VALUE,
        "offset + size overflows"
    );
    wait_list_cases(&fx, "fill", &|n, l| f(fx.q, fx.a, pp, 4, 0, 16, n, l));
    // Fill ignores host-access flags (it is a device-side command).
    let m = t.buffer(fx.ctx, CL_MEM_HOST_NO_ACCESS, 64);
    assert_code!(
        f(fx.q, m, pp, 8, 0, 64, 0, null()),
        CL_SUCCESS,
        "fill of a HOST_NO_ACCESS buffer"
    );
    assert_code!(call!(t; clFinish(fx.q)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseMemObject(m)), CL_SUCCESS);
    drop(fx);
}

fn map_unmap(t: &Cl) {
    let fx = Fix::new(t);
    let map = |q, m, flags, off, n, ne: cl_uint, l: *const cl_event| -> (*mut c_void, cl_int) {
        let mut e = 0;
        let p = call!(t; clEnqueueMapBuffer(q, m, CL_TRUE, flags, off, n, ne, l, null(), &mut e));
        assert_eq!(
            p.is_null(),
            e != CL_SUCCESS,
            "a pointer exactly when CL_SUCCESS ({e})"
        );
        (p, e)
    };
    assert_code!(
        map(null(), fx.a, CL_MAP_READ, 0, 16, 0, null()).1,
        CL_INVALID_COMMAND_QUEUE
    );
    assert_code!(
        map(fx.q, fx.ctx as _, CL_MAP_READ, 0, 16, 0, null()).1,
        CL_INVALID_MEM_OBJECT
    );
    assert_code!(
        map(fx.q, fx.other, CL_MAP_READ, 0, 16, 0, null()).1,
        CL_INVALID_CONTEXT
    );
    assert_code!(
        map(fx.q, fx.a, CL_MAP_READ, 0, 0, 0, null()).1,
        CL_INVALID_VALUE,
        "size 0"
    );
    assert_code!(
        map(fx.q, fx.a, CL_MAP_READ, SIZE - 8, 16, 0, null()).1,
        CL_INVALID_VALUE,
        "past the end"
    );
    assert_code!(
        map(fx.q, fx.a, CL_MAP_READ, usize::MAX - 7, 16, 0, null()).1,
        CL_INVALID_VALUE,
        "overflow"
    );
    assert_code!(
        map(fx.q, fx.a, 1 << 10, 0, 16, 0, null()).1,
        CL_INVALID_VALUE,
        "unknown map flag"
    );
    assert_code!(
        map(
            fx.q,
            fx.a,
            CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION,
            0,
            16,
            0,
            null()
        )
        .1,
        CL_INVALID_VALUE,
        "READ with WRITE_INVALIDATE_REGION"
    );
    wait_list_cases(&fx, "map", &|n, l| {
        let (p, e) = map(fx.q, fx.a, CL_MAP_READ, 0, 16, n, l);
        if !p.is_null() {
            assert_code!(
                call!(t; clEnqueueUnmapMemObject(fx.q, fx.a, p, 0, null(), null())),
                CL_SUCCESS
            );
        }
        e
    });
    let wo = t.buffer(fx.ctx, CL_MEM_HOST_WRITE_ONLY, 64);
    assert_code!(
        map(fx.q, wo, CL_MAP_READ, 0, 16, 0, null()).1,
        CL_INVALID_OPERATION,
        "MAP_READ of HOST_WRITE_ONLY"
    );
    let ro = t.buffer(fx.ctx, CL_MEM_HOST_READ_ONLY, 64);
    assert_code!(
        map(fx.q, ro, CL_MAP_WRITE, 0, 16, 0, null()).1,
        CL_INVALID_OPERATION,
        "MAP_WRITE of HOST_READ_ONLY"
    );
    assert_code!(
        map(fx.q, ro, CL_MAP_WRITE_INVALIDATE_REGION, 0, 16, 0, null()).1,
        CL_INVALID_OPERATION,
        "MAP_WRITE_INVALIDATE_REGION of HOST_READ_ONLY"
    );

    // A valid map counts in CL_MEM_MAP_COUNT; unmap checks its pointer.
    let (p, e) = map(fx.q, fx.a, CL_MAP_WRITE, 64, 32, 0, null());
    assert_code!(e, CL_SUCCESS);
    let mut count: cl_uint = 0;
    assert_code!(
        call!(t; clGetMemObjectInfo(fx.a, CL_MEM_MAP_COUNT, 4, (&mut count as *mut u32).cast(), null())),
        CL_SUCCESS
    );
    assert_eq!(count, 1, "CL_MEM_MAP_COUNT after one map");
    let unmap = |q, m, ptr: *mut c_void, ne: cl_uint, l: *const cl_event| call!(t; clEnqueueUnmapMemObject(q, m, ptr, ne, l, null()));
    assert_code!(unmap(null(), fx.a, p, 0, null()), CL_INVALID_COMMAND_QUEUE);
    assert_code!(
        unmap(fx.q, fx.ctx as _, p, 0, null()),
        CL_INVALID_MEM_OBJECT
    );
    assert_code!(
        unmap(fx.q, fx.other, p, 0, null()),
        CL_INVALID_CONTEXT,
        "unmap of a buffer of another context"
    );
    assert_code!(
        unmap(fx.q, fx.b, p, 0, null()),
        CL_INVALID_VALUE,
        "a pointer mapped from another buffer"
    );
    let mut x = 0u8;
    assert_code!(
        unmap(fx.q, fx.a, (&mut x as *mut u8).cast(), 0, null()),
        CL_INVALID_VALUE,
        "a pointer never mapped"
    );
    assert_code!(unmap(fx.q, fx.a, p, 1, null()), CL_INVALID_EVENT_WAIT_LIST);
    assert_code!(unmap(fx.q, fx.a, p, 0, null()), CL_SUCCESS);
    assert_code!(call!(t; clFinish(fx.q)), CL_SUCCESS);
    assert_code!(
        call!(t; clGetMemObjectInfo(fx.a, CL_MEM_MAP_COUNT, 4, (&mut count as *mut u32).cast(), null())),
        CL_SUCCESS
    );
    assert_eq!(count, 0, "CL_MEM_MAP_COUNT after the unmap");
    assert_code!(
        unmap(fx.q, fx.a, p, 0, null()),
        CL_INVALID_VALUE,
        "a pointer unmapped twice"
    );
    // Overlapping maps: two for reading may overlap; one for writing may not
    // overlap any other map of the buffer.
    let (r1, e) = map(fx.q, fx.b, CL_MAP_READ, 0, 64, 0, null());
    assert_code!(e, CL_SUCCESS);
    let (r2, e) = map(fx.q, fx.b, CL_MAP_READ, 32, 64, 0, null());
    assert_code!(e, CL_SUCCESS, "two overlapping read maps");
    let (w, e) = map(fx.q, fx.b, CL_MAP_WRITE, 48, 16, 0, null());
    assert!(w.is_null());
    assert_code!(e, CL_INVALID_OPERATION, "a write map overlapping read maps");
    let (w, e) = map(fx.q, fx.b, CL_MAP_WRITE, 256, 64, 0, null());
    assert_code!(e, CL_SUCCESS, "a write map of a disjoint range");
    let (w2, e) = map(
        fx.q,
        fx.b,
        CL_MAP_WRITE_INVALIDATE_REGION,
        300,
        8,
        0,
        null(),
    );
    assert!(w2.is_null());
    assert_code!(e, CL_INVALID_OPERATION, "a write map inside a write map");
    for ptr in [r1, r2, w] {
        assert_code!(unmap(fx.q, fx.b, ptr, 0, null()), CL_SUCCESS);
    }
    assert_code!(call!(t; clFinish(fx.q)), CL_SUCCESS);
    let (w, e) = map(fx.q, fx.b, CL_MAP_WRITE, 0, 64, 0, null());
    assert_code!(e, CL_SUCCESS, "a write map once the others are unmapped");
    assert_code!(unmap(fx.q, fx.b, w, 0, null()), CL_SUCCESS);
    for m in [wo, ro] {
        assert_code!(call!(t; clReleaseMemObject(m)), CL_SUCCESS);
    }
    drop(fx);
}

fn migrate(t: &Cl) {
    let fx = Fix::new(t);
    let list = [fx.a, fx.b];
    let f = |q, n: cl_uint, l: *const cl_mem, flags| call!(t; clEnqueueMigrateMemObjects(q, n, l, flags, 0, null(), null()));
    assert_code!(f(null(), 2, list.as_ptr(), 0), CL_INVALID_COMMAND_QUEUE);
    assert_code!(
        f(fx.q, 0, list.as_ptr(), 0),
        CL_INVALID_VALUE,
        "num_mem_objects 0"
    );
    assert_code!(f(fx.q, 2, null(), 0), CL_INVALID_VALUE, "mem_objects NULL");
    assert_code!(
        f(fx.q, 2, list.as_ptr(), 1 << 8),
        CL_INVALID_VALUE,
        "unknown flag"
    );
    let bad = [fx.a, fx.ctx as cl_mem];
    assert_code!(f(fx.q, 2, bad.as_ptr(), 0), CL_INVALID_MEM_OBJECT);
    let mixed = [fx.a, fx.other];
    assert_code!(f(fx.q, 2, mixed.as_ptr(), 0), CL_INVALID_CONTEXT);
    assert_code!(
        call!(t; clEnqueueMigrateMemObjects(fx.q, 2, list.as_ptr(), 0, 1, null(), null())),
        CL_INVALID_EVENT_WAIT_LIST
    );
    assert_code!(
        f(fx.q, 2, list.as_ptr(), CL_MIGRATE_MEM_OBJECT_HOST),
        CL_SUCCESS
    );
    assert_code!(
        f(
            fx.q,
            2,
            list.as_ptr(),
            CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED
        ),
        CL_SUCCESS
    );
    drop(fx);
}

/// A blocking command whose wait list holds a failed event answers
/// CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST; a non-blocking one fails
/// through its event.
fn failed_dependency(t: &Cl) {
    let fx = Fix::new(t);
    let mut host = vec![0u8; 16];
    let hp: *mut c_void = host.as_mut_ptr().cast();
    let ue = t.user_event(fx.ctx);
    let mut ev: cl_event = null();
    assert_code!(
        call!(t; clEnqueueWriteBuffer(fx.q, fx.a, CL_FALSE, 0, 16, hp, 1, &ue, &mut ev)),
        CL_SUCCESS
    );
    assert_code!(call!(t; clSetUserEventStatus(ue, -1234)), CL_SUCCESS);
    assert_code!(
        call!(t; clWaitForEvents(1, &ev)),
        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
    );
    let mut st: cl_int = 0;
    assert_code!(
        call!(t; clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, 4, (&mut st as *mut i32).cast(), null())),
        CL_SUCCESS
    );
    assert!(
        st < 0,
        "a command whose dependency failed fails too: status {st}"
    );
    assert_code!(
        call!(t; clEnqueueReadBuffer(fx.q, fx.b, CL_TRUE, 0, 16, hp, 1, &ue, null())),
        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
        "a blocking read after a failed event"
    );
    assert_code!(call!(t; clReleaseEvent(ev)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseEvent(ue)), CL_SUCCESS);
    drop(fx);
}

both_ways!(
    read_write_buffer,
    copy_buffer,
    read_write_buffer_rect,
    copy_buffer_rect,
    fill_buffer,
    map_unmap,
    migrate,
    failed_dependency,
);
