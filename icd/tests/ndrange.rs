//! clEnqueueNDRangeKernel and clEnqueueTask through the rlib: the spec's
//! errors in order, geometry (offsets, 3-D, non-uniform groups, chosen local
//! sizes), local memory arguments, many groups in parallel, and kernel
//! faults reported as failed events, never a crash.

mod common;
mod program_common;

use common::*;
use program_common::*;
use std::sync::Mutex;

fn built(ctx: cl_context, src: &str, opts: &str) -> cl_program {
    let p = source(ctx, &[src]);
    assert_eq!(build(p, opts), CL_SUCCESS, "{}", build_log(p));
    p
}

fn nd(
    q: cl_command_queue,
    k: cl_kernel,
    dim: u32,
    off: Option<&[usize]>,
    g: Option<&[usize]>,
    l: Option<&[usize]>,
) -> cl_int {
    let o = off.map_or(ptr::null(), |v| v.as_ptr());
    let gp = g.map_or(ptr::null(), |v| v.as_ptr());
    let lp = l.map_or(ptr::null(), |v| v.as_ptr());
    // SAFETY: arrays of `dim` entries (or NULL).
    unsafe { clEnqueueNDRangeKernel(q, k, dim, o, gp, lp, 0, ptr::null(), ptr::null_mut()) }
}

const IDS: &str = "
kernel void ids(global uint *out) {
    size_t i = (get_global_id(2) - get_global_offset(2)) * get_global_size(1) * get_global_size(0)
             + (get_global_id(1) - get_global_offset(1)) * get_global_size(0)
             + (get_global_id(0) - get_global_offset(0));
    out[i] = (uint)(get_global_id(0) * 1000000 + get_global_id(1) * 1000 + get_global_id(2));
}
__attribute__((reqd_work_group_size(2, 1, 1)))
kernel void two(global int *out) { out[get_global_id(0)] = 1; }
kernel void big_local(global int *out) {
    local int t[70000];
    t[get_local_id(0)] = 1;
    out[0] = t[0];
}
kernel void la(global int *out, local int *t) { t[0] = 1; out[0] = t[0]; }
";

/// OpenCL C 2.0 and newer only (get_enqueued_local_size).
const SIZES: &str = "
kernel void sizes(global uint *out) {
    size_t i = get_global_id(0);
    out[i] = (uint)(get_local_size(0) * 1000 + get_enqueued_local_size(0));
}";

