//! Kernel objects through the rlib's entry points: creation, arguments
//! (checked against the parameter types), queries, cloning, and lifetimes
//! (a kernel keeps its program and the buffers set on it alive).

mod common;
mod program_common;

use common::*;
use program_common::*;
use std::sync::atomic::{AtomicUsize, Ordering};

const SRC: &str = "
typedef struct { int a; float b; } pair;
kernel void k(global int *out, int x, local float *scratch, constant float *c, pair s) {
    scratch[get_local_id(0)] = 1.0f;
    out[get_global_id(0)] = x + s.a;
}
__attribute__((reqd_work_group_size(4, 1, 1)))
kernel void fixed(global int *out) { out[get_global_id(0)] = get_local_size(0); }
kernel void other(global int *out) { out[0] = 9; }
";

fn built(ctx: cl_context, opts: &str) -> cl_program {
    let p = source(ctx, &[SRC]);
    assert_eq!(build(p, opts), CL_SUCCESS, "{}", build_log(p));
    p
}

#[test]
fn create_kernel_errors_and_all_kernels() {
    let ctx = context();
    let p = built(ctx, "");
    let mut rc = 0;
    // SAFETY: the calls are made to fail or write into sized arrays.
    unsafe {
        assert!(clCreateKernel(p, ptr::null(), &mut rc).is_null());
        assert_eq!(rc, CL_INVALID_VALUE);
        assert!(clCreateKernel(p, c"nope".as_ptr(), &mut rc).is_null());
        assert_eq!(rc, CL_INVALID_KERNEL_NAME);
        assert!(clCreateKernel(ctx as cl_program, c"k".as_ptr(), &mut rc).is_null());
        assert_eq!(rc, CL_INVALID_PROGRAM);
        let mut n: cl_uint = 0;
        assert_eq!(
            clCreateKernelsInProgram(p, 0, ptr::null_mut(), &mut n),
            CL_SUCCESS
        );
        assert_eq!(n, 3);
        let mut ks = [ptr::null_mut(); 3];
        assert_eq!(
            clCreateKernelsInProgram(p, 2, ks.as_mut_ptr(), ptr::null_mut()),
            CL_INVALID_VALUE
        );
        assert_eq!(
            clCreateKernelsInProgram(p, 3, ks.as_mut_ptr(), ptr::null_mut()),
            CL_SUCCESS
        );
        let names: Vec<String> = ks
            .iter()
            .map(|&k| kernel_string(k, CL_KERNEL_FUNCTION_NAME))
            .collect();
        assert_eq!(names, ["k", "fixed", "other"]);
        for k in ks {
            release_kernel(k);
        }
    }
    release_program(p);
    release_context(ctx);
}

fn kernel_string(k: cl_kernel, param: cl_kernel_info) -> String {
    let mut size = 0usize;
    // SAFETY: size query, then a buffer of that size.
    unsafe {
        assert_eq!(
            clGetKernelInfo(k, param, 0, ptr::null_mut(), &mut size),
            CL_SUCCESS
        );
        let mut b = vec![0u8; size];
        assert_eq!(
            clGetKernelInfo(k, param, size, b.as_mut_ptr().cast(), ptr::null_mut()),
            CL_SUCCESS
        );
        String::from_utf8_lossy(&b[..size - 1]).into_owned()
    }
}

#[repr(C)]
#[derive(Clone, Copy)]
struct Pair {
    a: i32,
    b: f32,
}

