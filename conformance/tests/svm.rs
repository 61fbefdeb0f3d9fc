//! Shared virtual memory through the loader (and straight to the ICD):
//! `clSVMAlloc`/`clSVMFree`, kernels that write through SVM pointers (the
//! allocation's own, one inside it, the host's `malloc` memory), a linked
//! list built on the host and walked by a kernel
//! (`CL_KERNEL_EXEC_INFO_SVM_PTRS`), atomics between the host and a running
//! kernel, the SVM commands with their events and callbacks, buffers on SVM
//! memory (`CL_MEM_USES_SVM_POINTER`), a fault past an allocation named in
//! the failed command's message, and every error code of these calls.

use cranecl_conformance::{assert_code, both_ways, call, null, Cl};
use opencl_sys::*;
use std::ffi::{c_char, c_void};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Mutex;

const SOURCE: &str = r#"
kernel void scale(global int *p, int k) { p[get_global_id(0)] = (int)get_global_id(0) * k; }
kernel void twice(global int *p) { p[get_global_id(0)] *= 2; }
typedef struct Node { int value; global struct Node *next; } Node;
kernel void walk(global Node *head, global int *out) {
    int sum = 0, n = 0;
    for (global Node *it = head; it != 0; it = it->next) { sum += it->value; n++; }
    out[0] = sum;
    out[1] = n;
}
kernel void pingpong(volatile global int *flag, global int *seen) {
    if (get_global_id(0) != 0) return;
    int i = 0;
    while (atomic_add(flag, 0) != 1 && i < 200000000) i++;
    seen[0] = i < 200000000;
    atomic_xchg(flag, 2);
    i = 0;
    while (atomic_add(flag, 0) != 3 && i < 200000000) i++;
    seen[1] = i < 200000000;
    atomic_xchg(flag, 4);
}
kernel void count(volatile global int *counter) { atomic_inc(counter); }
void classify(int *q, global int *out) {
    out[0] = to_global(q) != 0;
    out[1] = to_local(q) == 0 && to_private(q) == 0;
    out[2] = get_fence(q) == CLK_GLOBAL_MEM_FENCE;
}
kernel void spaces(global int *p, global int *out) { classify(p, out); }
kernel void with_local(local int *l, global int *p) { p[0] = 1; }
"#;

struct Fix<'a> {
    t: &'a Cl,
    ctx: cl_context,
    q: cl_command_queue,
    prog: cl_program,
}

impl<'a> Fix<'a> {
    fn new(t: &'a Cl) -> Self {
        let ctx = t.context();
        let q = t.queue(ctx, 0);
        let dev = t.device();
        let mut e = 0;
        let mut src = SOURCE.as_ptr() as *const c_char;
        let len = SOURCE.len();
        let prog = call!(t; clCreateProgramWithSource(ctx, 1, &mut src, &len, &mut e));
        assert_code!(e, CL_SUCCESS);
        assert_code!(
            call!(t; clBuildProgram(prog, 1, &dev, c"-cl-std=CL3.0".as_ptr(), None, null())),
            CL_SUCCESS,
            "clBuildProgram"
        );
        Fix { t, ctx, q, prog }
    }

    fn kernel(&self, name: &std::ffi::CStr) -> cl_kernel {
        let mut e = 0;
        let k = call!(self.t; clCreateKernel(self.prog, name.as_ptr(), &mut e));
        assert_code!(e, CL_SUCCESS, "clCreateKernel");
        k
    }

    fn alloc(&self, flags: cl_svm_mem_flags, size: usize) -> *mut c_void {
        let p = call!(self.t; clSVMAlloc(self.ctx, flags, size, 0));
        assert!(!p.is_null(), "clSVMAlloc({flags:#x}, {size})");
        p
    }

    fn svm_arg(&self, k: cl_kernel, i: cl_uint, p: *const c_void) {
        assert_code!(
            call!(self.t; clSetKernelArgSVMPointer(k, i, p)),
            CL_SUCCESS,
            "clSetKernelArgSVMPointer({i})"
        );
    }

    fn run(&self, k: cl_kernel, n: usize) {
        assert_code!(
            call!(self.t; clEnqueueNDRangeKernel(self.q, k, 1, null(), &n, null(), 0, null(), null())),
            CL_SUCCESS,
            "clEnqueueNDRangeKernel"
        );
        assert_code!(call!(self.t; clFinish(self.q)), CL_SUCCESS);
    }

    fn user_event(&self) -> cl_event {
        self.t.user_event(self.ctx)
    }
}

impl Drop for Fix<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            return;
        }
        let t = self.t;
        assert_code!(call!(t; clFinish(self.q)), CL_SUCCESS);
        assert_code!(call!(t; clReleaseProgram(self.prog)), CL_SUCCESS);
        assert_code!(call!(t; clReleaseCommandQueue(self.q)), CL_SUCCESS);
        assert_code!(call!(t; clReleaseContext(self.ctx)), CL_SUCCESS);
    }
}

fn ints<'a>(p: *mut c_void, n: usize) -> &'a mut [i32] {
    // SAFETY: the tests pass SVM allocations of at least n ints.
    unsafe { std::slice::from_raw_parts_mut(p as *mut i32, n) }
}

fn command_type(t: &Cl, ev: cl_event) -> cl_command_type {
    let mut v: cl_command_type = 0;
    assert_code!(
        call!(t; clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, 4, (&mut v as *mut cl_command_type).cast(), null())),
        CL_SUCCESS
    );
    v
}

fn capabilities_are_all_four(t: &Cl) {
    let mut caps: cl_device_svm_capabilities = 0;
    assert_code!(
        call!(t; clGetDeviceInfo(t.device(), CL_DEVICE_SVM_CAPABILITIES, 8, (&mut caps as *mut u64).cast(), null())),
        CL_SUCCESS
    );
    assert_eq!(
        caps,
        CL_DEVICE_SVM_COARSE_GRAIN_BUFFER
            | CL_DEVICE_SVM_FINE_GRAIN_BUFFER
            | CL_DEVICE_SVM_FINE_GRAIN_SYSTEM
            | CL_DEVICE_SVM_ATOMICS
    );
}