#[test]
fn errors_in_spec_order() {
    let ctx = context();
    let p = built(ctx, IDS, "");
    let k = kernel(p, "ids");
    let q = queue(ctx, 0);
    let g = [8usize];
    // Unset argument.
    assert_eq!(nd(q, k, 1, None, Some(&g), None), CL_INVALID_KERNEL_ARGS);
    let m = buffer(ctx, 4096);
    assert_eq!(set_mem_arg(k, 0, m), CL_SUCCESS);
    assert_eq!(
        nd(ptr::null_mut(), k, 1, None, Some(&g), None),
        CL_INVALID_COMMAND_QUEUE
    );
    assert_eq!(
        nd(q, ptr::null_mut(), 1, None, Some(&g), None),
        CL_INVALID_KERNEL
    );
    let ctx2 = context();
    let q2 = queue(ctx2, 0);
    assert_eq!(nd(q2, k, 1, None, Some(&g), None), CL_INVALID_CONTEXT);
    assert_eq!(nd(q, k, 0, None, Some(&g), None), CL_INVALID_WORK_DIMENSION);
    assert_eq!(
        nd(q, k, 4, None, Some(&[1, 1, 1, 1]), None),
        CL_INVALID_WORK_DIMENSION
    );
    assert_eq!(
        nd(q, k, 1, Some(&[usize::MAX]), Some(&g), None),
        CL_INVALID_GLOBAL_OFFSET
    );
    // Built for OpenCL C 1.2: groups must be uniform.
    assert_eq!(
        nd(q, k, 1, None, Some(&[10]), Some(&[4])),
        CL_INVALID_WORK_GROUP_SIZE
    );
    assert_eq!(
        nd(q, k, 1, None, Some(&g), Some(&[0])),
        CL_INVALID_WORK_GROUP_SIZE
    );
    assert_eq!(
        nd(q, k, 2, None, Some(&[4096, 4096]), Some(&[4096, 4096])),
        CL_INVALID_WORK_GROUP_SIZE
    );
    let two = kernel(p, "two");
    assert_eq!(set_mem_arg(two, 0, m), CL_SUCCESS);
    assert_eq!(
        nd(q, two, 1, None, Some(&g), Some(&[4])),
        CL_INVALID_WORK_GROUP_SIZE
    );
    assert_eq!(nd(q, two, 1, None, Some(&g), Some(&[2])), CL_SUCCESS);
    assert_eq!(nd(q, two, 1, None, Some(&g), None), CL_SUCCESS);
    // SAFETY: valid handles.
    assert_eq!(
        unsafe { clEnqueueTask(q, two, 0, ptr::null(), ptr::null_mut()) },
        CL_INVALID_WORK_GROUP_SIZE
    );
    // Too much local memory: an error at enqueue.
    let big = kernel(p, "big_local");
    assert_eq!(set_mem_arg(big, 0, m), CL_SUCCESS);
    assert_eq!(
        nd(q, big, 1, None, Some(&[4]), Some(&[4])),
        CL_OUT_OF_RESOURCES
    );
    let la = kernel(p, "la");
    assert_eq!(set_mem_arg(la, 0, m), CL_SUCCESS);
    // SAFETY: a local argument: NULL value.
    assert_eq!(
        unsafe { clSetKernelArg(la, 1, 1 << 30, ptr::null()) },
        CL_SUCCESS
    );
    assert_eq!(nd(q, la, 1, None, Some(&[1]), None), CL_OUT_OF_RESOURCES);
    // SAFETY: as above.
    assert_eq!(
        unsafe { clSetKernelArg(la, 1, 64, ptr::null()) },
        CL_SUCCESS
    );
    assert_eq!(nd(q, la, 1, None, Some(&[1]), None), CL_SUCCESS);
    // Wait-list rules come from the executor.
    // SAFETY: made to fail.
    assert_eq!(
        unsafe {
            clEnqueueNDRangeKernel(
                q,
                k,
                1,
                ptr::null(),
                g.as_ptr(),
                ptr::null(),
                1,
                ptr::null(),
                ptr::null_mut(),
            )
        },
        CL_INVALID_EVENT_WAIT_LIST
    );
    // A NULL global size (or a zero in it): the command succeeds, doing nothing.
    let mut ev = ptr::null_mut();
    // SAFETY: valid handles.
    assert_eq!(
        unsafe {
            clEnqueueNDRangeKernel(
                q,
                k,
                1,
                ptr::null(),
                ptr::null(),
                ptr::null(),
                0,
                ptr::null(),
                &mut ev,
            )
        },
        CL_SUCCESS
    );
    assert_eq!(wait(&[ev]), CL_SUCCESS);
    release_event(ev);
    assert_eq!(nd(q, k, 2, None, Some(&[4, 0]), None), CL_SUCCESS);
    finish(q);
    for kk in [k, two, big, la] {
        release_kernel(kk);
    }
    release_mem(m);
    release_queue(q2);
    release_context(ctx2);
    release_queue(q);
    release_program(p);
    release_context(ctx);
}

#[test]
fn three_dimensions_with_offsets() {
    let ctx = context();
    let p = built(ctx, IDS, "");
    let k = kernel(p, "ids");
    let q = queue(ctx, 0);
    let (g, o, l) = ([6usize, 4, 3], [10usize, 20, 30], [3usize, 2, 1]);
    let n = g.iter().product::<usize>();
    let m = buffer(ctx, n * 4);
    assert_eq!(set_mem_arg(k, 0, m), CL_SUCCESS);
    assert_eq!(nd(q, k, 3, Some(&o), Some(&g), Some(&l)), CL_SUCCESS);
    let out: Vec<u32> = read(q, m, n);
    let mut want = Vec::new();
    for z in 0..g[2] {
        for y in 0..g[1] {
            for x in 0..g[0] {
                want.push(((x + o[0]) * 1000000 + (y + o[1]) * 1000 + (z + o[2])) as u32);
            }
        }
    }
    assert_eq!(out, want);
    release_mem(m);
    release_kernel(k);
    release_queue(q);
    release_program(p);
    release_context(ctx);
}