#[test]
fn set_kernel_arg_rules() {
    let ctx = context();
    let other_ctx = context();
    let p = built(ctx, "");
    let k = kernel(p, "k");
    let m = buffer(ctx, 64);
    let foreign = buffer(other_ctx, 64);
    // SAFETY: each arg_value points at arg_size bytes (or is NULL).
    unsafe {
        assert_eq!(set_arg(k, 5, 1i32), CL_INVALID_ARG_INDEX);
        assert_eq!(set_arg(k, 1, 1i64), CL_INVALID_ARG_SIZE);
        assert_eq!(clSetKernelArg(k, 1, 4, ptr::null()), CL_INVALID_ARG_VALUE);
        assert_eq!(set_arg(k, 1, 3i32), CL_SUCCESS);
        // Buffers: sizeof(cl_mem), a valid object of this context.
        assert_eq!(
            clSetKernelArg(k, 0, 4, (&m as *const cl_mem).cast()),
            CL_INVALID_ARG_SIZE
        );
        let not_mem = ctx as cl_mem;
        assert_eq!(set_mem_arg(k, 0, not_mem), CL_INVALID_MEM_OBJECT);
        assert_eq!(set_mem_arg(k, 0, foreign), CL_INVALID_CONTEXT);
        assert_eq!(set_mem_arg(k, 0, m), CL_SUCCESS);
        // NULL, or a pointer to NULL: a NULL pointer argument.
        assert_eq!(clSetKernelArg(k, 3, 8, ptr::null()), CL_SUCCESS);
        assert_eq!(set_mem_arg(k, 3, ptr::null_mut()), CL_SUCCESS);
        // Local pointers: NULL value, non-zero size.
        assert_eq!(clSetKernelArg(k, 2, 0, ptr::null()), CL_INVALID_ARG_SIZE);
        assert_eq!(
            clSetKernelArg(k, 2, 16, (&m as *const cl_mem).cast()),
            CL_INVALID_ARG_VALUE
        );
        assert_eq!(clSetKernelArg(k, 2, 256, ptr::null()), CL_SUCCESS);
        // A struct by value: its size.
        assert_eq!(set_arg(k, 4, 1i32), CL_INVALID_ARG_SIZE);
        assert_eq!(set_arg(k, 4, Pair { a: 10, b: 0.5 }), CL_SUCCESS);
        assert_eq!(set_arg(ptr::null_mut(), 0, 1i32), CL_INVALID_KERNEL);
    }
    let q = queue(ctx, 0);
    assert_eq!(enqueue(q, k, &[16], Some(&[8])), CL_SUCCESS);
    let out: Vec<i32> = read(q, m, 16);
    assert_eq!(out, vec![13; 16]);
    // CL_KERNEL_LOCAL_MEM_SIZE counts the local argument.
    let mut lm: cl_ulong = 0;
    // SAFETY: valid out-pointer.
    unsafe {
        assert_eq!(
            clGetKernelWorkGroupInfo(
                k,
                ptr::null_mut(),
                CL_KERNEL_LOCAL_MEM_SIZE,
                8,
                (&mut lm as *mut u64).cast(),
                ptr::null_mut()
            ),
            CL_SUCCESS
        );
    }
    assert!(lm >= 256, "{lm}");
    release_queue(q);
    release_mem(foreign);
    release_mem(m);
    release_kernel(k);
    release_program(p);
    release_context(other_ctx);
    release_context(ctx);
}

