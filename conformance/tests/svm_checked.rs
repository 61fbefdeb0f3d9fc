//! Checked mode (`CRANECL_CHECK=bounds`, set in this process before its
//! first context) with shared virtual memory: every SVM allocation of the
//! context is an object with its own bounds (a write past one is reported
//! and the command fails), pointers followed from one allocation into
//! another are fine, and the host's own memory (fine-grain system SVM) is
//! not checked when the kernel was given such a pointer as an argument or
//! `CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM` was set to `CL_TRUE`;
//! otherwise reaching it is reported like any access outside the objects.
//! A kernel keeps its launch's objects for the next launch with the same
//! arguments; an allocation made in between and an argument set again are
//! seen all the same.

use cranecl_conformance::{assert_code, call, cl, null, Cl, NotifyLog};
use opencl_sys::*;
use std::ffi::{c_char, c_void, CStr};
use std::sync::Once;

const SOURCE: &str = r#"
kernel void scale(global int *p, int k) { p[get_global_id(0)] = (int)get_global_id(0) * k; }
typedef struct Node { int value; global struct Node *next; } Node;
kernel void walk(global Node *head, global int *out) {
    int sum = 0;
    for (global Node *it = head; it != 0; it = it->next) sum += it->value;
    out[0] = sum;
}
"#;

fn t() -> &'static Cl {
    static ENV: Once = Once::new();
    ENV.call_once(|| std::env::set_var("CRANECL_CHECK", "bounds"));
    cl()
}

struct Fix {
    ctx: cl_context,
    q: cl_command_queue,
    prog: cl_program,
    log: &'static NotifyLog,
}

impl Fix {
    fn new() -> Fix {
        let t = t();
        let (ctx, log) = t.context_with_log();
        let dev = t.device();
        let mut e = 0;
        let q = t.queue(ctx, 0);
        let mut src = SOURCE.as_ptr() as *const c_char;
        let len = SOURCE.len();
        let prog = call!(t; clCreateProgramWithSource(ctx, 1, &mut src, &len, &mut e));
        assert_code!(e, CL_SUCCESS);
        assert_code!(
            call!(t; clBuildProgram(prog, 1, &dev, c"".as_ptr(), None, null())),
            CL_SUCCESS
        );
        Fix { ctx, q, prog, log }
    }

    fn kernel(&self, name: &CStr) -> cl_kernel {
        let mut e = 0;
        let k = call!(t(); clCreateKernel(self.prog, name.as_ptr(), &mut e));
        assert_code!(e, CL_SUCCESS);
        k
    }

    /// Run `k` on `n` work-items; its final status.
    fn run(&self, k: cl_kernel, n: usize) -> cl_int {
        let t = t();
        let mut ev = null();
        assert_code!(
            call!(t; clEnqueueNDRangeKernel(self.q, k, 1, null(), &n, null(), 0, null(), &mut ev)),
            CL_SUCCESS
        );
        call!(t; clWaitForEvents(1, &ev));
        let mut status: cl_int = 1;
        assert_code!(
            call!(t; clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, 4, (&mut status as *mut i32).cast(), null())),
            CL_SUCCESS
        );
        call!(t; clReleaseEvent(ev));
        status
    }

    fn reports(&self) -> String {
        self.log.lock().unwrap().join("\n")
    }
}

impl Drop for Fix {
    fn drop(&mut self) {
        let t = t();
        call!(t; clFinish(self.q));
        call!(t; clReleaseProgram(self.prog));
        call!(t; clReleaseCommandQueue(self.q));
        call!(t; clReleaseContext(self.ctx));
    }
}

fn svm_arg(k: cl_kernel, i: cl_uint, p: *const c_void) {
    assert_code!(call!(t(); clSetKernelArgSVMPointer(k, i, p)), CL_SUCCESS);
}