#[test]
fn non_uniform_groups_under_cl20() {
    let ctx = context();
    let p = built(ctx, SIZES, "-cl-std=CL2.0");
    let k = kernel(p, "sizes");
    let q = queue(ctx, 0);
    let m = buffer(ctx, 10 * 4);
    assert_eq!(set_mem_arg(k, 0, m), CL_SUCCESS);
    assert_eq!(nd(q, k, 1, None, Some(&[10]), Some(&[4])), CL_SUCCESS);
    let out: Vec<u32> = read(q, m, 10);
    assert_eq!(
        out,
        [4004, 4004, 4004, 4004, 4004, 4004, 4004, 4004, 2004, 2004]
    );
    release_program(p);
    // -cl-uniform-work-group-size turns it off again.
    let p = built(ctx, SIZES, "-cl-std=CL2.0 -cl-uniform-work-group-size");
    let k2 = kernel(p, "sizes");
    assert_eq!(set_mem_arg(k2, 0, m), CL_SUCCESS);
    assert_eq!(
        nd(q, k2, 1, None, Some(&[10]), Some(&[4])),
        CL_INVALID_WORK_GROUP_SIZE
    );
    // With no local size we choose uniform groups that divide 10.
    assert_eq!(nd(q, k2, 1, None, Some(&[10]), None), CL_SUCCESS);
    let out: Vec<u32> = read(q, m, 10);
    let l = out[0] / 1000;
    assert!(
        10 % l == 0 && out.iter().all(|&v| v == l * 1000 + l),
        "{out:?}"
    );
    release_kernel(k2);
    release_kernel(k);
    release_mem(m);
    release_queue(q);
    release_program(p);
    release_context(ctx);
}

#[test]
fn many_groups_in_parallel_with_local_reduction() {
    let ctx = context();
    let src = "
kernel void partial_sums(global const float *in, global float *out, local float *t) {
    size_t l = get_local_id(0), n = get_local_size(0);
    t[l] = in[get_global_id(0)];
    for (size_t s = n / 2; s > 0; s /= 2) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (l < s) t[l] += t[l + s];
    }
    if (l == 0) out[get_group_id(0)] = t[0];
}";
    let p = built(ctx, src, "");
    let k = kernel(p, "partial_sums");
    let q = queue(ctx, 0);
    let n = 1 << 16;
    let local = 64usize;
    let input: Vec<f32> = (0..n).map(|i| (i % 97) as f32).collect();
    let a = buffer(ctx, n * 4);
    let b = buffer(ctx, n / local * 4);
    write(q, a, &input);
    assert_eq!(set_mem_arg(k, 0, a), CL_SUCCESS);
    assert_eq!(set_mem_arg(k, 1, b), CL_SUCCESS);
    // SAFETY: a local argument: NULL value.
    assert_eq!(
        unsafe { clSetKernelArg(k, 2, local * 4, ptr::null()) },
        CL_SUCCESS
    );
    assert_eq!(enqueue(q, k, &[n], Some(&[local])), CL_SUCCESS);
    let sums: Vec<f32> = read(q, b, n / local);
    let want: Vec<f32> = input.chunks(local).map(|c| c.iter().sum()).collect();
    assert_eq!(sums, want);
    release_mem(b);
    release_mem(a);
    release_kernel(k);
    release_queue(q);
    release_program(p);
    release_context(ctx);
}

static NOTES: Mutex<Vec<String>> = Mutex::new(Vec::new());
unsafe extern "C" fn on_note(
    info: *const std::ffi::c_char,
    _: *const c_void,
    _: usize,
    _: *mut c_void,
) {
    // SAFETY: the ICD passes a NUL-terminated message.
    let s = unsafe { std::ffi::CStr::from_ptr(info) }
        .to_string_lossy()
        .into_owned();
    NOTES.lock().unwrap().push(s);
}

/// A context whose notify callback records its messages in `NOTES`.
fn noted_context() -> cl_context {
    let d = device();
    let mut rc = 0;
    // SAFETY: one valid device and a callback.
    let ctx =
        unsafe { clCreateContext(ptr::null(), 1, &d, Some(on_note), ptr::null_mut(), &mut rc) };
    assert_eq!(rc, CL_SUCCESS);
    ctx
}