fn fine_grain_kernel_writes_host_reads(t: &Cl) {
    let f = Fix::new(t);
    let n = 1000;
    let p = f.alloc(CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, n * 4);
    let k = f.kernel(c"scale");
    f.svm_arg(k, 0, p);
    let three: cl_int = 3;
    assert_code!(
        call!(t; clSetKernelArg(k, 1, 4, (&three as *const i32).cast())),
        CL_SUCCESS
    );
    f.run(k, n);
    let v = ints(p, n);
    for (i, &x) in v.iter().enumerate() {
        assert_eq!(x, 3 * i as i32, "element {i}");
    }
    call!(t; clReleaseKernel(k));
    call!(t; clSVMFree(f.ctx, p));
}

fn coarse_grain_through_map(t: &Cl) {
    let f = Fix::new(t);
    let n = 256;
    let p = f.alloc(CL_MEM_READ_WRITE, n * 4);
    let mut ev = null();
    assert_code!(
        call!(t; clEnqueueSVMMap(f.q, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, p, n * 4, 0, null(), &mut ev)),
        CL_SUCCESS
    );
    assert_eq!(command_type(t, ev), CL_COMMAND_SVM_MAP);
    call!(t; clReleaseEvent(ev));
    for (i, x) in ints(p, n).iter_mut().enumerate() {
        *x = i as i32 + 10;
    }
    assert_code!(
        call!(t; clEnqueueSVMUnmap(f.q, p, 0, null(), &mut ev)),
        CL_SUCCESS
    );
    assert_eq!(command_type(t, ev), CL_COMMAND_SVM_UNMAP);
    call!(t; clReleaseEvent(ev));
    let k = f.kernel(c"twice");
    f.svm_arg(k, 0, p);
    f.run(k, n);
    assert_code!(
        call!(t; clEnqueueSVMMap(f.q, CL_TRUE, CL_MAP_READ, p, n * 4, 0, null(), null())),
        CL_SUCCESS
    );
    for (i, &x) in ints(p, n).iter().enumerate() {
        assert_eq!(x, 2 * (i as i32 + 10), "element {i}");
    }
    assert_code!(
        call!(t; clEnqueueSVMUnmap(f.q, p, 0, null(), null())),
        CL_SUCCESS
    );
    assert_code!(call!(t; clFinish(f.q)), CL_SUCCESS);
    call!(t; clReleaseKernel(k));
    call!(t; clSVMFree(f.ctx, p));
}

fn pointer_inside_an_allocation(t: &Cl) {
    let f = Fix::new(t);
    let p = f.alloc(CL_MEM_SVM_FINE_GRAIN_BUFFER, 64 * 4);
    ints(p, 64).fill(-1);
    let k = f.kernel(c"scale");
    // SAFETY: 16 ints into a 64-int allocation.
    f.svm_arg(k, 0, unsafe { (p as *mut i32).add(16) }.cast());
    let one: cl_int = 1;
    assert_code!(
        call!(t; clSetKernelArg(k, 1, 4, (&one as *const i32).cast())),
        CL_SUCCESS
    );
    f.run(k, 16);
    let v = ints(p, 64);
    for (i, &x) in v.iter().enumerate() {
        let want = if (16..32).contains(&i) {
            i as i32 - 16
        } else {
            -1
        };
        assert_eq!(x, want, "element {i}");
    }
    call!(t; clReleaseKernel(k));
    call!(t; clSVMFree(f.ctx, p));
}

#[repr(C)]
struct Node {
    value: i32,
    next: *mut Node,
}

fn linked_list_built_on_the_host(t: &Cl) {
    let f = Fix::new(t);
    let n = 50;
    // The head in one allocation, the other nodes scattered over a second
    // that the kernel reaches only through pointers stored in memory.
    let head = f.alloc(CL_MEM_SVM_FINE_GRAIN_BUFFER, std::mem::size_of::<Node>()) as *mut Node;
    let pool = f.alloc(
        CL_MEM_SVM_FINE_GRAIN_BUFFER,
        n * std::mem::size_of::<Node>(),
    ) as *mut Node;
    let out = f.alloc(CL_MEM_SVM_FINE_GRAIN_BUFFER, 8);
    // Nodes in the pool linked in a shuffled order: slot (i * 7) % n.
    let slot = |i: usize| (i * 7) % n;
    let mut want = 1;
    // SAFETY: every slot is inside the pool; the head is one node.
    unsafe {
        head.write(Node {
            value: 1,
            next: pool.add(slot(0)),
        });
        for i in 0..n {
            let next = if i + 1 < n {
                pool.add(slot(i + 1))
            } else {
                std::ptr::null_mut()
            };
            let value = (i as i32 + 2) * 3;
            want += value;
            pool.add(slot(i)).write(Node { value, next });
        }
    }
    let k = f.kernel(c"walk");
    f.svm_arg(k, 0, head.cast());
    f.svm_arg(k, 1, out);
    // A pointer into the middle of the pool names the whole allocation.
    // SAFETY: inside the pool.
    let ptrs: [*mut c_void; 1] = [unsafe { pool.add(3) }.cast()];
    assert_code!(
        call!(t; clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, 8, ptrs.as_ptr().cast())),
        CL_SUCCESS
    );
    f.run(k, 1);
    assert_eq!(ints(out, 2), &[want, n as i32 + 1]);
    call!(t; clReleaseKernel(k));
    for p in [head.cast(), pool.cast(), out] {
        call!(t; clSVMFree(f.ctx, p));
    }
}

