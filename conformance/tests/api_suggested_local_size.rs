//! cl_khr_suggested_local_work_size: the extension is advertised,
//! `clGetKernelSuggestedLocalWorkSizeKHR` is found through
//! `clGetExtensionFunctionAddressForPlatform`, its answer is the local size
//! a launch with a NULL local size then runs with (read back from
//! `get_local_size` in the kernel), a `reqd_work_group_size` is returned as
//! it is, and each error of the extension's list is given. Through the
//! loader and directly.

use cranecl_conformance::{assert_code, both_ways, call, null, Cl};
use opencl_sys::*;
use std::ffi::{c_char, c_void};

type SuggestFn = unsafe extern "C" fn(
    cl_command_queue,
    cl_kernel,
    cl_uint,
    *const usize,
    *const usize,
    *mut usize,
) -> cl_int;

const SRC: &str = "
kernel void sizes(global uint *o) {
    if (get_global_id(0) == 0 && get_global_id(1) == 0 && get_global_id(2) == 0) {
        o[0] = get_local_size(0); o[1] = get_local_size(1); o[2] = get_local_size(2);
    }
}
kernel void with_barrier(global uint *o) {
    local uint l;
    if (get_local_id(0) == 0) l = get_local_size(0);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_global_id(0) == 0) { o[0] = l; o[1] = get_local_size(1); o[2] = get_local_size(2); }
}
__attribute__((reqd_work_group_size(4, 2, 1)))
kernel void required(global uint *o) { o[0] = get_local_size(0); }
";

fn suggest_fn(t: &Cl) -> SuggestFn {
    let f =
        t.f.clGetExtensionFunctionAddressForPlatform
            .expect("exported");
    // SAFETY: a valid platform and a NUL-terminated name.
    let addr = unsafe {
        f(
            t.platform(),
            c"clGetKernelSuggestedLocalWorkSizeKHR".as_ptr(),
        )
    };
    assert!(
        !addr.is_null(),
        "clGetKernelSuggestedLocalWorkSizeKHR has an address"
    );
    // SAFETY: the address of the extension function with this signature.
    unsafe { std::mem::transmute::<*mut c_void, SuggestFn>(addr) }
}

fn extension_string(t: &Cl) -> String {
    let dev = t.device();
    let mut buf = vec![0u8; 4096];
    let mut size = 0usize;
    assert_code!(
        call!(t; clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, buf.len(), buf.as_mut_ptr().cast(), &mut size)),
        CL_SUCCESS
    );
    String::from_utf8_lossy(&buf[..size.saturating_sub(1)]).into_owned()
}

struct Fix {
    ctx: cl_context,
    q: cl_command_queue,
    prog: cl_program,
    out: cl_mem,
}

fn setup(t: &Cl) -> Fix {
    let ctx = t.context();
    let q = t.queue(ctx, 0);
    let dev = t.device();
    let mut e = 0;
    let mut src = SRC.as_ptr() as *const c_char;
    let len = SRC.len();
    let prog = call!(t; clCreateProgramWithSource(ctx, 1, &mut src, &len, &mut e));
    assert_code!(e, CL_SUCCESS);
    assert_code!(
        call!(t; clBuildProgram(prog, 1, &dev, c"-cl-std=CL3.0".as_ptr(), None, null())),
        CL_SUCCESS
    );
    let out = t.buffer(ctx, CL_MEM_READ_WRITE, 12);
    Fix { ctx, q, prog, out }
}

fn kernel(t: &Cl, fx: &Fix, name: &std::ffi::CStr, set: bool) -> cl_kernel {
    let mut e = 0;
    let k = call!(t; clCreateKernel(fx.prog, name.as_ptr(), &mut e));
    assert_code!(e, CL_SUCCESS);
    if set {
        assert_code!(
            call!(t; clSetKernelArg(k, 0, 8, (&fx.out as *const cl_mem).cast::<c_void>())),
            CL_SUCCESS
        );
    }
    k
}

/// The local size the launch with a NULL local size ran with.
fn launched_local_size(t: &Cl, fx: &Fix, k: cl_kernel, global: &[usize]) -> Vec<usize> {
    assert_code!(
        call!(t; clEnqueueNDRangeKernel(fx.q, k, global.len() as cl_uint, null(), global.as_ptr(), null(), 0, null(), null())),
        CL_SUCCESS
    );
    let mut o = [0u32; 3];
    assert_code!(
        call!(t; clEnqueueReadBuffer(fx.q, fx.out, CL_TRUE, 0, 12, o.as_mut_ptr().cast(), 0, null(), null())),
        CL_SUCCESS
    );
    o[..global.len()].iter().map(|&v| v as usize).collect()
}