#[test]
fn a_kernel_fault_fails_the_event_and_notifies() {
    let ctx = noted_context();
    // Private memory far beyond what a work-item may have: a KernelFault.
    let src = "kernel void huge(global int *out) { int a[4000000]; a[get_global_id(0)] = 1; out[0] = a[out[1]]; }";
    let p = built(ctx, src, "");
    let k = kernel(p, "huge");
    let m = buffer(ctx, 16);
    assert_eq!(set_mem_arg(k, 0, m), CL_SUCCESS);
    let q = queue(ctx, 0);
    let mut ev = ptr::null_mut();
    let g = [4usize];
    // SAFETY: valid handles.
    let rc = unsafe {
        clEnqueueNDRangeKernel(
            q,
            k,
            1,
            ptr::null(),
            g.as_ptr(),
            ptr::null(),
            0,
            ptr::null(),
            &mut ev,
        )
    };
    assert_eq!(rc, CL_SUCCESS);
    assert_eq!(wait(&[ev]), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    assert!(status(ev) < 0, "{}", status(ev));
    let notes = NOTES.lock().unwrap().clone();
    assert!(notes.iter().any(|n| n.contains("huge")), "{notes:?}");
    release_event(ev);
    release_mem(m);
    release_kernel(k);
    release_queue(q);
    release_program(p);
    release_context(ctx);
}

#[test]
fn task_runs_one_work_item() {
    let ctx = context();
    let p = built(ctx, "kernel void t(global int *o) { o[0] = (int)(get_global_size(0) * 10 + get_local_size(0)); }", "");
    let k = kernel(p, "t");
    let m = buffer(ctx, 4);
    assert_eq!(set_mem_arg(k, 0, m), CL_SUCCESS);
    let q = queue(ctx, 0);
    let mut ev = ptr::null_mut();
    // SAFETY: valid handles.
    assert_eq!(
        unsafe { clEnqueueTask(q, k, 0, ptr::null(), &mut ev) },
        CL_SUCCESS
    );
    let mut ty: cl_command_type = 0;
    // SAFETY: valid out-pointer.
    unsafe {
        assert_eq!(
            clGetEventInfo(
                ev,
                CL_EVENT_COMMAND_TYPE,
                4,
                (&mut ty as *mut u32).cast(),
                ptr::null_mut()
            ),
            CL_SUCCESS
        );
    }
    assert_eq!(ty, CL_COMMAND_TASK);
    assert_eq!(read::<i32>(q, m, 1), vec![11]);
    release_event(ev);
    release_mem(m);
    release_kernel(k);
    release_queue(q);
    release_program(p);
    release_context(ctx);
}

#[test]
fn large_private_arrays_run_on_pool_stacks() {
    let ctx = context();
    // 400 KB of private memory per work-item: more than a caller's stack is
    // trusted with, within what the compiler allows on a thread stack.
    let src = "kernel void k(global int *out) {
        int a[100000];
        int g = get_global_id(0);
        for (int i = 0; i < 100000; i++) a[i] = i ^ g;
        int s = 0;
        for (int i = 0; i < 100000; i += 999) s += a[i];
        out[g] = s;
    }";
    let p = built(ctx, src, "");
    let k = kernel(p, "k");
    let m = buffer(ctx, 8 * 4);
    assert_eq!(set_mem_arg(k, 0, m), CL_SUCCESS);
    let q = queue(ctx, 0);
    for (g, l) in [(1usize, 1usize), (8, 2)] {
        assert_eq!(enqueue(q, k, &[g], Some(&[l])), CL_SUCCESS);
        let out: Vec<i32> = read(q, m, g);
        let want: Vec<i32> = (0..g as i32)
            .map(|g| (0..100000).step_by(999).map(|i| i ^ g).sum())
            .collect();
        assert_eq!(out, want);
    }
    release_queue(q);
    release_mem(m);
    release_kernel(k);
    release_program(p);
    release_context(ctx);
}