fn atomics_between_host_and_a_running_kernel(t: &Cl) {
    let f = Fix::new(t);
    let flags = CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS;
    let flag = f.alloc(flags, 4);
    let seen = f.alloc(flags, 8);
    // SAFETY: a 4-byte, 128-aligned SVM allocation used only atomically.
    let host_flag = unsafe { &*(flag as *const AtomicI32) };
    let k = f.kernel(c"pingpong");
    f.svm_arg(k, 0, flag);
    f.svm_arg(k, 1, seen);
    let n = 64usize;
    assert_code!(
        call!(t; clEnqueueNDRangeKernel(f.q, k, 1, null(), &n, null(), 0, null(), null())),
        CL_SUCCESS
    );
    assert_code!(call!(t; clFlush(f.q)), CL_SUCCESS);
    // The kernel answers each of the host's values while it runs.
    host_flag.store(1, Ordering::SeqCst);
    let mut spins = 0u64;
    while host_flag.load(Ordering::SeqCst) != 2 && spins < 20_000_000_000 {
        std::hint::spin_loop();
        spins += 1;
    }
    assert_eq!(host_flag.load(Ordering::SeqCst), 2, "the kernel's answer");
    host_flag.store(3, Ordering::SeqCst);
    assert_code!(call!(t; clFinish(f.q)), CL_SUCCESS);
    assert_eq!(host_flag.load(Ordering::SeqCst), 4);
    assert_eq!(ints(seen, 2), &[1, 1]);
    call!(t; clReleaseKernel(k));

    // Host and kernel increment one counter at the same time.
    let counter = f.alloc(flags, 4);
    // SAFETY: as above.
    let host_counter = unsafe { &*(counter as *const AtomicI32) };
    let k = f.kernel(c"count");
    f.svm_arg(k, 0, counter);
    let n = 100_000usize;
    assert_code!(
        call!(t; clEnqueueNDRangeKernel(f.q, k, 1, null(), &n, null(), 0, null(), null())),
        CL_SUCCESS
    );
    assert_code!(call!(t; clFlush(f.q)), CL_SUCCESS);
    for _ in 0..n {
        host_counter.fetch_add(1, Ordering::SeqCst);
    }
    assert_code!(call!(t; clFinish(f.q)), CL_SUCCESS);
    assert_eq!(host_counter.load(Ordering::SeqCst), 2 * n as i32);
    call!(t; clReleaseKernel(k));
    for p in [flag, seen, counter] {
        call!(t; clSVMFree(f.ctx, p));
    }
}

fn host_memory_as_fine_grain_system_svm(t: &Cl) {
    let f = Fix::new(t);
    let mut host = vec![0i32; 100];
    let k = f.kernel(c"scale");
    f.svm_arg(k, 0, host.as_mut_ptr().cast());
    let five: cl_int = 5;
    assert_code!(
        call!(t; clSetKernelArg(k, 1, 4, (&five as *const i32).cast())),
        CL_SUCCESS
    );
    f.run(k, 100);
    for (i, &x) in host.iter().enumerate() {
        assert_eq!(x, 5 * i as i32);
    }
    call!(t; clReleaseKernel(k));
}

fn generic_pointers_into_svm_are_global(t: &Cl) {
    let f = Fix::new(t);
    let p = f.alloc(CL_MEM_SVM_FINE_GRAIN_BUFFER, 64);
    let out = f.alloc(CL_MEM_SVM_FINE_GRAIN_BUFFER, 16);
    let k = f.kernel(c"spaces");
    // SAFETY: inside the allocation.
    f.svm_arg(k, 0, unsafe { (p as *mut i32).add(3) }.cast());
    f.svm_arg(k, 1, out);
    f.run(k, 1);
    assert_eq!(ints(out, 3), &[1, 1, 1]);
    call!(t; clReleaseKernel(k));
    call!(t; clSVMFree(f.ctx, p));
    call!(t; clSVMFree(f.ctx, out));
}

