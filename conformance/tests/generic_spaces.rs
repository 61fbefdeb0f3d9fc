//! The generic address space's `to_global`, `to_local`, `to_private` and
//! `get_fence` classify a pointer by where it points, whoever asks: a
//! pointer to another work-item's private variable or to another work-group's
//! local memory (stored by one launch, examined by the next, or by a racing
//! work-item as test_generic_address_space's `language_struct` does) is
//! private or local, and a pointer to a buffer or a program-scope variable
//! is global. The CTS case failed about one run in ten when the work-item
//! that examined such a pointer ran on another thread.

use cranecl_conformance::{call, cl, code_name, null};
use opencl_sys::*;
use std::ffi::{c_void, CString};

const SRC: &str = "
global int gint = 1;
kernel void store(global ulong *where) {
    local int lint;
    int pint = 3;
    lint = 2;
    if (get_global_id(0) == 5) {
        where[0] = (ulong)&pint;
        where[1] = (ulong)&lint;
        where[2] = (ulong)&gint;
        where[3] = (ulong)where;
    }
}
int spaces(int *p) {
    return (to_global(p) != NULL) | (to_local(p) != NULL) << 1 | (to_private(p) != NULL) << 2
        | (get_fence(p) == CLK_LOCAL_MEM_FENCE) << 3;
}
kernel void classify(global ulong *where, global int *out) {
    for (int i = 0; i < 4; i++)
        out[i] = spaces((int *)where[i]);
    out[4] = spaces(NULL);
}
";

#[test]
fn pointers_of_other_work_items_keep_their_space() {
    let t = cl();
    let ctx = t.context();
    let dev = t.device();
    let q = t.queue(ctx, 0);
    let text = CString::new(SRC).unwrap();
    let mut sp = text.as_ptr();
    let mut e = 0;
    let p = call!(t; clCreateProgramWithSource(ctx, 1, &mut sp, null(), &mut e));
    let r = call!(t; clBuildProgram(p, 1, &dev, c"-cl-std=CL3.0".as_ptr(), None, null()));
    assert_eq!(r, CL_SUCCESS, "{}", code_name(r));
    let where_ = t.buffer(ctx, CL_MEM_READ_WRITE, 4 * 8);
    let out = t.buffer(ctx, CL_MEM_READ_WRITE, 5 * 4);
    let mut kernel = |name: &std::ffi::CStr, args: &[cl_mem]| {
        let k = call!(t; clCreateKernel(p, name.as_ptr(), &mut e));
        assert_eq!(e, CL_SUCCESS);
        for (i, a) in args.iter().enumerate() {
            let r = call!(t; clSetKernelArg(k, i as u32, std::mem::size_of::<cl_mem>(), (a as *const cl_mem).cast()));
            assert_eq!(r, CL_SUCCESS);
        }
        k
    };
    let store = kernel(c"store", &[where_]);
    let classify = kernel(c"classify", &[where_, out]);
    // Groups of 4 on several threads, then the examination on one.
    let (n, l, one) = (64usize, 4usize, 1usize);
    let r = call!(t; clEnqueueNDRangeKernel(q, store, 1, null(), &n, &l, 0, null(), null()));
    assert_eq!(r, CL_SUCCESS);
    let r = call!(t; clEnqueueNDRangeKernel(q, classify, 1, null(), &one, &one, 0, null(), null()));
    assert_eq!(r, CL_SUCCESS);
    let mut got = [0i32; 5];
    let r = call!(t; clEnqueueReadBuffer(q, out, CL_TRUE, 0, 20, got.as_mut_ptr() as *mut c_void, 0, null(), null()));
    assert_eq!(r, CL_SUCCESS);
    // private, local (with the local fence), global, global, NULL: none.
    assert_eq!(got, [4, 2 | 8, 1, 1, 0]);
    for k in [store, classify] {
        call!(t; clReleaseKernel(k));
    }
    for m in [where_, out] {
        call!(t; clReleaseMemObject(m));
    }
    call!(t; clReleaseProgram(p));
    call!(t; clReleaseCommandQueue(q));
    call!(t; clReleaseContext(ctx));
}