#[test]
fn launches_on_two_queues_overlap() {
    let ctx = context();
    // `wait` spins (boundedly) until `set`, enqueued after it on another
    // queue, has run: it can only see the flag if the two launches overlap.
    let src = "
kernel void wait(volatile global int *flag, global int *out) {
    long i = 0;
    while (i < 2000000000L && *flag == 0) i++;
    out[0] = *flag;
}
kernel void set(volatile global int *flag) { *flag = 1; }";
    let p = built(ctx, src, "");
    let (kw, ks) = (kernel(p, "wait"), kernel(p, "set"));
    let flag = buffer(ctx, 4);
    let out = buffer(ctx, 4);
    let (q1, q2) = (queue(ctx, 0), queue(ctx, 0));
    write(q1, flag, &[0i32]);
    write(q1, out, &[-1i32]);
    assert_eq!(set_mem_arg(kw, 0, flag), CL_SUCCESS);
    assert_eq!(set_mem_arg(kw, 1, out), CL_SUCCESS);
    assert_eq!(set_mem_arg(ks, 0, flag), CL_SUCCESS);
    assert_eq!(enqueue(q1, kw, &[1], None), CL_SUCCESS);
    // SAFETY: valid handles.
    unsafe { clFlush(q1) };
    std::thread::sleep(std::time::Duration::from_millis(20));
    assert_eq!(enqueue(q2, ks, &[1], None), CL_SUCCESS);
    finish(q2);
    finish(q1);
    assert_eq!(
        read::<i32>(q1, out, 1),
        vec![1],
        "the second launch ran only after the first"
    );
    for m in [flag, out] {
        release_mem(m);
    }
    for k in [kw, ks] {
        release_kernel(k);
    }
    release_queue(q1);
    release_queue(q2);
    release_program(p);
    release_context(ctx);
}

/// The compute units (which a NULL local size is chosen from) are read from
/// the environment and the OS once per process, not per launch: reading them
/// costs a cgroup file parse each time.
#[test]
fn null_local_size_launches_read_the_unit_count_once() {
    let ctx = context();
    let p = built(
        ctx,
        "kernel void add(global int *o) { o[get_global_id(0)] += 1; }",
        "",
    );
    let k = kernel(p, "add");
    let m = buffer(ctx, 4 * 1000);
    let q = queue(ctx, 0);
    write(q, m, &[0i32; 1000]);
    for _ in 0..50 {
        assert_eq!(set_mem_arg(k, 0, m), CL_SUCCESS);
        assert_eq!(nd(q, k, 1, None, Some(&[1000]), None), CL_SUCCESS);
    }
    finish(q);
    assert_eq!(read::<i32>(q, m, 1000), vec![50; 1000]);
    assert_eq!(
        cranecl::core::device::compute_unit_reads(),
        1,
        "compute units read more than once"
    );
    release_mem(m);
    release_kernel(k);
    release_queue(q);
    release_program(p);
    release_context(ctx);
}

/// A by-value argument set again before each launch (its bytes are reused
/// in place): each launch runs with the value set when it was enqueued.
#[test]
fn each_launch_keeps_the_values_set_when_it_was_enqueued() {
    let ctx = context();
    let p = built(
        ctx,
        "kernel void put(global int *o, int v, int i) { o[i] = v; }",
        "",
    );
    let k = kernel(p, "put");
    let m = buffer(ctx, 4 * 4);
    let q = queue(ctx, 0);
    write(q, m, &[0i32; 4]);
    assert_eq!(set_mem_arg(k, 0, m), CL_SUCCESS);
    for (v, i) in [(7i32, 0i32), (9, 1), (-3, 3)] {
        // SAFETY: 4-byte values for int parameters.
        unsafe {
            assert_eq!(
                clSetKernelArg(k, 1, 4, (&v as *const i32).cast()),
                CL_SUCCESS
            );
            assert_eq!(
                clSetKernelArg(k, 2, 4, (&i as *const i32).cast()),
                CL_SUCCESS
            );
        }
        assert_eq!(nd(q, k, 1, None, Some(&[1]), None), CL_SUCCESS);
    }
    finish(q);
    assert_eq!(read::<i32>(q, m, 4), vec![7, 9, 0, -3]);
    release_mem(m);
    release_kernel(k);
    release_queue(q);
    release_program(p);
    release_context(ctx);
}