fn memcpy_fill_and_migrate_with_events(t: &Cl) {
    let f = Fix::new(t);
    let n = 1024;
    let a = f.alloc(CL_MEM_READ_WRITE, n * 4);
    let b = f.alloc(CL_MEM_SVM_FINE_GRAIN_BUFFER, n * 4);
    // Fill a with a 4-byte pattern, behind a user event.
    let gate = f.user_event();
    let pattern: i32 = 0x0102_0304;
    let mut fill_ev = null();
    assert_code!(
        call!(t; clEnqueueSVMMemFill(f.q, a, (&pattern as *const i32).cast(), 4, n * 4, 1, &gate, &mut fill_ev)),
        CL_SUCCESS
    );
    assert_eq!(command_type(t, fill_ev), CL_COMMAND_SVM_MEMFILL);
    // Copy a to b after the fill (the in-order queue orders them).
    let mut copy_ev = null();
    assert_code!(
        call!(t; clEnqueueSVMMemcpy(f.q, CL_FALSE, b, a, n * 4, 0, null(), &mut copy_ev)),
        CL_SUCCESS
    );
    assert_eq!(command_type(t, copy_ev), CL_COMMAND_SVM_MEMCPY);
    let mut status: cl_int = 0;
    assert_code!(
        call!(t; clGetEventInfo(copy_ev, CL_EVENT_COMMAND_EXECUTION_STATUS, 4, (&mut status as *mut i32).cast(), null())),
        CL_SUCCESS
    );
    assert!(status > CL_COMPLETE, "the copy waits for the gate");
    assert!(ints(b, n).iter().all(|&x| x == 0), "nothing copied yet");
    assert_code!(
        call!(t; clSetUserEventStatus(gate, CL_COMPLETE)),
        CL_SUCCESS
    );
    assert_code!(call!(t; clWaitForEvents(1, &copy_ev)), CL_SUCCESS);
    assert!(ints(b, n).iter().all(|&x| x == pattern));
    // A 16-byte pattern over the middle of b, then a blocking copy back.
    let wide: [i32; 4] = [7, 8, 9, 10];
    // SAFETY: 64 ints into a 1024-int allocation.
    let mid = unsafe { (b as *mut i32).add(64) } as *mut c_void;
    assert_code!(
        call!(t; clEnqueueSVMMemFill(f.q, mid, wide.as_ptr().cast(), 16, 128 * 4, 0, null(), null())),
        CL_SUCCESS
    );
    assert_code!(
        call!(t; clEnqueueSVMMemcpy(f.q, CL_TRUE, a, b, n * 4, 0, null(), null())),
        CL_SUCCESS
    );
    assert_code!(
        call!(t; clEnqueueSVMMap(f.q, CL_TRUE, CL_MAP_READ, a, n * 4, 0, null(), null())),
        CL_SUCCESS
    );
    for (i, &x) in ints(a, n).iter().enumerate() {
        let want = if (64..192).contains(&i) {
            wide[i % 4]
        } else {
            pattern
        };
        assert_eq!(x, want, "element {i}");
    }
    assert_code!(
        call!(t; clEnqueueSVMUnmap(f.q, a, 0, null(), null())),
        CL_SUCCESS
    );
    // Copies between SVM and the host's memory, both ways.
    let mut host = vec![0i32; 16];
    assert_code!(
        call!(t; clEnqueueSVMMemcpy(f.q, CL_TRUE, host.as_mut_ptr().cast(), mid, 64, 0, null(), null())),
        CL_SUCCESS
    );
    assert_eq!(&host[..4], &wide);
    // Migrate: whole allocations (sizes NULL), and ranges inside them.
    let ptrs: [*const c_void; 2] = [a, mid];
    let mut ev = null();
    assert_code!(
        call!(t; clEnqueueSVMMigrateMem(f.q, 2, ptrs.as_ptr() as *mut _, null(), 0, 0, null(), &mut ev)),
        CL_SUCCESS
    );
    assert_eq!(command_type(t, ev), CL_COMMAND_SVM_MIGRATE_MEM);
    assert_code!(call!(t; clWaitForEvents(1, &ev)), CL_SUCCESS);
    call!(t; clReleaseEvent(ev));
    let sizes = [n * 4, 0];
    assert_code!(
        call!(t; clEnqueueSVMMigrateMem(f.q, 2, ptrs.as_ptr() as *mut _, sizes.as_ptr(), CL_MIGRATE_MEM_OBJECT_HOST, 0, null(), null())),
        CL_SUCCESS
    );
    assert_code!(call!(t; clFinish(f.q)), CL_SUCCESS);
    for e in [gate, fill_ev, copy_ev] {
        call!(t; clReleaseEvent(e));
    }
    call!(t; clSVMFree(f.ctx, a));
    call!(t; clSVMFree(f.ctx, b));
}

/// What the `clEnqueueSVMFree` callback saw.
static FREED: Mutex<Vec<(usize, Vec<usize>, usize)>> = Mutex::new(Vec::new());

unsafe extern "C" fn free_cb(
    q: cl_command_queue,
    n: cl_uint,
    ptrs: *mut *mut c_void,
    user: *mut c_void,
) {
    // SAFETY: the implementation passes n pointers.
    let list: Vec<usize> = unsafe { std::slice::from_raw_parts(ptrs, n as usize) }
        .iter()
        .map(|&p| p as usize)
        .collect();
    // `user` is the context: free them as the callback's owner would.
    let t = cranecl_conformance::cl();
    for &p in &list {
        call!(t; clSVMFree(user as cl_context, p as *mut c_void));
    }
    FREED
        .lock()
        .unwrap()
        .push((q as usize, list, user as usize));
}

fn enqueue_svm_free_with_and_without_callback(t: &Cl) {
    let f = Fix::new(t);
    let a = f.alloc(CL_MEM_READ_WRITE, 64);
    let b = f.alloc(CL_MEM_READ_WRITE, 64);
    let mut ptrs = [a, b];
    let gate = f.user_event();
    let mut ev = null();
    assert_code!(
        call!(t; clEnqueueSVMFree(f.q, 2, ptrs.as_mut_ptr(), Some(free_cb), f.ctx, 1, &gate, &mut ev)),
        CL_SUCCESS
    );
    assert_eq!(command_type(t, ev), CL_COMMAND_SVM_FREE);
    // The list is ours again at return.
    ptrs = [null(), null()];
    let mine = |e: &(usize, Vec<usize>, usize)| e.0 == f.q as usize;
    assert!(
        !FREED.lock().unwrap().iter().any(mine),
        "not before the gate"
    );
    assert_code!(
        call!(t; clSetUserEventStatus(gate, CL_COMPLETE)),
        CL_SUCCESS
    );
    assert_code!(call!(t; clWaitForEvents(1, &ev)), CL_SUCCESS);
    // Take this queue's entries out: a later test's queue may be
    // allocated at this one's address once it is released.
    let seen: Vec<_> = {
        let mut freed = FREED.lock().unwrap();
        let (seen, rest) = freed.drain(..).partition(|e| mine(e));
        *freed = rest;
        seen
    };
    assert_eq!(
        seen,
        vec![(f.q as usize, vec![a as usize, b as usize], f.ctx as usize)]
    );
    let _ = ptrs;
    // Freed: a migrate naming it finds no allocation.
    let gone: [*const c_void; 1] = [a];
    assert_code!(
        call!(t; clEnqueueSVMMigrateMem(f.q, 1, gone.as_ptr() as *mut _, null(), 0, 0, null(), null())),
        CL_INVALID_VALUE,
        "a freed pointer"
    );
    // Without a callback the implementation frees them.
    let c = f.alloc(CL_MEM_SVM_FINE_GRAIN_BUFFER, 64);
    let mut list = [c];
    assert_code!(
        call!(t; clEnqueueSVMFree(f.q, 1, list.as_mut_ptr(), None, null(), 0, null(), null())),
        CL_SUCCESS
    );
    assert_code!(call!(t; clFinish(f.q)), CL_SUCCESS);
    let gone: [*const c_void; 1] = [c];
    assert_code!(
        call!(t; clEnqueueSVMMigrateMem(f.q, 1, gone.as_ptr() as *mut _, null(), 0, 0, null(), null())),
        CL_INVALID_VALUE,
        "freed without a callback"
    );
    // Nothing to free: an empty list is a command like any other.
    assert_code!(
        call!(t; clEnqueueSVMFree(f.q, 0, null(), None, null(), 0, null(), null())),
        CL_SUCCESS
    );
    // Without a callback, a pointer clSVMAlloc did not return is refused.
    let mut host = [0u8; 16];
    let mut list = [host.as_mut_ptr() as *mut c_void];
    assert_code!(
        call!(t; clEnqueueSVMFree(f.q, 1, list.as_mut_ptr(), None, null(), 0, null(), null())),
        CL_INVALID_VALUE
    );
    call!(t; clReleaseEvent(ev));
    call!(t; clReleaseEvent(gate));
}