#[test]
fn a_write_past_an_svm_allocation_is_reported() {
    let f = Fix::new();
    let t = t();
    let p = call!(t; clSVMAlloc(f.ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER, 64 * 4, 0));
    assert!(!p.is_null());
    let k = f.kernel(c"scale");
    svm_arg(k, 0, p);
    let one: cl_int = 1;
    assert_code!(
        call!(t; clSetKernelArg(k, 1, 4, (&one as *const i32).cast())),
        CL_SUCCESS
    );
    assert_eq!(f.run(k, 64), CL_COMPLETE, "in bounds: clean");
    assert_eq!(f.reports(), "");
    assert_eq!(
        f.run(k, 65),
        CL_OUT_OF_RESOURCES,
        "one element past the end"
    );
    let r = f.reports();
    assert!(
        r.contains(
            "invalid write of 4 bytes at offset 256 of global SVM allocation (256 bytes) of argument 'p', just past its end"
        ),
        "{r}"
    );
    call!(t; clReleaseKernel(k));
    call!(t; clSVMFree(f.ctx, p));
}

#[repr(C)]
struct Node {
    value: i32,
    next: *mut Node,
}

/// A list of three nodes at `nodes` (consecutive), values 1, 2, 3.
///
/// # Safety
/// `nodes` has room for three nodes.
unsafe fn link(nodes: *mut Node) {
    for i in 0..3 {
        let next = if i < 2 {
            unsafe { nodes.add(i + 1) }
        } else {
            std::ptr::null_mut()
        };
        unsafe {
            nodes.add(i).write(Node {
                value: i as i32 + 1,
                next,
            })
        };
    }
}

/// A list of three nodes in one SVM allocation (values 1, 2, 3) and a
/// 4-byte SVM allocation for the `walk` kernel's sum.
fn list_and_out(f: &Fix) -> (*mut Node, *mut c_void) {
    let t = t();
    let size = 3 * std::mem::size_of::<Node>();
    let nodes = call!(t; clSVMAlloc(f.ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER, size, 0)) as *mut Node;
    let out = call!(t; clSVMAlloc(f.ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER, 4, 0));
    // SAFETY: room for three nodes.
    unsafe { link(nodes) };
    (nodes, out)
}

#[test]
fn pointers_between_svm_allocations_are_clean() {
    let f = Fix::new();
    let t = t();
    let (nodes, out) = list_and_out(&f);
    let k = f.kernel(c"walk");
    // The head is the second node: the kernel reaches the third through
    // memory.
    // SAFETY: inside the allocation.
    svm_arg(k, 0, unsafe { nodes.add(1) }.cast());
    svm_arg(k, 1, out);
    assert_eq!(f.run(k, 1), CL_COMPLETE, "{}", f.reports());
    // SAFETY: a 4-byte SVM allocation.
    assert_eq!(unsafe { *(out as *const i32) }, 5);
    call!(t; clReleaseKernel(k));
    call!(t; clSVMFree(f.ctx, nodes.cast()));
    call!(t; clSVMFree(f.ctx, out));
}

#[test]
fn host_memory_is_unchecked_only_under_fine_grain_system() {
    let f = Fix::new();
    let t = t();
    // A host pointer as the argument: fine-grain system SVM, not checked.
    let mut host = vec![0i32; 16];
    let k = f.kernel(c"scale");
    svm_arg(k, 0, host.as_mut_ptr().cast());
    let two: cl_int = 2;
    assert_code!(
        call!(t; clSetKernelArg(k, 1, 4, (&two as *const i32).cast())),
        CL_SUCCESS
    );
    assert_eq!(f.run(k, 16), CL_COMPLETE, "{}", f.reports());
    assert_eq!(host, (0..16).map(|i| 2 * i).collect::<Vec<_>>());
    call!(t; clReleaseKernel(k));

    // The head in SVM, the rest of the list in the host's memory.
    let mut list: Vec<Node> = (0..3)
        .map(|_| Node {
            value: 0,
            next: std::ptr::null_mut(),
        })
        .collect();
    // SAFETY: three nodes.
    unsafe { link(list.as_mut_ptr()) };
    let head = call!(t; clSVMAlloc(f.ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER, std::mem::size_of::<Node>(), 0))
        as *mut Node;
    let out = call!(t; clSVMAlloc(f.ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER, 4, 0));
    // SAFETY: one node.
    unsafe {
        head.write(Node {
            value: 10,
            next: list.as_mut_ptr(),
        })
    };
    let k = f.kernel(c"walk");
    svm_arg(k, 0, head.cast());
    svm_arg(k, 1, out);
    // Not declared: the host's nodes are outside every object.
    assert_eq!(f.run(k, 1), CL_OUT_OF_RESOURCES);
    assert!(f.reports().contains("invalid read"), "{}", f.reports());
    // Declared with CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM: clean.
    let yes: cl_bool = CL_TRUE;
    assert_code!(
        call!(t; clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, 4, (&yes as *const cl_bool).cast())),
        CL_SUCCESS
    );
    let before = f.log.lock().unwrap().len();
    assert_eq!(f.run(k, 1), CL_COMPLETE);
    assert_eq!(f.log.lock().unwrap().len(), before, "no new report");
    // SAFETY: a 4-byte SVM allocation.
    assert_eq!(unsafe { *(out as *const i32) }, 16);
    call!(t; clReleaseKernel(k));
    call!(t; clSVMFree(f.ctx, head.cast()));
    call!(t; clSVMFree(f.ctx, out));
}