/// `-cl-denorms-are-zero`: that program's kernels flush denormal inputs and
/// results to zero, in every way groups are run (one group, rows of
/// one-item groups, groups dealt to the pool); a program built without it,
/// run afterwards on the same threads, keeps denormals, and so does the
/// host thread.
#[test]
fn denorms_are_zero_flushes_that_programs_kernels_only() {
    const SRC: &str = "kernel void add(global float *o, global const float *a) {
        size_t i = get_global_id(0);
        o[i] = a[i] + as_float(64);
    }";
    let ctx = context();
    let q = queue(ctx, 0);
    let n = 4096;
    // 0, a denormal input, a normal number, repeated.
    let input: Vec<f32> = (0..n)
        .map(|i| [0.0, f32::from_bits(1), 1.0][i % 3])
        .collect();
    let a = buffer(ctx, n * 4);
    let o = buffer(ctx, n * 4);
    write(q, a, &input);
    let run = |opts: &str, global: usize, local: Option<&[usize]>| -> Vec<f32> {
        let p = built(ctx, SRC, opts);
        let k = kernel(p, "add");
        assert_eq!(set_mem_arg(k, 0, o), CL_SUCCESS);
        assert_eq!(set_mem_arg(k, 1, a), CL_SUCCESS);
        write(q, o, &vec![-1.0f32; n]);
        assert_eq!(enqueue(q, k, &[global], local), CL_SUCCESS);
        let out = read::<f32>(q, o, global);
        release_kernel(k);
        release_program(p);
        out
    };
    for (global, local) in [
        (4, None),
        (300, Some(&[1usize][..])),
        (n, Some(&[64usize][..])),
    ] {
        let flushed = run("-cl-denorms-are-zero", global, local);
        let kept = run("", global, local);
        for i in 0..global {
            let (f, k) = (flushed[i].to_bits(), kept[i].to_bits());
            match i % 3 {
                // 0 + denormal: flushed to +0, kept as the denormal.
                0 => assert_eq!((f, k), (0, 64), "item {i} of {global}"),
                // denormal + denormal: both read as zero, or summed.
                1 => assert_eq!((f, k), (0, 65), "item {i} of {global}"),
                _ => assert_eq!((f, k), (1.0f32.to_bits(), 1.0f32.to_bits())),
            }
        }
    }
    // The option covers float and double only: half subnormals are kept,
    // in and out, one work-item per step and eight (the inline conversions
    // between half and float read and make no float subnormal).
    const HALF: &str = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable
    kernel void addh(global half *o, global const half *a) {
        size_t i = get_global_id(0);
        o[i] = a[i] + as_half((short)64);
    }";
    let halves: Vec<u16> = (0..n).map(|i| [0u16, 1, 0x3c00][i % 3]).collect();
    let a16 = buffer(ctx, n * 2);
    let o16 = buffer(ctx, n * 2);
    write(q, a16, &halves);
    for (global, local) in [(4, None), (n, Some(&[64usize][..]))] {
        let p = built(ctx, HALF, "-cl-denorms-are-zero");
        let k = kernel(p, "addh");
        assert_eq!(set_mem_arg(k, 0, o16), CL_SUCCESS);
        assert_eq!(set_mem_arg(k, 1, a16), CL_SUCCESS);
        assert_eq!(enqueue(q, k, &[global], local), CL_SUCCESS);
        let out = read::<u16>(q, o16, global);
        for (i, &h) in out.iter().enumerate() {
            // 0 + 64 ulp, 1 + 64 ulp (subnormals), 1.0 + a subnormal = 1.0.
            assert_eq!(h, [64, 65, 0x3c00][i % 3], "item {i} of {global}");
        }
        release_kernel(k);
        release_program(p);
    }
    release_mem(a16);
    release_mem(o16);
    // The host thread's own arithmetic keeps denormals.
    let sum = std::hint::black_box(f32::from_bits(64)) + std::hint::black_box(0.0f32);
    assert_eq!(sum.to_bits(), 64);
    release_mem(a);
    release_mem(o);
    release_queue(q);
    release_context(ctx);
}