fn buffers_on_svm_memory(t: &Cl) {
    let f = Fix::new(t);
    let n = 64;
    let p = f.alloc(CL_MEM_READ_WRITE, n * 4);
    let mut e = 0;
    let m = call!(t; clCreateBuffer(f.ctx, CL_MEM_USE_HOST_PTR, n * 4, p, &mut e));
    assert_code!(e, CL_SUCCESS);
    let uses = |m: cl_mem| {
        let mut v: cl_bool = 9;
        assert_code!(
            call!(t; clGetMemObjectInfo(m, CL_MEM_USES_SVM_POINTER, 4, (&mut v as *mut cl_bool).cast(), null())),
            CL_SUCCESS
        );
        v
    };
    assert_eq!(uses(m), CL_TRUE);
    let region = cl_buffer_region {
        origin: 128,
        size: 64,
    };
    let sub = call!(t; clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, (&region as *const cl_buffer_region).cast(), &mut e));
    assert_code!(e, CL_SUCCESS);
    assert_eq!(uses(sub), CL_TRUE, "a sub-buffer of an SVM-backed buffer");
    // The kernel writes through the buffer; the host sees it at the SVM
    // pointer.
    let k = f.kernel(c"twice");
    ints(p, n)
        .iter_mut()
        .enumerate()
        .for_each(|(i, x)| *x = i as i32);
    assert_code!(
        call!(t; clSetKernelArg(k, 0, 8, (&m as *const cl_mem).cast())),
        CL_SUCCESS
    );
    f.run(k, n);
    assert_code!(
        call!(t; clEnqueueSVMMap(f.q, CL_TRUE, CL_MAP_READ, p, n * 4, 0, null(), null())),
        CL_SUCCESS
    );
    for (i, &x) in ints(p, n).iter().enumerate() {
        assert_eq!(x, 2 * i as i32);
    }
    assert_code!(
        call!(t; clEnqueueSVMUnmap(f.q, p, 0, null(), null())),
        CL_SUCCESS
    );
    // Ordinary host memory is not SVM.
    let mut host = vec![0u8; 64];
    let plain =
        call!(t; clCreateBuffer(f.ctx, CL_MEM_USE_HOST_PTR, 64, host.as_mut_ptr().cast(), &mut e));
    assert_code!(e, CL_SUCCESS);
    assert_eq!(uses(plain), CL_FALSE);
    // Larger than the allocation: CL_INVALID_BUFFER_SIZE.
    for flags in [CL_MEM_USE_HOST_PTR, CL_MEM_COPY_HOST_PTR] {
        let big = call!(t; clCreateBuffer(f.ctx, flags, n * 4 + 1, p, &mut e));
        assert!(big.is_null());
        assert_code!(e, CL_INVALID_BUFFER_SIZE, "flags {flags:#x}");
    }
    assert_code!(call!(t; clFinish(f.q)), CL_SUCCESS);
    for o in [sub, m, plain] {
        call!(t; clReleaseMemObject(o));
    }
    call!(t; clReleaseKernel(k));
    call!(t; clSVMFree(f.ctx, p));
}

fn svm_alloc_refusals_return_null(t: &Cl) {
    let f = Fix::new(t);
    let alloc = |ctx: cl_context, flags: cl_svm_mem_flags, size: usize, align: cl_uint| call!(t; clSVMAlloc(ctx, flags, size, align));
    let rw = CL_MEM_READ_WRITE;
    let cases: [(&str, cl_context, cl_svm_mem_flags, usize, cl_uint); 9] = [
        ("NULL context", null(), rw, 64, 0),
        ("a queue as the context", f.q as cl_context, rw, 64, 0),
        (
            "ATOMICS without FINE_GRAIN_BUFFER",
            f.ctx,
            CL_MEM_SVM_ATOMICS,
            64,
            0,
        ),
        (
            "READ_WRITE with READ_ONLY",
            f.ctx,
            rw | CL_MEM_READ_ONLY,
            64,
            0,
        ),
        ("an unknown flag", f.ctx, CL_MEM_USE_HOST_PTR, 64, 0),
        ("size 0", f.ctx, rw, 0, 0),
        ("size past the maximum", f.ctx, rw, usize::MAX / 2, 0),
        ("alignment 3", f.ctx, rw, 64, 3),
        ("alignment 2 GiB", f.ctx, rw, 64, 1 << 31),
    ];
    for (what, ctx, flags, size, align) in cases {
        assert!(alloc(ctx, flags, size, align).is_null(), "{what}");
    }
    // Each access flag alone, and the fine-grain ones together, succeed;
    // an alignment asked for is honoured.
    for (flags, align) in [
        (CL_MEM_READ_ONLY, 0),
        (CL_MEM_WRITE_ONLY, 8),
        (CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS, 256),
        (0, 4096),
    ] {
        let p = alloc(f.ctx, flags, 100, align);
        assert!(!p.is_null(), "flags {flags:#x}, alignment {align}");
        assert_eq!(p as usize % (align.max(128) as usize), 0);
        call!(t; clSVMFree(f.ctx, p));
    }
    // clSVMFree of NULL does nothing.
    call!(t; clSVMFree(f.ctx, null()));
}