#[test]
fn kernel_info_and_work_group_info() {
    let ctx = context();
    let p = built(ctx, "");
    let k = kernel(p, "fixed");
    let d = device();
    // SAFETY: valid handles and out-pointers.
    unsafe {
        let mut n: cl_uint = 0;
        assert_eq!(
            clGetKernelInfo(
                k,
                CL_KERNEL_NUM_ARGS,
                4,
                (&mut n as *mut u32).cast(),
                ptr::null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(n, 1);
        let mut h: cl_program = ptr::null_mut();
        assert_eq!(
            clGetKernelInfo(
                k,
                CL_KERNEL_PROGRAM,
                8,
                (&mut h as *mut cl_program).cast(),
                ptr::null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(h, p);
        let mut c: cl_context = ptr::null_mut();
        assert_eq!(
            clGetKernelInfo(
                k,
                CL_KERNEL_CONTEXT,
                8,
                (&mut c as *mut cl_context).cast(),
                ptr::null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(c, ctx);
        assert!(kernel_string(k, CL_KERNEL_ATTRIBUTES).contains("reqd_work_group_size"));
        assert_eq!(
            clGetKernelInfo(k, 0x4321, 4, (&mut n as *mut u32).cast(), ptr::null_mut()),
            CL_INVALID_VALUE
        );
        let mut wg = [0usize; 3];
        assert_eq!(
            clGetKernelWorkGroupInfo(
                k,
                d,
                CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                24,
                wg.as_mut_ptr().cast(),
                ptr::null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(wg, [4, 1, 1]);
        let mut s = 0usize;
        assert_eq!(
            clGetKernelWorkGroupInfo(
                k,
                d,
                CL_KERNEL_WORK_GROUP_SIZE,
                8,
                (&mut s as *mut usize).cast(),
                ptr::null_mut()
            ),
            CL_SUCCESS
        );
        let mut dev_max = 0usize;
        assert_eq!(
            clGetDeviceInfo(
                d,
                CL_DEVICE_MAX_WORK_GROUP_SIZE,
                8,
                (&mut dev_max as *mut usize).cast(),
                ptr::null_mut()
            ),
            CL_SUCCESS
        );
        assert!(s >= 1 && s <= dev_max, "{s} {dev_max}");
        assert_eq!(
            clGetKernelWorkGroupInfo(
                k,
                d,
                CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                8,
                (&mut s as *mut usize).cast(),
                ptr::null_mut()
            ),
            CL_SUCCESS
        );
        assert!(s >= 1);
        assert_eq!(
            clGetKernelWorkGroupInfo(
                k,
                d,
                CL_KERNEL_GLOBAL_WORK_SIZE,
                24,
                wg.as_mut_ptr().cast(),
                ptr::null_mut()
            ),
            CL_INVALID_VALUE
        );
        assert_eq!(
            clGetKernelWorkGroupInfo(
                k,
                ctx as cl_device_id,
                CL_KERNEL_WORK_GROUP_SIZE,
                8,
                (&mut s as *mut usize).cast(),
                ptr::null_mut()
            ),
            CL_INVALID_DEVICE
        );
        let mut pm: cl_ulong = 0;
        assert_eq!(
            clGetKernelWorkGroupInfo(
                k,
                d,
                CL_KERNEL_PRIVATE_MEM_SIZE,
                8,
                (&mut pm as *mut u64).cast(),
                ptr::null_mut()
            ),
            CL_SUCCESS
        );
        // Sub-groups (OpenCL 3.0's, four work-items each): a work-group of
        // the device's maximum size holds at least one. SVM: supported,
        // fine-grain system too.
        assert_eq!(
            clGetKernelSubGroupInfo(
                k,
                d,
                CL_KERNEL_MAX_NUM_SUB_GROUPS,
                0,
                ptr::null(),
                8,
                (&mut s as *mut usize).cast(),
                ptr::null_mut()
            ),
            CL_SUCCESS
        );
        assert!(s >= 1, "CL_KERNEL_MAX_NUM_SUB_GROUPS = {s}");
        assert_eq!(
            clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, ptr::null()),
            CL_SUCCESS
        );
        let f: cl_bool = CL_FALSE;
        assert_eq!(
            clSetKernelExecInfo(
                k,
                CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM,
                4,
                (&f as *const cl_bool).cast()
            ),
            CL_SUCCESS
        );
        let t: cl_bool = CL_TRUE;
        assert_eq!(
            clSetKernelExecInfo(
                k,
                CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM,
                4,
                (&t as *const cl_bool).cast()
            ),
            CL_SUCCESS
        );
        assert_eq!(
            clSetKernelExecInfo(k, 0x9999, 4, (&t as *const cl_bool).cast()),
            CL_INVALID_VALUE
        );
    }
    release_kernel(k);
    release_program(p);
    release_context(ctx);
}

#[test]
fn kernel_arg_info_needs_the_option() {
    let ctx = context();
    let plain = built(ctx, "");
    let k = kernel(plain, "k");
    let mut q: cl_kernel_arg_address_qualifier = 0;
    // SAFETY: valid out-pointers.
    unsafe {
        assert_eq!(
            clGetKernelArgInfo(
                k,
                0,
                CL_KERNEL_ARG_ADDRESS_QUALIFIER,
                4,
                (&mut q as *mut u32).cast(),
                ptr::null_mut()
            ),
            CL_KERNEL_ARG_INFO_NOT_AVAILABLE
        );
        assert_eq!(
            clGetKernelArgInfo(
                k,
                9,
                CL_KERNEL_ARG_ADDRESS_QUALIFIER,
                4,
                (&mut q as *mut u32).cast(),
                ptr::null_mut()
            ),
            CL_INVALID_ARG_INDEX
        );
    }
    release_kernel(k);
    let p = built(ctx, "-cl-kernel-arg-info");
    let k = kernel(p, "k");
    let arg_string = |i: u32, param| {
        let mut size = 0usize;
        // SAFETY: size query, then a buffer of that size.
        unsafe {
            assert_eq!(
                clGetKernelArgInfo(k, i, param, 0, ptr::null_mut(), &mut size),
                CL_SUCCESS
            );
            let mut b = vec![0u8; size];
            assert_eq!(
                clGetKernelArgInfo(k, i, param, size, b.as_mut_ptr().cast(), ptr::null_mut()),
                CL_SUCCESS
            );
            String::from_utf8_lossy(&b[..size - 1]).into_owned()
        }
    };
    assert_eq!(arg_string(0, CL_KERNEL_ARG_NAME), "out");
    assert_eq!(arg_string(1, CL_KERNEL_ARG_NAME), "x");
    assert_eq!(arg_string(0, CL_KERNEL_ARG_TYPE_NAME), "int*");
    assert_eq!(arg_string(1, CL_KERNEL_ARG_TYPE_NAME), "int");
    let addr = |i: u32| {
        let mut q: cl_kernel_arg_address_qualifier = 0;
        // SAFETY: valid out-pointer.
        let rc = unsafe {
            clGetKernelArgInfo(
                k,
                i,
                CL_KERNEL_ARG_ADDRESS_QUALIFIER,
                4,
                (&mut q as *mut u32).cast(),
                ptr::null_mut(),
            )
        };
        assert_eq!(rc, CL_SUCCESS);
        q
    };
    assert_eq!(addr(0), CL_KERNEL_ARG_ADDRESS_GLOBAL);
    assert_eq!(addr(1), CL_KERNEL_ARG_ADDRESS_PRIVATE);
    assert_eq!(addr(2), CL_KERNEL_ARG_ADDRESS_LOCAL);
    assert_eq!(addr(3), CL_KERNEL_ARG_ADDRESS_CONSTANT);
    let mut tq: cl_bitfield = 0;
    // SAFETY: valid out-pointer (a cl_bitfield in the C headers).
    unsafe {
        assert_eq!(
            clGetKernelArgInfo(
                k,
                3,
                CL_KERNEL_ARG_TYPE_QUALIFIER,
                8,
                (&mut tq as *mut u64).cast(),
                ptr::null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(
            clGetKernelArgInfo(
                k,
                0,
                0x7777,
                8,
                (&mut tq as *mut u64).cast(),
                ptr::null_mut()
            ),
            CL_INVALID_VALUE
        );
    }
    assert_ne!(
        tq & CL_KERNEL_ARG_TYPE_CONST as u64,
        0,
        "constant arguments are const"
    );
    release_kernel(k);
    release_program(p);
    release_program(plain);
    release_context(ctx);
}

/// Image objects are always allocated from the global address space (OpenCL
/// C, "Global"), so an image argument's address qualifier is global, as the
/// Khronos CTS (test_api get_kernel_arg_info) expects; a sampler is a value.
#[test]
fn image_arguments_are_in_the_global_address_space() {
    let ctx = context();
    let p = source(
        ctx,
        &[
            "kernel void k(read_only image2d_t a, write_only image3d_t b,
                         read_write image1d_buffer_t c, sampler_t s, int x) {}",
        ],
    );
    assert_eq!(
        build(p, "-cl-std=CL3.0 -cl-kernel-arg-info"),
        CL_SUCCESS,
        "{}",
        build_log(p)
    );
    let k = kernel(p, "k");
    let info = |i: u32, param| {
        let mut q: u32 = 0;
        // SAFETY: a valid out-pointer of the queried value's size.
        let rc = unsafe {
            clGetKernelArgInfo(k, i, param, 4, (&mut q as *mut u32).cast(), ptr::null_mut())
        };
        assert_eq!(rc, CL_SUCCESS);
        q
    };
    for i in 0..3 {
        assert_eq!(
            info(i, CL_KERNEL_ARG_ADDRESS_QUALIFIER),
            CL_KERNEL_ARG_ADDRESS_GLOBAL,
            "image argument {i}"
        );
    }
    assert_eq!(
        info(0, CL_KERNEL_ARG_ACCESS_QUALIFIER),
        CL_KERNEL_ARG_ACCESS_READ_ONLY
    );
    assert_eq!(
        info(1, CL_KERNEL_ARG_ACCESS_QUALIFIER),
        CL_KERNEL_ARG_ACCESS_WRITE_ONLY
    );
    assert_eq!(
        info(2, CL_KERNEL_ARG_ACCESS_QUALIFIER),
        CL_KERNEL_ARG_ACCESS_READ_WRITE
    );
    assert_eq!(
        info(3, CL_KERNEL_ARG_ADDRESS_QUALIFIER),
        CL_KERNEL_ARG_ADDRESS_PRIVATE
    );
    assert_eq!(
        info(4, CL_KERNEL_ARG_ADDRESS_QUALIFIER),
        CL_KERNEL_ARG_ADDRESS_PRIVATE
    );
    release_kernel(k);
    release_program(p);
    release_context(ctx);
}

#[test]
fn clone_copies_arguments_and_kernels_keep_the_program() {
    let ctx = context();
    let p = built(ctx, "");
    let k = kernel(p, "other");
    let m = buffer(ctx, 4);
    assert_eq!(set_mem_arg(k, 0, m), CL_SUCCESS);
    let mut rc = 0;
    // SAFETY: a valid kernel.
    let c = unsafe { clCloneKernel(k, &mut rc) };
    assert_eq!(rc, CL_SUCCESS);
    release_kernel(k);
    // The program is released by the user but the clone keeps it.
    release_program(p);
    let q = queue(ctx, 0);
    assert_eq!(enqueue(q, c, &[1], None), CL_SUCCESS);
    assert_eq!(read::<i32>(q, m, 1), vec![9]);
    let mut h: cl_program = ptr::null_mut();
    // SAFETY: valid out-pointer.
    unsafe {
        assert_eq!(
            clGetKernelInfo(
                c,
                CL_KERNEL_PROGRAM,
                8,
                (&mut h as *mut cl_program).cast(),
                ptr::null_mut()
            ),
            CL_SUCCESS
        );
    }
    assert_eq!(h, p);
    release_kernel(c);
    release_mem(m);
    release_queue(q);
    release_context(ctx);
}

static DESTROYED: AtomicUsize = AtomicUsize::new(0);
unsafe extern "C" fn on_destroy(_: cl_mem, _: *mut c_void) {
    DESTROYED.fetch_add(1, Ordering::SeqCst);
}

#[test]
fn a_buffer_released_after_enqueue_lives_until_the_command_completes() {
    let ctx = context();
    let p = source(
        ctx,
        &["kernel void k(global int *p) { p[get_global_id(0)] = 77; }\n"],
    );
    assert_eq!(build(p, ""), CL_SUCCESS);
    let k = kernel(p, "k");
    let mut host = vec![0i32; 64];
    let mut rc = 0;
    // SAFETY: host outlives the buffer's use (we wait below).
    let m = unsafe {
        clCreateBuffer(
            ctx,
            CL_MEM_USE_HOST_PTR,
            256,
            host.as_mut_ptr().cast(),
            &mut rc,
        )
    };
    assert_eq!(rc, CL_SUCCESS);
    // SAFETY: valid handle and callback.
    assert_eq!(
        unsafe { clSetMemObjectDestructorCallback(m, Some(on_destroy), ptr::null_mut()) },
        CL_SUCCESS
    );
    assert_eq!(set_mem_arg(k, 0, m), CL_SUCCESS);
    let q = queue(ctx, 0);
    let gate = user_event(ctx);
    let mut ev = ptr::null_mut();
    let g = [64usize];
    // SAFETY: valid handles; one event in the wait list.
    let rc = unsafe {
        clEnqueueNDRangeKernel(
            q,
            k,
            1,
            ptr::null(),
            g.as_ptr(),
            ptr::null(),
            1,
            &gate,
            &mut ev,
        )
    };
    assert_eq!(rc, CL_SUCCESS);
    release_mem(m);
    release_kernel(k);
    release_program(p);
    assert_eq!(
        DESTROYED.load(Ordering::SeqCst),
        0,
        "the command still needs the buffer"
    );
    assert_eq!(set_status(gate, CL_COMPLETE), CL_SUCCESS);
    assert_eq!(wait(&[ev]), CL_SUCCESS);
    finish(q);
    assert_eq!(host, vec![77; 64]);
    release_event(ev);
    release_event(gate);
    release_queue(q);
    // The command is done with it: the buffer is gone.
    for _ in 0..100 {
        if DESTROYED.load(Ordering::SeqCst) == 1 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert_eq!(DESTROYED.load(Ordering::SeqCst), 1);
    release_context(ctx);
}