/// A kernel that writes a little past the end of a small buffer: the writes
/// land in the red zone after it, not in the allocator's memory, so the
/// host goes on (the buffer's release used to abort in `free()`); the
/// command completes, the context's callback names the kernel and the
/// argument, and a later launch within bounds reports nothing. So for one
/// group, many groups, and a sub-buffer at the end of its buffer.
#[test]
fn writes_past_a_small_buffer_are_reported_and_harmless() {
    let ctx = noted_context();
    let src = "kernel void spill(global int *dst, int n) {
        int i = get_global_id(0);
        dst[i] = i < n ? i : 7000 + i;
    }";
    let p = built(ctx, src, "");
    let k = kernel(p, "spill");
    let q = queue(ctx, 0);
    let notes = || -> Vec<String> {
        NOTES
            .lock()
            .unwrap()
            .iter()
            .filter(|n| n.contains("'spill'"))
            .cloned()
            .collect()
    };
    // (buffer ints, launch items, local size, through a sub-buffer of the
    // buffer's last `n` ints)
    for (n, items, local, sub) in [
        (18, 34, None, false),
        (100, 160, Some(32), false),
        (18, 24, None, true),
    ] {
        let before = notes().len();
        let whole = buffer(ctx, if sub { 4 * (n + 32) } else { 4 * n });
        let target = if sub {
            let region = cl_buffer_region {
                origin: 4 * 32,
                size: 4 * n,
            };
            let mut rc = 0;
            // SAFETY: a region inside `whole`.
            let s = unsafe {
                clCreateSubBuffer(
                    whole,
                    0,
                    CL_BUFFER_CREATE_TYPE_REGION,
                    (&region as *const cl_buffer_region).cast(),
                    &mut rc,
                )
            };
            assert_eq!(rc, CL_SUCCESS);
            s
        } else {
            whole
        };
        assert_eq!(set_mem_arg(k, 0, target), CL_SUCCESS);
        assert_eq!(set_arg(k, 1, n as i32), CL_SUCCESS);
        let l = local.map(|l| [l]);
        assert_eq!(
            enqueue(q, k, &[items], l.as_ref().map(|l| &l[..])),
            CL_SUCCESS
        );
        finish(q);
        assert_eq!(read::<i32>(q, target, n), (0..n as i32).collect::<Vec<_>>());
        let new: Vec<String> = notes()[before..].to_vec();
        assert_eq!(new.len(), 1, "one report per launch: {new:?}");
        let past = 4 * (items - n);
        let size = if sub {
            format!("(a sub-buffer of a buffer of {} bytes)", 4 * (n + 32))
        } else {
            format!("({} bytes)", 4 * n)
        };
        assert!(
            new[0].contains(&format!("argument 'dst' {size}"))
                && new[0].contains(&format!("up to {} past the end", past - 2)),
            "{new:?}"
        );
        // Within bounds: the red zone was cleared, nothing more is said.
        assert_eq!(enqueue(q, k, &[n], None), CL_SUCCESS);
        finish(q);
        assert_eq!(notes().len(), before + 1, "{:?}", notes());
        if sub {
            release_mem(target);
        }
        release_mem(whole);
    }
    release_kernel(k);
    release_queue(q);
    release_program(p);
    release_context(ctx);
}

/// A write into a small buffer's red zone past what a launch looks at (its
/// first bytes) is said when the buffer is released.
#[test]
fn a_far_write_past_a_small_buffer_is_reported_at_its_release() {
    let ctx = noted_context();
    let src = "kernel void far(global int *dst) { dst[get_global_id(0) + 50] = 9; }";
    let p = built(ctx, src, "");
    let k = kernel(p, "far");
    let q = queue(ctx, 0);
    // 40 ints (160 bytes); the one work-item writes the byte 41 past the end.
    let m = buffer(ctx, 4 * 40);
    assert_eq!(set_mem_arg(k, 0, m), CL_SUCCESS);
    assert_eq!(enqueue(q, k, &[1], None), CL_SUCCESS);
    finish(q);
    let count = |what: &str| {
        NOTES
            .lock()
            .unwrap()
            .iter()
            .filter(|n| n.contains(what))
            .count()
    };
    assert_eq!(count("kernel 'far'"), 0, "past the launch's look");
    let at_release = "a buffer of 160 bytes: bytes up to 41 past the end";
    assert_eq!(count(at_release), 0);
    release_mem(m);
    assert_eq!(count(at_release), 1, "{:?}", NOTES.lock().unwrap());
    release_kernel(k);
    release_queue(q);
    release_program(p);
    release_context(ctx);
}