fn kernel_argument_and_exec_info_errors(t: &Cl) {
    let f = Fix::new(t);
    let p = f.alloc(CL_MEM_READ_WRITE, 64);
    let k = f.kernel(c"with_local");
    assert_code!(
        call!(t; clSetKernelArgSVMPointer(null(), 1, p)),
        CL_INVALID_KERNEL
    );
    assert_code!(
        call!(t; clSetKernelArgSVMPointer(f.q as cl_kernel, 1, p)),
        CL_INVALID_KERNEL
    );
    assert_code!(
        call!(t; clSetKernelArgSVMPointer(k, 2, p)),
        CL_INVALID_ARG_INDEX
    );
    assert_code!(
        call!(t; clSetKernelArgSVMPointer(k, 0, p)),
        CL_INVALID_ARG_VALUE,
        "a local pointer argument"
    );
    let s = f.kernel(c"scale");
    assert_code!(
        call!(t; clSetKernelArgSVMPointer(s, 1, p)),
        CL_INVALID_ARG_VALUE,
        "an int argument"
    );
    assert_code!(call!(t; clSetKernelArgSVMPointer(k, 1, p)), CL_SUCCESS);
    assert_code!(
        call!(t; clSetKernelArgSVMPointer(k, 1, null())),
        CL_SUCCESS,
        "NULL is a pointer value"
    );
    let ptrs = [p];
    let yes: cl_bool = CL_TRUE;
    let info = |k: cl_kernel, name: cl_kernel_exec_info, size: usize, v: *const c_void| call!(t; clSetKernelExecInfo(k, name, size, v));
    assert_code!(
        info(
            null(),
            CL_KERNEL_EXEC_INFO_SVM_PTRS,
            8,
            ptrs.as_ptr().cast()
        ),
        CL_INVALID_KERNEL
    );
    assert_code!(
        info(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, 8, null()),
        CL_INVALID_VALUE,
        "NULL value, size 8"
    );
    assert_code!(
        info(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, 5, ptrs.as_ptr().cast()),
        CL_INVALID_VALUE,
        "not a whole number of pointers"
    );
    assert_code!(
        info(
            k,
            CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM,
            1,
            (&yes as *const cl_bool).cast()
        ),
        CL_INVALID_VALUE,
        "a cl_bool of 1 byte"
    );
    assert_code!(
        info(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, 4, null()),
        CL_INVALID_VALUE
    );
    assert_code!(
        info(k, 0x9999, 4, (&yes as *const cl_bool).cast()),
        CL_INVALID_VALUE
    );
    assert_code!(
        info(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, 8, ptrs.as_ptr().cast()),
        CL_SUCCESS
    );
    assert_code!(
        info(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, null()),
        CL_SUCCESS,
        "the empty set"
    );
    assert_code!(
        info(
            k,
            CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM,
            4,
            (&yes as *const cl_bool).cast()
        ),
        CL_SUCCESS
    );
    call!(t; clReleaseKernel(k));
    call!(t; clReleaseKernel(s));
    call!(t; clSVMFree(f.ctx, p));
}