fn suggestion_is_the_launched_size(t: &Cl) {
    assert!(
        extension_string(t)
            .split(' ')
            .any(|e| e == "cl_khr_suggested_local_work_size"),
        "cl_khr_suggested_local_work_size is advertised"
    );
    let suggest = suggest_fn(t);
    let fx = setup(t);
    for (name, global, offset) in [
        (c"sizes", vec![1000usize], None),
        (c"sizes", vec![1 << 20], Some(vec![7usize])),
        (c"sizes", vec![30, 7], None),
        (c"sizes", vec![1, 1, 4096], None),
        (c"sizes", vec![997], None),
        (c"with_barrier", vec![4096, 2], None),
        (c"with_barrier", vec![100_000], None),
    ] {
        let k = kernel(t, &fx, name, true);
        let mut got = vec![0usize; global.len()];
        let off = offset.as_ref().map_or(null(), |o| o.as_ptr().cast_mut());
        // SAFETY: valid handles and arrays of work_dim entries.
        let rc = unsafe {
            suggest(
                fx.q,
                k,
                global.len() as cl_uint,
                off,
                global.as_ptr(),
                got.as_mut_ptr(),
            )
        };
        assert_code!(rc, CL_SUCCESS);
        let ran = launched_local_size(t, &fx, k, &global);
        assert_eq!(got, ran, "{name:?} over {global:?}: suggested vs launched");
        for (d, g) in global.iter().enumerate() {
            assert!(
                got[d] >= 1 && got[d] <= *g,
                "{name:?}: {got:?} within {global:?}"
            );
        }
        call!(t; clReleaseKernel(k));
    }
    // A required work-group size is the answer.
    let k = kernel(t, &fx, c"required", true);
    let global = [64usize, 8];
    let mut got = [0usize; 2];
    // SAFETY: as above.
    let rc = unsafe { suggest(fx.q, k, 2, null(), global.as_ptr(), got.as_mut_ptr()) };
    assert_code!(rc, CL_SUCCESS);
    assert_eq!(got, [4, 2], "reqd_work_group_size(4, 2, 1)");
    call!(t; clReleaseKernel(k));
    teardown(t, fx);
}

fn errors(t: &Cl) {
    let suggest = suggest_fn(t);
    let fx = setup(t);
    let k = kernel(t, &fx, c"sizes", true);
    let unset = kernel(t, &fx, c"sizes", false);
    let g = [64usize, 4];
    let mut out = [0usize; 3];
    let o = out.as_mut_ptr();
    // SAFETY (every call below): the handles are valid or deliberately
    // wrong ones the entry point must refuse; arrays hold work_dim entries.
    let call = |q: cl_command_queue,
                k: cl_kernel,
                wd: cl_uint,
                off: *const usize,
                g: *const usize,
                o: *mut usize| unsafe { suggest(q, k, wd, off, g, o) };
    // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue.
    assert_code!(
        call(null(), k, 1, null(), g.as_ptr(), o),
        CL_INVALID_COMMAND_QUEUE
    );
    assert_code!(
        call(fx.ctx as cl_command_queue, k, 1, null(), g.as_ptr(), o),
        CL_INVALID_COMMAND_QUEUE
    );
    // CL_INVALID_KERNEL if kernel is not a valid kernel.
    assert_code!(
        call(fx.q, null(), 1, null(), g.as_ptr(), o),
        CL_INVALID_KERNEL
    );
    assert_code!(
        call(fx.q, fx.prog as cl_kernel, 1, null(), g.as_ptr(), o),
        CL_INVALID_KERNEL
    );
    // CL_INVALID_CONTEXT if the context associated with command_queue and
    // kernel are not the same.
    let other = t.context();
    let q2 = t.queue(other, 0);
    assert_code!(call(q2, k, 1, null(), g.as_ptr(), o), CL_INVALID_CONTEXT);
    // CL_INVALID_KERNEL_ARGS if any kernel arguments have not been set.
    assert_code!(
        call(fx.q, unset, 1, null(), g.as_ptr(), o),
        CL_INVALID_KERNEL_ARGS
    );
    // CL_INVALID_WORK_DIMENSION if work_dim is not valid for the device.
    assert_code!(
        call(fx.q, k, 0, null(), g.as_ptr(), o),
        CL_INVALID_WORK_DIMENSION
    );
    assert_code!(
        call(fx.q, k, 4, null(), g.as_ptr(), o),
        CL_INVALID_WORK_DIMENSION
    );
    // CL_INVALID_GLOBAL_WORK_SIZE if global_work_size is NULL or has a zero.
    assert_code!(
        call(fx.q, k, 1, null(), null(), o),
        CL_INVALID_GLOBAL_WORK_SIZE
    );
    let zero = [64usize, 0];
    assert_code!(
        call(fx.q, k, 2, null(), zero.as_ptr(), o),
        CL_INVALID_GLOBAL_WORK_SIZE
    );
    // CL_INVALID_GLOBAL_OFFSET if global_work_size plus global_work_offset
    // does not fit in size_t.
    let off = [usize::MAX - 10, 0];
    assert_code!(
        call(fx.q, k, 1, off.as_ptr(), g.as_ptr(), o),
        CL_INVALID_GLOBAL_OFFSET
    );
    // CL_INVALID_VALUE if suggested_local_work_size is NULL.
    assert_code!(
        call(fx.q, k, 2, null(), g.as_ptr(), null()),
        CL_INVALID_VALUE
    );
    // The failures wrote nothing; a valid call does.
    assert_eq!(out, [0; 3]);
    assert_code!(call(fx.q, k, 2, null(), g.as_ptr(), o), CL_SUCCESS);
    assert!(out[0] >= 1 && out[1] >= 1 && out[2] == 0, "{out:?}");
    call!(t; clReleaseCommandQueue(q2));
    call!(t; clReleaseContext(other));
    call!(t; clReleaseKernel(unset));
    call!(t; clReleaseKernel(k));
    teardown(t, fx);
}

fn teardown(t: &Cl, fx: Fix) {
    call!(t; clReleaseMemObject(fx.out));
    call!(t; clReleaseProgram(fx.prog));
    call!(t; clReleaseCommandQueue(fx.q));
    call!(t; clReleaseContext(fx.ctx));
}

both_ways!(suggestion_is_the_launched_size, errors);
