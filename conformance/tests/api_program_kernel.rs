//! API behaviour of the program and kernel entry points, as far as issue 2
//! defines them: a handle of another type is refused with
//! CL_INVALID_PROGRAM / CL_INVALID_KERNEL (and NULL contexts and queues with
//! theirs), and the creation calls check their arguments. Building and
//! running kernels is tested with the front end (issues 3 and 4).

use cranecl_conformance::{assert_code, both_ways, call, direct, null, Cl};
use opencl_sys::*;
use std::ffi::{c_char, c_void};

unsafe extern "C" fn program_cb(_: cl_program, _: *mut c_void) {}

fn program_bad_handles(t: &Cl) {
    // The device handle is ours, alive, and not a program.
    let dev = t.device();
    let p = dev as cl_program;
    let mut v: cl_uint = 0;
    let vp = (&mut v as *mut u32).cast();
    assert_code!(call!(t; clRetainProgram(p)), CL_INVALID_PROGRAM);
    assert_code!(call!(t; clReleaseProgram(p)), CL_INVALID_PROGRAM);
    assert_code!(call!(t; clRetainProgram(null())), CL_INVALID_PROGRAM);
    assert_code!(call!(t; clReleaseProgram(null())), CL_INVALID_PROGRAM);
    assert_code!(
        call!(t; clBuildProgram(p, 0, null(), null(), None, null())),
        CL_INVALID_PROGRAM
    );
    assert_code!(
        call!(t; clCompileProgram(p, 0, null(), null(), 0, null(), null(), None, null())),
        CL_INVALID_PROGRAM
    );
    assert_code!(
        call!(t; clGetProgramInfo(p, CL_PROGRAM_REFERENCE_COUNT, 4, vp, null())),
        CL_INVALID_PROGRAM
    );
    assert_code!(
        call!(t; clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_STATUS, 4, vp, null())),
        CL_INVALID_PROGRAM
    );
    assert_code!(
        call!(t; clSetProgramReleaseCallback(p, Some(program_cb), null())),
        CL_INVALID_PROGRAM
    );
    assert_code!(
        call!(t; clSetProgramSpecializationConstant(p, 0, 4, vp)),
        CL_INVALID_PROGRAM
    );
    let mut e = 0;
    let k = call!(t; clCreateKernel(p, c"k".as_ptr(), &mut e));
    assert!(k.is_null());
    assert_code!(e, CL_INVALID_PROGRAM);
    let mut n: cl_uint = 0;
    assert_code!(
        call!(t; clCreateKernelsInProgram(p, 0, null(), &mut n)),
        CL_INVALID_PROGRAM
    );
}

fn kernel_bad_handles(t: &Cl) {
    let dev = t.device();
    let k = dev as cl_kernel;
    let mut v: usize = 0;
    let vp = (&mut v as *mut usize).cast();
    assert_code!(call!(t; clRetainKernel(k)), CL_INVALID_KERNEL);
    assert_code!(call!(t; clReleaseKernel(k)), CL_INVALID_KERNEL);
    assert_code!(call!(t; clRetainKernel(null())), CL_INVALID_KERNEL);
    assert_code!(call!(t; clReleaseKernel(null())), CL_INVALID_KERNEL);
    let x: cl_int = 0;
    assert_code!(
        call!(t; clSetKernelArg(k, 0, 4, (&x as *const i32).cast())),
        CL_INVALID_KERNEL
    );
    assert_code!(
        call!(t; clSetKernelArgSVMPointer(k, 0, null())),
        CL_INVALID_KERNEL
    );
    assert_code!(
        call!(t; clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, null())),
        CL_INVALID_KERNEL
    );
    assert_code!(
        call!(t; clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, 4, vp, null())),
        CL_INVALID_KERNEL
    );
    assert_code!(
        call!(t; clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_WORK_GROUP_SIZE, 8, vp, null())),
        CL_INVALID_KERNEL
    );
    assert_code!(
        call!(t; clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_NAME, 8, vp, null())),
        CL_INVALID_KERNEL
    );
    assert_code!(
        call!(t; clGetKernelSubGroupInfo(k, dev, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, null(), 8, vp, null())),
        CL_INVALID_KERNEL
    );
    let mut e = 0;
    let c = call!(t; clCloneKernel(k, &mut e));
    assert!(c.is_null());
    assert_code!(e, CL_INVALID_KERNEL);
}

fn enqueue_kernel_bad_handles(t: &Cl) {
    let dev = t.device();
    let k = dev as cl_kernel;
    let gws = [1usize];
    assert_code!(
        call!(t; clEnqueueNDRangeKernel(null(), k, 1, null(), gws.as_ptr(), null(), 0, null(), null())),
        CL_INVALID_COMMAND_QUEUE
    );
    assert_code!(
        call!(t; clEnqueueTask(null(), k, 0, null(), null())),
        CL_INVALID_COMMAND_QUEUE
    );
    let ctx = t.context();
    let q = t.queue(ctx, 0);
    assert_code!(
        call!(t; clEnqueueNDRangeKernel(q, k, 1, null(), gws.as_ptr(), null(), 0, null(), null())),
        CL_INVALID_KERNEL
    );
    assert_code!(
        call!(t; clEnqueueTask(q, k, 0, null(), null())),
        CL_INVALID_KERNEL
    );
    assert_code!(
        call!(t; clEnqueueNDRangeKernel(q, null(), 1, null(), gws.as_ptr(), null(), 0, null(), null())),
        CL_INVALID_KERNEL
    );
    let mut caps: cl_device_exec_capabilities = 0;
    assert_code!(
        call!(t; clGetDeviceInfo(dev, CL_DEVICE_EXECUTION_CAPABILITIES, 8, (&mut caps as *mut u64).cast(), null())),
        CL_SUCCESS
    );
    if caps & CL_EXEC_NATIVE_KERNEL == 0 {
        unsafe extern "C" fn native(_: *mut c_void) {}
        let mut args = [0u64; 2];
        assert_code!(
            call!(t; clEnqueueNativeKernel(q, Some(native), args.as_mut_ptr().cast(), 16, 0, null(), null(), 0, null(), null())),
            CL_INVALID_OPERATION,
            "native kernels on a device without CL_EXEC_NATIVE_KERNEL"
        );
    }
    assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
}