fn enqueue_errors(t: &Cl) {
    let f = Fix::new(t);
    let a = f.alloc(CL_MEM_READ_WRITE, 256);
    let b = f.alloc(CL_MEM_READ_WRITE, 256);
    // SAFETY: inside a.
    let a8 = unsafe { (a as *mut u8).add(8) } as *mut c_void;
    let a1 = unsafe { (a as *mut u8).add(1) } as *mut c_void;
    let pat = [0u8; 256];
    let pp: *const c_void = pat.as_ptr().cast();
    let q = f.q;
    let bad_q = f.ctx as cl_command_queue;
    let mut ptrs = [a];
    let cptrs: [*const c_void; 1] = [a];
    let cp = cptrs.as_ptr() as *mut *const c_void;
    // CL_INVALID_COMMAND_QUEUE, for every command.
    for qq in [null(), bad_q] {
        assert_code!(
            call!(t; clEnqueueSVMMemcpy(qq, CL_TRUE, b, a, 4, 0, null(), null())),
            CL_INVALID_COMMAND_QUEUE
        );
        assert_code!(
            call!(t; clEnqueueSVMMemFill(qq, a, pp, 4, 16, 0, null(), null())),
            CL_INVALID_COMMAND_QUEUE
        );
        assert_code!(
            call!(t; clEnqueueSVMMap(qq, CL_TRUE, CL_MAP_READ, a, 16, 0, null(), null())),
            CL_INVALID_COMMAND_QUEUE
        );
        assert_code!(
            call!(t; clEnqueueSVMUnmap(qq, a, 0, null(), null())),
            CL_INVALID_COMMAND_QUEUE
        );
        assert_code!(
            call!(t; clEnqueueSVMMigrateMem(qq, 1, cp, null(), 0, 0, null(), null())),
            CL_INVALID_COMMAND_QUEUE
        );
        assert_code!(
            call!(t; clEnqueueSVMFree(qq, 1, ptrs.as_mut_ptr(), None, null(), 0, null(), null())),
            CL_INVALID_COMMAND_QUEUE
        );
    }
    // Memcpy: NULL pointers, overlap (also a copy onto itself), a range
    // past the end of its allocation.
    assert_code!(
        call!(t; clEnqueueSVMMemcpy(q, CL_TRUE, null(), a, 4, 0, null(), null())),
        CL_INVALID_VALUE
    );
    assert_code!(
        call!(t; clEnqueueSVMMemcpy(q, CL_TRUE, b, null(), 4, 0, null(), null())),
        CL_INVALID_VALUE
    );
    assert_code!(
        call!(t; clEnqueueSVMMemcpy(q, CL_TRUE, a8, a, 16, 0, null(), null())),
        CL_MEM_COPY_OVERLAP
    );
    assert_code!(
        call!(t; clEnqueueSVMMemcpy(q, CL_TRUE, a, a8, 9, 0, null(), null())),
        CL_MEM_COPY_OVERLAP
    );
    assert_code!(
        call!(t; clEnqueueSVMMemcpy(q, CL_TRUE, a, a, 4, 0, null(), null())),
        CL_MEM_COPY_OVERLAP
    );
    assert_code!(
        call!(t; clEnqueueSVMMemcpy(q, CL_TRUE, a, a8, 8, 0, null(), null())),
        CL_SUCCESS,
        "adjacent, not overlapping"
    );
    assert_code!(
        call!(t; clEnqueueSVMMemcpy(q, CL_TRUE, b, a8, 256, 0, null(), null())),
        CL_INVALID_VALUE,
        "past the end"
    );
    // Fill: the pattern size rules and alignment.
    assert_code!(
        call!(t; clEnqueueSVMMemFill(q, null(), pp, 4, 16, 0, null(), null())),
        CL_INVALID_VALUE
    );
    assert_code!(
        call!(t; clEnqueueSVMMemFill(q, a, null(), 4, 16, 0, null(), null())),
        CL_INVALID_VALUE
    );
    for size in [0usize, 3, 256] {
        assert_code!(
            call!(t; clEnqueueSVMMemFill(q, a, pp, size, 48, 0, null(), null())),
            CL_INVALID_VALUE,
            "pattern_size {size}"
        );
    }
    assert_code!(
        call!(t; clEnqueueSVMMemFill(q, a1, pp, 4, 16, 0, null(), null())),
        CL_INVALID_VALUE,
        "svm_ptr not aligned"
    );
    assert_code!(
        call!(t; clEnqueueSVMMemFill(q, a, pp, 4, 18, 0, null(), null())),
        CL_INVALID_VALUE,
        "size not a multiple"
    );
    assert_code!(
        call!(t; clEnqueueSVMMemFill(q, a, pp, 128, 256, 0, null(), null())),
        CL_SUCCESS,
        "the largest pattern"
    );
    assert_code!(
        call!(t; clEnqueueSVMMemFill(q, a8, pp, 8, 256, 0, null(), null())),
        CL_INVALID_VALUE,
        "past the end"
    );
    // Map and unmap.
    assert_code!(
        call!(t; clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ, null(), 16, 0, null(), null())),
        CL_INVALID_VALUE
    );
    assert_code!(
        call!(t; clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ, a, 0, 0, null(), null())),
        CL_INVALID_VALUE,
        "size 0"
    );
    assert_code!(
        call!(t; clEnqueueSVMMap(q, CL_TRUE, 1 << 7, a, 16, 0, null(), null())),
        CL_INVALID_VALUE,
        "unknown map flag"
    );
    assert_code!(
        call!(t; clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, a, 16, 0, null(), null())),
        CL_INVALID_VALUE
    );
    assert_code!(
        call!(t; clEnqueueSVMUnmap(q, null(), 0, null(), null())),
        CL_INVALID_VALUE
    );
    // Migrate.
    assert_code!(
        call!(t; clEnqueueSVMMigrateMem(q, 0, cp, null(), 0, 0, null(), null())),
        CL_INVALID_VALUE
    );
    assert_code!(
        call!(t; clEnqueueSVMMigrateMem(q, 1, null(), null(), 0, 0, null(), null())),
        CL_INVALID_VALUE
    );
    assert_code!(
        call!(t; clEnqueueSVMMigrateMem(q, 1, cp, null(), 1 << 5, 0, null(), null())),
        CL_INVALID_VALUE
    );
    let too_big = [257usize];
    assert_code!(
        call!(t; clEnqueueSVMMigrateMem(q, 1, cp, too_big.as_ptr(), 0, 0, null(), null())),
        CL_INVALID_VALUE
    );
    // Free: the list and its count disagree.
    assert_code!(
        call!(t; clEnqueueSVMFree(q, 0, ptrs.as_mut_ptr(), None, null(), 0, null(), null())),
        CL_INVALID_VALUE
    );
    assert_code!(
        call!(t; clEnqueueSVMFree(q, 1, null(), None, null(), 0, null(), null())),
        CL_INVALID_VALUE
    );
    // Wait lists, for every command.
    let other = t.context();
    let other_ev = t.user_event(other);
    let ue = f.user_event();
    type Enq<'a> = Box<dyn Fn(cl_uint, *const cl_event) -> cl_int + 'a>;
    let cmds: Vec<(&str, Enq)> = vec![
        (
            "memcpy",
            Box::new(|n, l| call!(t; clEnqueueSVMMemcpy(q, CL_FALSE, b, a, 4, n, l, null()))),
        ),
        (
            "fill",
            Box::new(|n, l| call!(t; clEnqueueSVMMemFill(q, a, pp, 4, 16, n, l, null()))),
        ),
        (
            "map",
            Box::new(
                |n, l| call!(t; clEnqueueSVMMap(q, CL_FALSE, CL_MAP_READ, a, 16, n, l, null())),
            ),
        ),
        (
            "unmap",
            Box::new(|n, l| call!(t; clEnqueueSVMUnmap(q, a, n, l, null()))),
        ),
        (
            "migrate",
            Box::new(|n, l| call!(t; clEnqueueSVMMigrateMem(q, 1, cp, null(), 0, n, l, null()))),
        ),
        (
            "free",
            Box::new(|n, l| call!(t; clEnqueueSVMFree(q, 0, null(), None, null(), n, l, null()))),
        ),
    ];
    for (what, f) in &cmds {
        assert_code!(
            f(1, null()),
            CL_INVALID_EVENT_WAIT_LIST,
            "{what}: NULL list"
        );
        assert_code!(f(0, &ue), CL_INVALID_EVENT_WAIT_LIST, "{what}: 0 events");
        let not_event = a as cl_event;
        assert_code!(
            f(1, &not_event),
            CL_INVALID_EVENT_WAIT_LIST,
            "{what}: not an event"
        );
        assert_code!(
            f(1, &other_ev),
            CL_INVALID_CONTEXT,
            "{what}: another context's event"
        );
    }
    // A blocking command whose wait list failed.
    let failed = f.user_event();
    assert_code!(call!(t; clSetUserEventStatus(failed, -1)), CL_SUCCESS);
    assert_code!(
        call!(t; clEnqueueSVMMemcpy(q, CL_TRUE, b, a, 4, 1, &failed, null())),
        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
    );
    assert_code!(
        call!(t; clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ, a, 4, 1, &failed, null())),
        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
    );
    assert_code!(call!(t; clSetUserEventStatus(ue, CL_COMPLETE)), CL_SUCCESS);
    assert_code!(
        call!(t; clSetUserEventStatus(other_ev, CL_COMPLETE)),
        CL_SUCCESS
    );
    for e in [ue, other_ev, failed] {
        call!(t; clReleaseEvent(e));
    }
    call!(t; clReleaseContext(other));
    call!(t; clSVMFree(f.ctx, a));
    call!(t; clSVMFree(f.ctx, b));
}