/// A launch's objects are kept by its kernel for the next launch with the
/// same arguments: an allocation made in between is an object of the next
/// launch all the same (a list that grows into it is walked clean).
#[test]
fn an_allocation_made_between_launches_is_an_object_of_the_next() {
    let f = Fix::new();
    let t = t();
    let (nodes, out) = list_and_out(&f);
    let k = f.kernel(c"walk");
    svm_arg(k, 0, nodes.cast());
    svm_arg(k, 1, out);
    assert_eq!(f.run(k, 1), CL_COMPLETE, "{}", f.reports());
    // SAFETY: a 4-byte SVM allocation.
    assert_eq!(unsafe { *(out as *const i32) }, 6);
    // A fourth node in a new allocation, linked from the third.
    let extra = call!(t; clSVMAlloc(f.ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER, std::mem::size_of::<Node>(), 0))
        as *mut Node;
    // SAFETY: one node; the third node of `nodes`.
    unsafe {
        extra.write(Node {
            value: 10,
            next: std::ptr::null_mut(),
        });
        (*nodes.add(2)).next = extra;
    }
    assert_eq!(f.run(k, 1), CL_COMPLETE, "{}", f.reports());
    assert_eq!(f.reports(), "");
    // SAFETY: as above.
    assert_eq!(unsafe { *(out as *const i32) }, 16);
    call!(t; clReleaseKernel(k));
    for p in [nodes.cast(), out, extra.cast()] {
        call!(t; clSVMFree(f.ctx, p));
    }
}

/// A kernel launched again after its buffer argument was set to another
/// buffer checks against the new one (its size, its name in the report).
#[test]
fn a_buffer_argument_set_again_is_checked_as_the_new_buffer() {
    let f = Fix::new();
    let t = t();
    let mut e = 0;
    let big = call!(t; clCreateBuffer(f.ctx, CL_MEM_READ_WRITE, 64 * 4, null(), &mut e));
    assert_code!(e, CL_SUCCESS);
    let small = call!(t; clCreateBuffer(f.ctx, CL_MEM_READ_WRITE, 32 * 4, null(), &mut e));
    assert_code!(e, CL_SUCCESS);
    let k = f.kernel(c"scale");
    let one: cl_int = 1;
    assert_code!(
        call!(t; clSetKernelArg(k, 1, 4, (&one as *const i32).cast())),
        CL_SUCCESS
    );
    let set = |b: &cl_mem| {
        assert_code!(
            call!(t; clSetKernelArg(k, 0, std::mem::size_of::<cl_mem>(), (b as *const cl_mem).cast())),
            CL_SUCCESS
        );
    };
    set(&big);
    assert_eq!(f.run(k, 33), CL_COMPLETE, "{}", f.reports());
    set(&small);
    assert_eq!(
        f.run(k, 33),
        CL_OUT_OF_RESOURCES,
        "one element past the end"
    );
    let r = f.reports();
    assert!(
        r.contains("invalid write of 4 bytes at offset 128 of global buffer argument 'p' (128 bytes), just past its end"),
        "{r}"
    );
    call!(t; clReleaseKernel(k));
    call!(t; clReleaseMemObject(big));
    call!(t; clReleaseMemObject(small));
}