fn program_creation_arguments(t: &Cl) {
    let dev = t.device();
    let mut src: *const c_char = c"kernel void k(global int *p) { p[0] = 1; }".as_ptr();
    let mut e = 0;
    let p = call!(t; clCreateProgramWithSource(null(), 1, &mut src, null(), &mut e));
    assert!(p.is_null());
    assert_code!(e, CL_INVALID_CONTEXT);
    let p = call!(t; clCreateProgramWithSource(dev as cl_context, 1, &mut src, null(), &mut e));
    assert!(p.is_null());
    assert_code!(e, CL_INVALID_CONTEXT, "a device as the context");
    let ctx = t.context();
    let p = call!(t; clCreateProgramWithSource(ctx, 0, &mut src, null(), &mut e));
    assert!(p.is_null());
    assert_code!(e, CL_INVALID_VALUE, "count 0");
    let p = call!(t; clCreateProgramWithSource(ctx, 1, null(), null(), &mut e));
    assert!(p.is_null());
    assert_code!(e, CL_INVALID_VALUE, "strings NULL");
    let mut two: [*const c_char; 2] = [src, std::ptr::null()];
    let p = call!(t; clCreateProgramWithSource(ctx, 2, two.as_mut_ptr(), null(), &mut e));
    assert!(p.is_null());
    assert_code!(e, CL_INVALID_VALUE, "a NULL entry in strings");
    let bin = [0u8; 4];
    let (mut bp, bl) = (bin.as_ptr(), bin.len());
    let p = call!(t; clCreateProgramWithBinary(ctx, 0, &dev, &bl, &mut bp, null(), &mut e));
    assert!(p.is_null());
    assert_code!(e, CL_INVALID_VALUE, "binary for 0 devices");
    let p = call!(t; clCreateProgramWithBinary(ctx, 1, &dev, &bl, null(), null(), &mut e));
    assert!(p.is_null());
    assert_code!(e, CL_INVALID_VALUE, "binaries NULL");
    let mut il_size = 0usize;
    assert_code!(
        call!(t; clGetDeviceInfo(dev, CL_DEVICE_IL_VERSION, 0, null(), &mut il_size)),
        CL_SUCCESS
    );
    if il_size <= 1 {
        let p = call!(t; clCreateProgramWithIL(ctx, bin.as_ptr().cast(), bin.len(), &mut e));
        assert!(p.is_null());
        assert_code!(
            e,
            CL_INVALID_OPERATION,
            "IL programs on a device without an IL"
        );
        // Appendix H: specialization constants of any program, likewise.
        let p = call!(t; clCreateProgramWithSource(ctx, 1, &mut src, null(), &mut e));
        assert_code!(e, CL_SUCCESS);
        let v = 1u32;
        assert_code!(
            call!(t; clSetProgramSpecializationConstant(p, 0, 4, (&v as *const u32).cast())),
            CL_INVALID_OPERATION,
            "a specialization constant on a device without an IL"
        );
        assert_code!(call!(t; clReleaseProgram(p)), CL_SUCCESS);
    }
    let p = call!(t; clLinkProgram(null(), 0, null(), null(), 0, null(), None, null(), &mut e));
    assert!(p.is_null());
    assert_code!(e, CL_INVALID_CONTEXT, "clLinkProgram with a NULL context");
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
}

both_ways!(
    program_bad_handles,
    kernel_bad_handles,
    enqueue_kernel_bad_handles,
    program_creation_arguments,
);

/// Forged handles straight to the ICD: zeros, and a copy of a real object
/// header (our dispatch pointer) that was never handed out.
#[test]
fn forged_program_kernel_sampler_handles() {
    let t = direct();
    let zeros: Box<[u64; 16]> = Box::new([0; 16]);
    // SAFETY: a platform handle points at an object whose first word is the
    // dispatch-table pointer (the ICD contract).
    let dispatch = unsafe { *(t.platform() as *const usize) };
    let mut forged: Box<[usize; 16]> = Box::new([0; 16]);
    forged[0] = dispatch;
    for (what, h) in [
        ("zeros", zeros.as_ptr() as *mut c_void),
        ("forged header", forged.as_mut_ptr().cast()),
    ] {
        assert_code!(
            call!(t; clRetainProgram(h.cast())),
            CL_INVALID_PROGRAM,
            "{what}"
        );
        assert_code!(
            call!(t; clRetainKernel(h.cast())),
            CL_INVALID_KERNEL,
            "{what}"
        );
        assert_code!(
            call!(t; clRetainSampler(h.cast())),
            CL_INVALID_SAMPLER,
            "{what}"
        );
    }
}