/// What the notify callback of `a_fault_past_a_large_svm_allocation_is_named`
/// heard.
static NOTES: Mutex<Vec<String>> = Mutex::new(Vec::new());

unsafe extern "C" fn notify(msg: *const c_char, _: *const c_void, _: usize, _: *mut c_void) {
    // SAFETY: the implementation passes a NUL-terminated string.
    let text = unsafe { std::ffi::CStr::from_ptr(msg) }
        .to_string_lossy()
        .into_owned();
    NOTES.lock().unwrap_or_else(|e| e.into_inner()).push(text);
}

/// An SVM allocation of 256 KiB ends at a guard region like a buffer: a
/// kernel that writes one element past it faults, its command fails, and
/// the message names the allocation (x86-64: where faults are recovered).
#[cfg(target_arch = "x86_64")]
#[test]
fn a_fault_past_a_large_svm_allocation_is_named() {
    let t = cranecl_conformance::cl();
    let dev = t.device();
    let mut e = 0;
    let ctx = call!(t; clCreateContext(null(), 1, &dev, Some(notify), null(), &mut e));
    assert_code!(e, CL_SUCCESS);
    let q = t.queue(ctx, 0);
    let mut src = SOURCE.as_ptr() as *const c_char;
    let len = SOURCE.len();
    let prog = call!(t; clCreateProgramWithSource(ctx, 1, &mut src, &len, &mut e));
    assert_code!(
        call!(t; clBuildProgram(prog, 1, &dev, c"-cl-std=CL3.0".as_ptr(), None, null())),
        CL_SUCCESS
    );
    let k = call!(t; clCreateKernel(prog, c"scale".as_ptr(), &mut e));
    assert_code!(e, CL_SUCCESS);
    let n = 64usize << 10;
    let p = call!(t; clSVMAlloc(ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER, n * 4, 0));
    assert!(!p.is_null());
    assert_code!(call!(t; clSetKernelArgSVMPointer(k, 0, p)), CL_SUCCESS);
    let one: cl_int = 1;
    assert_code!(
        call!(t; clSetKernelArg(k, 1, 4, (&one as *const i32).cast())),
        CL_SUCCESS
    );
    let items = n + 1;
    let mut ev = null();
    assert_code!(
        call!(t; clEnqueueNDRangeKernel(q, k, 1, null(), &items, null(), 0, null(), &mut ev)),
        CL_SUCCESS
    );
    call!(t; clWaitForEvents(1, &ev));
    let mut status: cl_int = 0;
    assert_code!(
        call!(t; clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, 4, (&mut status as *mut i32).cast(), null())),
        CL_SUCCESS
    );
    assert!(status < 0, "the command fails: {status}");
    let want = format!(
        "just past the end of an SVM allocation of {} bytes (in its guard region)",
        n * 4
    );
    let notes = NOTES.lock().unwrap_or_else(|e| e.into_inner()).join("\n");
    assert!(notes.contains(&want), "{notes}");
    // The host goes on: the allocation is still there to be used.
    assert_code!(
        call!(t; clEnqueueSVMMemFill(q, p, (&one as *const i32).cast(), 4, n * 4, 0, null(), null())),
        CL_SUCCESS
    );
    assert_code!(call!(t; clFinish(q)), CL_SUCCESS);
    assert!(ints(p, n).iter().all(|&x| x == 1));
    call!(t; clReleaseEvent(ev));
    call!(t; clReleaseKernel(k));
    call!(t; clSVMFree(ctx, p));
    call!(t; clReleaseProgram(prog));
    call!(t; clReleaseCommandQueue(q));
    call!(t; clReleaseContext(ctx));
}

both_ways!(
    capabilities_are_all_four,
    fine_grain_kernel_writes_host_reads,
    coarse_grain_through_map,
    pointer_inside_an_allocation,
    linked_list_built_on_the_host,
    atomics_between_host_and_a_running_kernel,
    host_memory_as_fine_grain_system_svm,
    generic_pointers_into_svm_are_global,
    memcpy_fill_and_migrate_with_events,
    enqueue_svm_free_with_and_without_callback,
    buffers_on_svm_memory,
    svm_alloc_refusals_return_null,
    kernel_argument_and_exec_info_errors,
    enqueue_errors,
);
