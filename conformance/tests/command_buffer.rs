//! cl_khr_command_buffer (0.9.8): advertised with its version and device
//! queries; commands found through `clGetExtensionFunctionAddressForPlatform`;
//! a recorded fill, kernel, copy and rectangular copy replayed several times
//! (values read back after each); kernel arguments captured when recorded;
//! sync-points, barriers and out-of-order queues; every state error and the
//! errors of each entry point; the info queries; a command-buffer released
//! while its enqueue waits for a user event; SVM commands; image commands
//! (fill, copy, to and from buffers) replayed, and their errors. Through the loader
//! and directly; checked mode (bounds and `api`) on recorded commands in a
//! child process.

use cranecl_conformance::{assert_code, both_ways, call, null, Cl};
use opencl_sys::*;
use std::ffi::{c_char, c_void, CStr};

type Sp = cl_sync_point_khr;
type Props = *const cl_command_properties_khr;
type Mh = *mut cl_mutable_command_khr;

type CreateFn = unsafe extern "C" fn(
    cl_uint,
    *const cl_command_queue,
    *const cl_command_buffer_properties_khr,
    *mut cl_int,
) -> cl_command_buffer_khr;
type FinalizeFn = unsafe extern "C" fn(cl_command_buffer_khr) -> cl_int;
type RetainFn = unsafe extern "C" fn(cl_command_buffer_khr) -> cl_int;
type ReleaseFn = unsafe extern "C" fn(cl_command_buffer_khr) -> cl_int;
type EnqueueFn = unsafe extern "C" fn(
    cl_uint,
    *mut cl_command_queue,
    cl_command_buffer_khr,
    cl_uint,
    *const cl_event,
    *mut cl_event,
) -> cl_int;
type BarrierFn = unsafe extern "C" fn(
    cl_command_buffer_khr,
    cl_command_queue,
    Props,
    cl_uint,
    *const Sp,
    *mut Sp,
    Mh,
) -> cl_int;
type CopyFn = unsafe extern "C" fn(
    cl_command_buffer_khr,
    cl_command_queue,
    Props,
    cl_mem,
    cl_mem,
    usize,
    usize,
    usize,
    cl_uint,
    *const Sp,
    *mut Sp,
    Mh,
) -> cl_int;
type CopyRectFn = unsafe extern "C" fn(
    cl_command_buffer_khr,
    cl_command_queue,
    Props,
    cl_mem,
    cl_mem,
    *const usize,
    *const usize,
    *const usize,
    usize,
    usize,
    usize,
    usize,
    cl_uint,
    *const Sp,
    *mut Sp,
    Mh,
) -> cl_int;
type FillFn = unsafe extern "C" fn(
    cl_command_buffer_khr,
    cl_command_queue,
    Props,
    cl_mem,
    *const c_void,
    usize,
    usize,
    usize,
    cl_uint,
    *const Sp,
    *mut Sp,
    Mh,
) -> cl_int;
type FillImageFn = unsafe extern "C" fn(
    cl_command_buffer_khr,
    cl_command_queue,
    Props,
    cl_mem,
    *const c_void,
    *const usize,
    *const usize,
    cl_uint,
    *const Sp,
    *mut Sp,
    Mh,
) -> cl_int;
type CopyImageFn = unsafe extern "C" fn(
    cl_command_buffer_khr,
    cl_command_queue,
    Props,
    cl_mem,
    cl_mem,
    *const usize,
    *const usize,
    *const usize,
    cl_uint,
    *const Sp,
    *mut Sp,
    Mh,
) -> cl_int;
/// `clCommandCopyImageToBufferKHR` and `clCommandCopyBufferToImageKHR`:
/// (image, buffer, origin, region, offset) and (buffer, image, offset,
/// origin, region) have the same C types in another order.
type CopyImageToBufferFn = unsafe extern "C" fn(
    cl_command_buffer_khr,
    cl_command_queue,
    Props,
    cl_mem,
    cl_mem,
    *const usize,
    *const usize,
    usize,
    cl_uint,
    *const Sp,
    *mut Sp,
    Mh,
) -> cl_int;
type CopyBufferToImageFn = unsafe extern "C" fn(
    cl_command_buffer_khr,
    cl_command_queue,
    Props,
    cl_mem,
    cl_mem,
    usize,
    *const usize,
    *const usize,
    cl_uint,
    *const Sp,
    *mut Sp,
    Mh,
) -> cl_int;
type NdrangeFn = unsafe extern "C" fn(
    cl_command_buffer_khr,
    cl_command_queue,
    Props,
    cl_kernel,
    cl_uint,
    *const usize,
    *const usize,
    *const usize,
    cl_uint,
    *const Sp,
    *mut Sp,
    Mh,
) -> cl_int;
type SvmMemcpyFn = unsafe extern "C" fn(
    cl_command_buffer_khr,
    cl_command_queue,
    Props,
    *mut c_void,
    *const c_void,
    usize,
    cl_uint,
    *const Sp,
    *mut Sp,
    Mh,
) -> cl_int;
type SvmFillFn = unsafe extern "C" fn(
    cl_command_buffer_khr,
    cl_command_queue,
    Props,
    *mut c_void,
    *const c_void,
    usize,
    usize,
    cl_uint,
    *const Sp,
    *mut Sp,
    Mh,
) -> cl_int;
type InfoFn = unsafe extern "C" fn(
    cl_command_buffer_khr,
    cl_command_buffer_info_khr,
    usize,
    *mut c_void,
    *mut usize,
) -> cl_int;

/// The extension's entry points, typed.
struct Ext {
    create: CreateFn,
    finalize: FinalizeFn,
    retain: RetainFn,
    release: ReleaseFn,
    enqueue: EnqueueFn,
    barrier: BarrierFn,
    copy: CopyFn,
    copy_rect: CopyRectFn,
    fill: FillFn,
    fill_image: FillImageFn,
    copy_image: CopyImageFn,
    copy_image_to_buffer: CopyImageToBufferFn,
    copy_buffer_to_image: CopyBufferToImageFn,
    ndrange: NdrangeFn,
    svm_memcpy: SvmMemcpyFn,
    svm_fill: SvmFillFn,
    info: InfoFn,
}

fn address(t: &Cl, name: &CStr) -> *mut c_void {
    let f =
        t.f.clGetExtensionFunctionAddressForPlatform
            .expect("exported");
    // SAFETY: a valid platform and a NUL-terminated name.
    let p = unsafe { f(t.platform(), name.as_ptr()) };
    assert!(!p.is_null(), "{name:?} has an address");
    p
}

fn ext(t: &Cl) -> Ext {
    macro_rules! get {
        ($ty:ty, $name:literal) => {
            // SAFETY: the address of the extension function of that name,
            // whose C type is `$ty`.
            unsafe { std::mem::transmute::<*mut c_void, $ty>(address(t, $name)) }
        };
    }
    Ext {
        create: get!(CreateFn, c"clCreateCommandBufferKHR"),
        finalize: get!(FinalizeFn, c"clFinalizeCommandBufferKHR"),
        retain: get!(RetainFn, c"clRetainCommandBufferKHR"),
        release: get!(ReleaseFn, c"clReleaseCommandBufferKHR"),
        enqueue: get!(EnqueueFn, c"clEnqueueCommandBufferKHR"),
        barrier: get!(BarrierFn, c"clCommandBarrierWithWaitListKHR"),
        copy: get!(CopyFn, c"clCommandCopyBufferKHR"),
        copy_rect: get!(CopyRectFn, c"clCommandCopyBufferRectKHR"),
        fill: get!(FillFn, c"clCommandFillBufferKHR"),
        fill_image: get!(FillImageFn, c"clCommandFillImageKHR"),
        copy_image: get!(CopyImageFn, c"clCommandCopyImageKHR"),
        copy_image_to_buffer: get!(CopyImageToBufferFn, c"clCommandCopyImageToBufferKHR"),
        copy_buffer_to_image: get!(CopyBufferToImageFn, c"clCommandCopyBufferToImageKHR"),
        ndrange: get!(NdrangeFn, c"clCommandNDRangeKernelKHR"),
        svm_memcpy: get!(SvmMemcpyFn, c"clCommandSVMMemcpyKHR"),
        svm_fill: get!(SvmFillFn, c"clCommandSVMMemFillKHR"),
        info: get!(InfoFn, c"clGetCommandBufferInfoKHR"),
    }
}

const SRC: &str = "
kernel void add(global int *acc, global const int *in, global const int *tmp) {
    size_t i = get_global_id(0);
    acc[i] += in[i] + tmp[i];
}
kernel void set(global int *o, int v) { o[get_global_id(0)] = v; }
kernel void twice(global int *o) { o[get_global_id(0)] *= 2; }
kernel void past_the_end(global int *o) { o[get_global_id(0) + 1] = 1; }
";

const N: usize = 64;
const BYTES: usize = N * 4;

struct Fix {
    ctx: cl_context,
    q: cl_command_queue,
    prog: cl_program,
    x: Ext,
}

fn setup(t: &Cl, props: cl_command_queue_properties) -> Fix {
    let ctx = t.context();
    let q = t.queue(ctx, props);
    let dev = t.device();
    let mut e = 0;
    let mut src = SRC.as_ptr() as *const c_char;
    let len = SRC.len();
    let prog = call!(t; clCreateProgramWithSource(ctx, 1, &mut src, &len, &mut e));
    assert_code!(e, CL_SUCCESS);
    assert_code!(
        call!(t; clBuildProgram(prog, 1, &dev, null(), None, null())),
        CL_SUCCESS
    );
    Fix {
        ctx,
        q,
        prog,
        x: ext(t),
    }
}

impl Fix {
    fn kernel(&self, t: &Cl, name: &CStr) -> cl_kernel {
        let mut e = 0;
        let k = call!(t; clCreateKernel(self.prog, name.as_ptr(), &mut e));
        assert_code!(e, CL_SUCCESS);
        k
    }

    fn command_buffer(&self) -> cl_command_buffer_khr {
        let mut e = 0;
        // SAFETY: one valid queue, no properties.
        let cb = unsafe { (self.x.create)(1, &self.q, null(), &mut e) };
        assert_code!(e, CL_SUCCESS, "clCreateCommandBufferKHR");
        assert!(!cb.is_null());
        cb
    }

    fn buffer_with(&self, t: &Cl, v: &[i32]) -> cl_mem {
        let m = t.buffer(self.ctx, CL_MEM_READ_WRITE, std::mem::size_of_val(v));
        assert_code!(
            call!(t; clEnqueueWriteBuffer(self.q, m, CL_TRUE, 0, std::mem::size_of_val(v), v.as_ptr().cast(), 0, null(), null())),
            CL_SUCCESS
        );
        m
    }

    fn read(&self, t: &Cl, m: cl_mem, n: usize) -> Vec<i32> {
        let mut v = vec![0i32; n];
        assert_code!(
            call!(t; clEnqueueReadBuffer(self.q, m, CL_TRUE, 0, n * 4, v.as_mut_ptr().cast(), 0, null(), null())),
            CL_SUCCESS
        );
        v
    }

    /// Enqueue `cb` on its own queue and wait for it.
    fn run(&self, t: &Cl, cb: cl_command_buffer_khr) {
        // SAFETY: a valid command-buffer, no wait list.
        let r = unsafe { (self.x.enqueue)(0, null(), cb, 0, null(), null()) };
        assert_code!(r, CL_SUCCESS, "clEnqueueCommandBufferKHR");
        assert_code!(call!(t; clFinish(self.q)), CL_SUCCESS);
    }
}

fn set_mem(t: &Cl, k: cl_kernel, i: cl_uint, m: &cl_mem) {
    assert_code!(
        call!(t; clSetKernelArg(k, i, 8, (m as *const cl_mem).cast::<c_void>())),
        CL_SUCCESS
    );
}

fn device_info<T: Copy + Default>(t: &Cl, param: cl_device_info) -> T {
    let mut v = T::default();
    assert_code!(
        call!(t; clGetDeviceInfo(t.device(), param, std::mem::size_of::<T>(), (&mut v as *mut T).cast(), null())),
        CL_SUCCESS,
        "device info 0x{param:x}"
    );
    v
}

fn advertised_with_its_version(t: &Cl) {
    let mut size = 0usize;
    assert_code!(
        call!(t; clGetDeviceInfo(t.device(), CL_DEVICE_EXTENSIONS_WITH_VERSION, 0, null(), &mut size)),
        CL_SUCCESS
    );
    let mut list = vec![
        cl_name_version {
            version: 0,
            name: [0; 64]
        };
        size / std::mem::size_of::<cl_name_version>()
    ];
    assert_code!(
        call!(t; clGetDeviceInfo(t.device(), CL_DEVICE_EXTENSIONS_WITH_VERSION, size, list.as_mut_ptr().cast(), null())),
        CL_SUCCESS
    );
    let found = list.iter().find(|nv| {
        // SAFETY: the name is a NUL-terminated string within its 64 bytes.
        unsafe { CStr::from_ptr(nv.name.as_ptr().cast()) }.to_bytes() == b"cl_khr_command_buffer"
    });
    let version = found.expect("cl_khr_command_buffer is listed").version;
    assert_eq!(version, (9 << 12) | 8, "the version is 0.9.8");
    let mut buf = vec![0u8; 4096];
    assert_code!(
        call!(t; clGetDeviceInfo(t.device(), CL_DEVICE_EXTENSIONS, buf.len(), buf.as_mut_ptr().cast(), &mut size)),
        CL_SUCCESS
    );
    let names = String::from_utf8_lossy(&buf[..size - 1]).into_owned();
    assert!(names.split(' ').any(|n| n == "cl_khr_command_buffer"));
    let caps: cl_device_command_buffer_capabilities_khr =
        device_info(t, CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR);
    assert_eq!(caps, CL_COMMAND_BUFFER_CAPABILITY_KERNEL_PRINTF_KHR);
    let required: cl_command_queue_properties =
        device_info(t, CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR);
    assert_eq!(required, 0);
    let supported: cl_command_queue_properties =
        device_info(t, CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR);
    assert_eq!(
        supported,
        CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE
    );
}

/// fill → kernel → copy → rectangular copy, each waiting for the one
/// before by its sync-point, replayed three times: the kernel accumulates,
/// so each replay's values differ.
fn replays_fill_kernel_and_copies(t: &Cl) {
    for props in [0, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE] {
        let fx = setup(t, props);
        let input: Vec<i32> = (0..N as i32).collect();
        let acc = fx.buffer_with(t, &[0; N]);
        let inb = fx.buffer_with(t, &input);
        let tmp = fx.buffer_with(t, &[0; N]);
        let out = fx.buffer_with(t, &[0; N]);
        let rect = fx.buffer_with(t, &[-1; 16]);
        let k = fx.kernel(t, c"add");
        for (i, m) in [acc, inb, tmp].iter().enumerate() {
            set_mem(t, k, i as cl_uint, m);
        }
        let cb = fx.command_buffer();
        let seven = 7i32;
        let (mut s1, mut s2, mut s3) = (0, 0, 0);
        let global = N;
        // SAFETY (every call below): valid handles, arrays of the sizes
        // given, NULL queue, properties and mutable handle.
        unsafe {
            assert_code!(
                (fx.x.fill)(
                    cb,
                    null(),
                    null(),
                    tmp,
                    (&seven as *const i32).cast(),
                    4,
                    0,
                    BYTES,
                    0,
                    null(),
                    &mut s1,
                    null()
                ),
                CL_SUCCESS
            );
            assert_code!(
                (fx.x.ndrange)(
                    cb,
                    null(),
                    null(),
                    k,
                    1,
                    null(),
                    &global,
                    null(),
                    1,
                    &s1,
                    &mut s2,
                    null()
                ),
                CL_SUCCESS
            );
            assert_code!(
                (fx.x.copy)(
                    cb,
                    null(),
                    null(),
                    acc,
                    out,
                    0,
                    0,
                    BYTES,
                    1,
                    &s2,
                    &mut s3,
                    null()
                ),
                CL_SUCCESS
            );
            // Two rows of 2 ints from `out` (row pitch 8 ints, from int 1)
            // to `rect` (row pitch 4 ints).
            let (src_origin, dst_origin, region) = ([4usize, 0, 0], [0usize, 0, 0], [8usize, 2, 1]);
            assert_code!(
                (fx.x.copy_rect)(
                    cb,
                    null(),
                    null(),
                    out,
                    rect,
                    src_origin.as_ptr(),
                    dst_origin.as_ptr(),
                    region.as_ptr(),
                    32,
                    0,
                    16,
                    0,
                    1,
                    &s3,
                    null(),
                    null()
                ),
                CL_SUCCESS
            );
        }
        assert!(
            s1 != s2 && s2 != s3 && s1 != s3,
            "sync-points are unique: {s1} {s2} {s3}"
        );
        // SAFETY: a valid command-buffer.
        assert_code!(unsafe { (fx.x.finalize)(cb) }, CL_SUCCESS);
        for round in 1..=3 {
            fx.run(t, cb);
            let got = fx.read(t, out, N);
            for (i, &g) in got.iter().enumerate() {
                assert_eq!(
                    g,
                    round * (i as i32 + 7),
                    "replay {round}: out[{i}] = {round} * (in[{i}] + 7)"
                );
            }
            let r = fx.read(t, rect, 16);
            let v = |i: i32| round * (i + 7);
            assert_eq!(
                r,
                [
                    v(1),
                    v(2),
                    -1,
                    -1,
                    v(9),
                    v(10),
                    -1,
                    -1,
                    -1,
                    -1,
                    -1,
                    -1,
                    -1,
                    -1,
                    -1,
                    -1
                ],
                "replay {round}: the rectangle"
            );
        }
        // SAFETY: valid handles.
        unsafe {
            assert_code!((fx.x.release)(cb), CL_SUCCESS);
        }
    }
}

/// The arguments a kernel had when recorded are the ones every replay
/// uses; setting new ones afterwards changes only later recordings.
fn kernel_arguments_are_captured_when_recorded(t: &Cl) {
    let fx = setup(t, 0);
    let a = fx.buffer_with(t, &[0; N]);
    let b = fx.buffer_with(t, &[0; N]);
    let k = fx.kernel(t, c"set");
    set_mem(t, k, 0, &a);
    let five = 5i32;
    assert_code!(
        call!(t; clSetKernelArg(k, 1, 4, (&five as *const i32).cast())),
        CL_SUCCESS
    );
    let cb = fx.command_buffer();
    let global = N;
    // SAFETY: valid handles and sizes.
    unsafe {
        assert_code!(
            (fx.x.ndrange)(
                cb,
                null(),
                null(),
                k,
                1,
                null(),
                &global,
                null(),
                0,
                null(),
                null(),
                null()
            ),
            CL_SUCCESS
        );
    }
    set_mem(t, k, 0, &b);
    let nine = 9i32;
    assert_code!(
        call!(t; clSetKernelArg(k, 1, 4, (&nine as *const i32).cast())),
        CL_SUCCESS
    );
    // SAFETY: valid handles.
    assert_code!(unsafe { (fx.x.finalize)(cb) }, CL_SUCCESS);
    fx.run(t, cb);
    assert_eq!(
        fx.read(t, a, N),
        vec![5; N],
        "the recorded buffer and value"
    );
    assert_eq!(fx.read(t, b, N), vec![0; N], "the later argument is unused");
    // The kernel as set now runs with its new arguments when enqueued.
    assert_code!(
        call!(t; clEnqueueNDRangeKernel(fx.q, k, 1, null(), &global, null(), 0, null(), null())),
        CL_SUCCESS
    );
    assert_eq!(fx.read(t, b, N), vec![9; N]);
    // SAFETY: valid handle.
    assert_code!(unsafe { (fx.x.release)(cb) }, CL_SUCCESS);
}

/// A barrier with no wait list orders what follows after everything
/// before it; an out-of-order queue runs the replay as one command, in
/// order with the events it waits for.
fn barriers_and_event_ordering(t: &Cl) {
    let fx = setup(t, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    let m = fx.buffer_with(t, &[0; N]);
    let twice = fx.kernel(t, c"twice");
    set_mem(t, twice, 0, &m);
    let cb = fx.command_buffer();
    let three = 3i32;
    let global = N;
    let mut barrier = 0;
    // SAFETY: valid handles and sizes.
    unsafe {
        assert_code!(
            (fx.x.fill)(
                cb,
                null(),
                null(),
                m,
                (&three as *const i32).cast(),
                4,
                0,
                BYTES,
                0,
                null(),
                null(),
                null()
            ),
            CL_SUCCESS
        );
        assert_code!(
            (fx.x.barrier)(cb, null(), null(), 0, null(), &mut barrier, null()),
            CL_SUCCESS
        );
        assert_code!(
            (fx.x.ndrange)(
                cb,
                null(),
                null(),
                twice,
                1,
                null(),
                &global,
                null(),
                1,
                &barrier,
                null(),
                null()
            ),
            CL_SUCCESS
        );
        assert_code!((fx.x.finalize)(cb), CL_SUCCESS);
    }
    // Held back by a user event: nothing runs until it is set.
    let gate = t.user_event(fx.ctx);
    let mut done: cl_event = null();
    // SAFETY: valid handles, a wait list of one event.
    assert_code!(
        unsafe { (fx.x.enqueue)(0, null(), cb, 1, &gate, &mut done) },
        CL_SUCCESS
    );
    let mut status: cl_int = 0;
    assert_code!(
        call!(t; clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, 4, (&mut status as *mut cl_int).cast(), null())),
        CL_SUCCESS
    );
    assert_eq!(status, CL_QUEUED, "waits for the user event");
    let mut ty: cl_command_type = 0;
    assert_code!(
        call!(t; clGetEventInfo(done, CL_EVENT_COMMAND_TYPE, 4, (&mut ty as *mut cl_command_type).cast(), null())),
        CL_SUCCESS
    );
    assert_eq!(ty, CL_COMMAND_COMMAND_BUFFER_KHR);
    // Released while its enqueue is pending: the enqueue still runs.
    // SAFETY: valid handle.
    assert_code!(unsafe { (fx.x.release)(cb) }, CL_SUCCESS);
    assert_code!(
        call!(t; clSetUserEventStatus(gate, CL_COMPLETE)),
        CL_SUCCESS
    );
    assert_code!(call!(t; clWaitForEvents(1, &done)), CL_SUCCESS);
    assert_eq!(fx.read(t, m, N), vec![6; N], "fill 3, then twice");
}

fn create_errors(t: &Cl) {
    let fx = setup(t, 0);
    let x = &fx.x;
    let create =
        |n: cl_uint, qs: *const cl_command_queue, p: &[cl_command_buffer_properties_khr]| {
            let mut e = 0;
            let pp = if p.is_empty() { null() } else { p.as_ptr() };
            // SAFETY: the arguments as the test gives them; a NULL or valid list.
            let cb = unsafe { (x.create)(n, qs, pp, &mut e) };
            if e == CL_SUCCESS {
                // SAFETY: a command-buffer just made.
                unsafe { (x.release)(cb) };
            } else {
                assert!(cb.is_null(), "no command-buffer on error");
            }
            e
        };
    assert_code!(create(0, &fx.q, &[]), CL_INVALID_VALUE, "num_queues 0");
    let two = [fx.q, fx.q];
    assert_code!(
        create(2, two.as_ptr(), &[]),
        CL_INVALID_VALUE,
        "num_queues 2"
    );
    assert_code!(create(1, null(), &[]), CL_INVALID_VALUE, "queues NULL");
    let bad: cl_command_queue = fx.ctx.cast();
    if t.direct {
        assert_code!(create(1, &bad, &[]), CL_INVALID_COMMAND_QUEUE);
    }
    let flags = CL_COMMAND_BUFFER_FLAGS_KHR;
    assert_code!(create(1, &fx.q, &[flags, 0, 0]), CL_SUCCESS);
    assert_code!(create(1, &fx.q, &[0]), CL_SUCCESS);
    assert_code!(
        create(
            1,
            &fx.q,
            &[flags, CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR, 0]
        ),
        CL_INVALID_PROPERTY,
        "simultaneous use is not supported"
    );
    assert_code!(
        create(1, &fx.q, &[flags, 1 << 40, 0]),
        CL_INVALID_VALUE,
        "unknown flag"
    );
    assert_code!(
        create(1, &fx.q, &[flags, 0, flags, 0, 0]),
        CL_INVALID_VALUE,
        "repeated"
    );
    assert_code!(create(1, &fx.q, &[0x4242, 0, 0]), CL_INVALID_VALUE);
    // SAFETY: NULL handles.
    unsafe {
        assert_code!((x.retain)(null()), CL_INVALID_COMMAND_BUFFER_KHR);
        assert_code!((x.release)(null()), CL_INVALID_COMMAND_BUFFER_KHR);
        assert_code!((x.finalize)(null()), CL_INVALID_COMMAND_BUFFER_KHR);
        assert_code!(
            (x.enqueue)(0, null(), null(), 0, null(), null()),
            CL_INVALID_COMMAND_BUFFER_KHR
        );
        assert_code!(
            (x.info)(null(), CL_COMMAND_BUFFER_STATE_KHR, 0, null(), null()),
            CL_INVALID_COMMAND_BUFFER_KHR
        );
    }
}

fn recording_and_state_errors(t: &Cl) {
    let fx = setup(t, 0);
    let x = &fx.x;
    let m = fx.buffer_with(t, &[0; N]);
    let other_ctx = t.context();
    let foreign = t.buffer(other_ctx, CL_MEM_READ_WRITE, BYTES);
    let cb = fx.command_buffer();
    let one = 1i32;
    let pat = (&one as *const i32).cast::<c_void>();
    let fill = |cb: cl_command_buffer_khr,
                q: cl_command_queue,
                props: Props,
                mem: cl_mem,
                n: cl_uint,
                list: *const Sp,
                mh: Mh| {
        // SAFETY: the arguments as the test gives them.
        unsafe { (x.fill)(cb, q, props, mem, pat, 4, 0, BYTES, n, list, null(), mh) }
    };
    // SAFETY (unsafe blocks below): handles valid or NULL as each check wants.
    assert_code!(
        fill(null(), null(), null(), m, 0, null(), null()),
        CL_INVALID_COMMAND_BUFFER_KHR
    );
    assert_code!(
        fill(cb, fx.q, null(), m, 0, null(), null()),
        CL_INVALID_COMMAND_QUEUE,
        "a queue other than NULL"
    );
    let props: [cl_command_properties_khr; 3] = [0x1234, 1, 0];
    assert_code!(
        fill(cb, null(), props.as_ptr(), m, 0, null(), null()),
        CL_INVALID_VALUE,
        "a property"
    );
    let empty: [cl_command_properties_khr; 1] = [0];
    assert_code!(
        fill(cb, null(), empty.as_ptr(), m, 0, null(), null()),
        CL_SUCCESS
    );
    let mut handle: cl_mutable_command_khr = null();
    assert_code!(
        fill(cb, null(), null(), m, 0, null(), &mut handle),
        CL_INVALID_VALUE,
        "a mutable handle"
    );
    assert_code!(
        fill(cb, null(), null(), foreign, 0, null(), null()),
        CL_INVALID_CONTEXT
    );
    // Sync-points: the list and its count must agree, and name commands
    // recorded before (one so far: sync-point 1 is valid, 0 and 2 are not).
    let valid: Sp = 1;
    assert_code!(
        fill(cb, null(), null(), m, 1, null(), null()),
        CL_INVALID_SYNC_POINT_WAIT_LIST_KHR
    );
    assert_code!(
        fill(cb, null(), null(), m, 0, &valid, null()),
        CL_INVALID_SYNC_POINT_WAIT_LIST_KHR
    );
    for bad in [0 as Sp, 2, 1000] {
        assert_code!(
            fill(cb, null(), null(), m, 1, &bad, null()),
            CL_INVALID_SYNC_POINT_WAIT_LIST_KHR,
            "sync-point {bad}"
        );
    }
    assert_code!(fill(cb, null(), null(), m, 1, &valid, null()), CL_SUCCESS);
    // The checks of the clEnqueue* twin.
    unsafe {
        assert_code!(
            (x.fill)(
                cb,
                null(),
                null(),
                m,
                pat,
                3,
                0,
                BYTES,
                0,
                null(),
                null(),
                null()
            ),
            CL_INVALID_VALUE,
            "pattern size 3"
        );
        assert_code!(
            (x.copy)(
                cb,
                null(),
                null(),
                m,
                m,
                0,
                8,
                16,
                0,
                null(),
                null(),
                null()
            ),
            CL_MEM_COPY_OVERLAP
        );
        assert_code!(
            (x.copy)(
                cb,
                null(),
                null(),
                m,
                m,
                0,
                BYTES,
                4,
                0,
                null(),
                null(),
                null()
            ),
            CL_INVALID_VALUE,
            "out of bounds"
        );
        let (o, r) = ([0usize; 3], [4usize, 1, 1]);
        assert_code!(
            (x.fill_image)(
                cb,
                null(),
                null(),
                m,
                pat,
                o.as_ptr(),
                r.as_ptr(),
                0,
                null(),
                null(),
                null()
            ),
            CL_INVALID_MEM_OBJECT,
            "a buffer is not an image"
        );
    }
    let k = fx.kernel(t, c"set");
    let global = N;
    unsafe {
        assert_code!(
            (x.ndrange)(
                cb,
                null(),
                null(),
                k,
                1,
                null(),
                &global,
                null(),
                0,
                null(),
                null(),
                null()
            ),
            CL_INVALID_KERNEL_ARGS
        );
        set_mem(t, k, 0, &m);
        assert_code!(call!(t; clSetKernelArg(k, 1, 4, pat)), CL_SUCCESS);
        assert_code!(
            (x.ndrange)(
                cb,
                null(),
                null(),
                k,
                4,
                null(),
                &global,
                null(),
                0,
                null(),
                null(),
                null()
            ),
            CL_INVALID_WORK_DIMENSION
        );
        let l = 5usize;
        assert_code!(
            (x.ndrange)(
                cb,
                null(),
                null(),
                k,
                1,
                null(),
                &global,
                &l,
                0,
                null(),
                null(),
                null()
            ),
            CL_INVALID_WORK_GROUP_SIZE
        );
        let mut mh: cl_mutable_command_khr = null();
        assert_code!(
            (x.ndrange)(
                cb,
                null(),
                null(),
                k,
                1,
                null(),
                &global,
                null(),
                0,
                null(),
                null(),
                &mut mh
            ),
            CL_INVALID_VALUE
        );
    }
    // Not finalized: cannot be enqueued.
    unsafe {
        assert_code!(
            (x.enqueue)(0, null(), cb, 0, null(), null()),
            CL_INVALID_OPERATION
        );
        assert_code!((x.finalize)(cb), CL_SUCCESS);
        assert_code!((x.finalize)(cb), CL_INVALID_OPERATION, "finalized twice");
        assert_code!(
            (x.barrier)(cb, null(), null(), 0, null(), null(), null()),
            CL_INVALID_OPERATION,
            "recording after finalize"
        );
    }
    assert_code!(
        fill(cb, null(), null(), m, 0, null(), null()),
        CL_INVALID_OPERATION
    );
    // Enqueue: the queue list.
    let mut q = fx.q;
    let mut two = [fx.q, fx.q];
    let other_q = t.queue(other_ctx, 0);
    let mut oq = other_q;
    unsafe {
        assert_code!(
            (x.enqueue)(1, null(), cb, 0, null(), null()),
            CL_INVALID_VALUE
        );
        assert_code!(
            (x.enqueue)(0, &mut q, cb, 0, null(), null()),
            CL_INVALID_VALUE
        );
        assert_code!(
            (x.enqueue)(2, two.as_mut_ptr(), cb, 0, null(), null()),
            CL_INVALID_VALUE
        );
        assert_code!(
            (x.enqueue)(1, &mut oq, cb, 0, null(), null()),
            CL_INVALID_CONTEXT
        );
        assert_code!(
            (x.enqueue)(0, null(), cb, 1, null(), null()),
            CL_INVALID_EVENT_WAIT_LIST
        );
        // A substitute queue of the same device and context runs it.
        let sub = t.queue(fx.ctx, CL_QUEUE_PROFILING_ENABLE);
        let mut sq = sub;
        assert_code!((x.enqueue)(1, &mut sq, cb, 0, null(), null()), CL_SUCCESS);
        assert_code!(call!(t; clFinish(sub)), CL_SUCCESS);
        assert_code!((x.release)(cb), CL_SUCCESS);
    }
    assert_eq!(fx.read(t, m, N), vec![1; N]);
}

fn info_queries(t: &Cl) {
    let fx = setup(t, 0);
    let x = &fx.x;
    let cb = fx.command_buffer();
    let get = |param: cl_command_buffer_info_khr, out: &mut [u8]| -> (cl_int, usize) {
        let mut size = 0usize;
        let p = if out.is_empty() {
            null()
        } else {
            out.as_mut_ptr().cast()
        };
        // SAFETY: a valid command-buffer and an output of out.len() bytes.
        let r = unsafe { (x.info)(cb, param, out.len(), p, &mut size) };
        (r, size)
    };
    let uint = |param| {
        let mut b = [0u8; 4];
        assert_code!(get(param, &mut b).0, CL_SUCCESS);
        u32::from_ne_bytes(b)
    };
    let ptr = |param| {
        let mut b = [0u8; 8];
        assert_code!(get(param, &mut b).0, CL_SUCCESS);
        usize::from_ne_bytes(b)
    };
    assert_eq!(uint(CL_COMMAND_BUFFER_NUM_QUEUES_KHR), 1);
    assert_eq!(ptr(CL_COMMAND_BUFFER_QUEUES_KHR), fx.q as usize);
    assert_eq!(ptr(CL_COMMAND_BUFFER_CONTEXT_KHR), fx.ctx as usize);
    assert_eq!(uint(CL_COMMAND_BUFFER_REFERENCE_COUNT_KHR), 1);
    // SAFETY: a valid command-buffer.
    assert_code!(unsafe { (x.retain)(cb) }, CL_SUCCESS);
    assert_eq!(uint(CL_COMMAND_BUFFER_REFERENCE_COUNT_KHR), 2);
    assert_code!(unsafe { (x.release)(cb) }, CL_SUCCESS);
    assert_eq!(uint(CL_COMMAND_BUFFER_REFERENCE_COUNT_KHR), 1);
    assert_eq!(
        uint(CL_COMMAND_BUFFER_STATE_KHR),
        CL_COMMAND_BUFFER_STATE_RECORDING_KHR
    );
    assert_code!(unsafe { (x.finalize)(cb) }, CL_SUCCESS);
    assert_eq!(
        uint(CL_COMMAND_BUFFER_STATE_KHR),
        CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR
    );
    assert_eq!(
        get(CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR, &mut []),
        (CL_SUCCESS, 0),
        "created with NULL properties: none"
    );
    assert_code!(get(0x4242, &mut [0u8; 8]).0, CL_INVALID_VALUE);
    assert_code!(
        get(CL_COMMAND_BUFFER_CONTEXT_KHR, &mut [0u8; 4]).0,
        CL_INVALID_VALUE,
        "too small"
    );
    assert_code!(unsafe { (x.release)(cb) }, CL_SUCCESS);
    // Properties given are returned as given.
    let props = [CL_COMMAND_BUFFER_FLAGS_KHR, 0, 0];
    let mut e = 0;
    // SAFETY: one valid queue, a 0-terminated list.
    let cb = unsafe { (x.create)(1, &fx.q, props.as_ptr(), &mut e) };
    assert_code!(e, CL_SUCCESS);
    let mut got = [7u64; 3];
    let mut size = 0usize;
    assert_code!(
        unsafe {
            (x.info)(
                cb,
                CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR,
                24,
                got.as_mut_ptr().cast(),
                &mut size,
            )
        },
        CL_SUCCESS
    );
    assert_eq!((size, got), (24, props));
    assert_code!(unsafe { (x.release)(cb) }, CL_SUCCESS);
}

fn svm_commands(t: &Cl) {
    let fx = setup(t, 0);
    let x = &fx.x;
    let svm = |bytes| {
        let p = call!(t; clSVMAlloc(fx.ctx, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, bytes, 0));
        assert!(!p.is_null());
        p
    };
    let (a, b) = (svm(BYTES), svm(BYTES));
    let cb = fx.command_buffer();
    let v = 0x01020304u32;
    let mut s = 0;
    // SAFETY: SVM allocations of BYTES bytes, a 4-byte pattern.
    unsafe {
        assert_code!(
            (x.svm_fill)(
                cb,
                null(),
                null(),
                a,
                (&v as *const u32).cast(),
                4,
                BYTES,
                0,
                null(),
                &mut s,
                null()
            ),
            CL_SUCCESS
        );
        assert_code!(
            (x.svm_memcpy)(cb, null(), null(), b, a, BYTES, 1, &s, null(), null()),
            CL_SUCCESS
        );
        assert_code!(
            (x.svm_memcpy)(cb, null(), null(), b, b, 8, 0, null(), null(), null()),
            CL_MEM_COPY_OVERLAP
        );
        assert_code!((x.finalize)(cb), CL_SUCCESS);
    }
    fx.run(t, cb);
    // SAFETY: the allocation holds N u32, the command-buffer is complete
    // (fine-grain: the host reads it directly).
    let got = unsafe { std::slice::from_raw_parts(b as *const u32, N) };
    assert!(got.iter().all(|&w| w == v), "b holds the filled pattern");
    unsafe {
        assert_code!((x.release)(cb), CL_SUCCESS);
    }
    call!(t; clSVMFree(fx.ctx, a));
    call!(t; clSVMFree(fx.ctx, b));
}

/// Run `name`, an ignored test of this file, in a child process with
/// `CRANECL_CHECK=check` (read when a context is made); it must pass.
/// Returns its stderr.
fn in_checked_child(name: &str, check: &str) -> String {
    let out = std::process::Command::new(std::env::current_exe().expect("the test binary"))
        .args([
            "--exact",
            name,
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("CRANECL_CHECK", check)
        .output()
        .expect("the test binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        out.status.success(),
        "{name} under CRANECL_CHECK={check}:\n{}\n{stderr}",
        String::from_utf8_lossy(&out.stdout)
    );
    stderr
}

/// Checked mode sees recorded commands: a recorded kernel that writes past
/// its buffer fails each enqueue with its report; a replay that fills a
/// buffer the host has mapped fails (the `api` rule).
#[test]
fn checked_mode_checks_recorded_commands() {
    let stderr = in_checked_child("checked_child::recorded_commands", "bounds,api");
    assert!(
        stderr.contains("kernel 'past_the_end' failed checked mode"),
        "the bounds report: {stderr}"
    );
    assert!(
        stderr.matches("past its end").count() == 2,
        "one bounds report per replay: {stderr}"
    );
    assert!(
        stderr.contains("invalid write of"),
        "the bounds report: {stderr}"
    );
    assert!(
        stderr.contains("clEnqueueCommandBufferKHR"),
        "the api report names the enqueue: {stderr}"
    );
}

mod checked_child {
    use super::*;
    use cranecl_conformance::cl;

    fn status(t: &Cl, e: cl_event) -> cl_int {
        let mut s: cl_int = 1;
        assert_code!(
            call!(t; clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, 4, (&mut s as *mut cl_int).cast(), null())),
            CL_SUCCESS
        );
        s
    }

    fn enqueue_and_wait(t: &Cl, fx: &Fix, cb: cl_command_buffer_khr) -> cl_int {
        let mut e: cl_event = null();
        // SAFETY: a valid command-buffer, no wait list.
        assert_code!(
            unsafe { (fx.x.enqueue)(0, null(), cb, 0, null(), &mut e) },
            CL_SUCCESS
        );
        call!(t; clWaitForEvents(1, &e));
        status(t, e)
    }

    #[test]
    #[ignore = "run by checked_mode_checks_recorded_commands, with CRANECL_CHECK"]
    fn recorded_commands() {
        assert!(
            std::env::var("CRANECL_CHECK").is_ok(),
            "run with CRANECL_CHECK"
        );
        let t = cl();
        let fx = setup(t, 0);
        let m = fx.buffer_with(t, &[0; N]);
        let k = fx.kernel(t, c"past_the_end");
        set_mem(t, k, 0, &m);
        let cb = fx.command_buffer();
        let global = N;
        // SAFETY: valid handles.
        unsafe {
            assert_code!(
                (fx.x.ndrange)(
                    cb,
                    null(),
                    null(),
                    k,
                    1,
                    null(),
                    &global,
                    null(),
                    0,
                    null(),
                    null(),
                    null()
                ),
                CL_SUCCESS
            );
            assert_code!((fx.x.finalize)(cb), CL_SUCCESS);
        }
        for replay in 1..=2 {
            assert_eq!(
                enqueue_and_wait(t, &fx, cb),
                CL_OUT_OF_RESOURCES,
                "replay {replay} of the kernel writing past the end"
            );
        }
        // A fill of a buffer the host has mapped for writing.
        let f = fx.command_buffer();
        let one = 1i32;
        // SAFETY: valid handles, a 4-byte pattern.
        unsafe {
            assert_code!(
                (fx.x.fill)(
                    f,
                    null(),
                    null(),
                    m,
                    (&one as *const i32).cast(),
                    4,
                    0,
                    BYTES,
                    0,
                    null(),
                    null(),
                    null()
                ),
                CL_SUCCESS
            );
            assert_code!((fx.x.finalize)(f), CL_SUCCESS);
        }
        let mut e = 0;
        let p = call!(t; clEnqueueMapBuffer(fx.q, m, CL_TRUE, CL_MAP_WRITE, 0, BYTES, 0, null(), null(), &mut e));
        assert_code!(e, CL_SUCCESS);
        assert_eq!(
            enqueue_and_wait(t, &fx, f),
            CL_OUT_OF_RESOURCES,
            "a replay writing a mapped buffer"
        );
        assert_code!(
            call!(t; clEnqueueUnmapMemObject(fx.q, m, p, 0, null(), null())),
            CL_SUCCESS
        );
        assert_code!(call!(t; clFinish(fx.q)), CL_SUCCESS);
        assert_eq!(enqueue_and_wait(t, &fx, f), CL_COMPLETE, "once unmapped");
        assert_eq!(fx.read(t, m, N), vec![1; N]);
    }
}

/// A 4×4 `CL_RGBA`/`CL_UNSIGNED_INT8` image (4 bytes a pixel) of zeros,
/// or of `CL_R`/`CL_UNSIGNED_INT32` (another format of the same size).
fn image4x4(t: &Cl, ctx: cl_context, rgba: bool) -> cl_mem {
    let f = if rgba {
        cl_image_format {
            image_channel_order: CL_RGBA,
            image_channel_data_type: CL_UNSIGNED_INT8,
        }
    } else {
        cl_image_format {
            image_channel_order: CL_R,
            image_channel_data_type: CL_UNSIGNED_INT32,
        }
    };
    // SAFETY: cl_image_desc is plain data; zero is "none" for its fields.
    let mut d: cl_image_desc = unsafe { std::mem::zeroed() };
    d.image_type = CL_MEM_OBJECT_IMAGE2D;
    d.image_width = 4;
    d.image_height = 4;
    let mut zeros = [0u8; 64];
    let mut e = 0;
    let m = call!(t; clCreateImage(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &f, &d, zeros.as_mut_ptr().cast(), &mut e));
    assert_code!(e, CL_SUCCESS, "clCreateImage");
    m
}

/// The image commands recorded and replayed: a fill of A, a copy of part of
/// A into B, a buffer copied into a corner of A and B copied to a buffer,
/// with sync-points; each replay recomputes what the host cleared; then
/// each command's errors.
fn image_commands(t: &Cl) {
    let fx = setup(t, 0);
    let x = &fx.x;
    let (a, b) = (image4x4(t, fx.ctx, true), image4x4(t, fx.ctx, true));
    let corner: Vec<u8> = (100..116).collect();
    let src = t.buffer(fx.ctx, CL_MEM_READ_WRITE, 16);
    let out = t.buffer(fx.ctx, CL_MEM_READ_WRITE, 64);
    assert_code!(
        call!(t; clEnqueueWriteBuffer(fx.q, src, CL_TRUE, 0, 16, corner.as_ptr().cast(), 0, null(), null())),
        CL_SUCCESS
    );
    let color = [1u32, 2, 3, 4];
    let (o0, o1, o2) = ([0usize; 3], [1usize, 1, 0], [2usize, 2, 0]);
    let (all, two) = ([4usize, 4, 1], [2usize, 2, 1]);
    let cb = fx.command_buffer();
    let (mut s1, mut s2, mut s3) = (0, 0, 0);
    // SAFETY (every call below): valid handles, arrays of three, a colour
    // of four uint, NULL queue, properties and mutable handle.
    unsafe {
        assert_code!(
            (x.fill_image)(
                cb,
                null(),
                null(),
                a,
                color.as_ptr().cast(),
                o0.as_ptr(),
                all.as_ptr(),
                0,
                null(),
                &mut s1,
                null()
            ),
            CL_SUCCESS
        );
        assert_code!(
            (x.copy_image)(
                cb,
                null(),
                null(),
                a,
                b,
                o0.as_ptr(),
                o1.as_ptr(),
                two.as_ptr(),
                1,
                &s1,
                &mut s2,
                null()
            ),
            CL_SUCCESS
        );
        assert_code!(
            (x.copy_buffer_to_image)(
                cb,
                null(),
                null(),
                src,
                a,
                0,
                o2.as_ptr(),
                two.as_ptr(),
                1,
                &s2,
                &mut s3,
                null()
            ),
            CL_SUCCESS
        );
        assert_code!(
            (x.copy_image_to_buffer)(
                cb,
                null(),
                null(),
                b,
                out,
                o0.as_ptr(),
                all.as_ptr(),
                0,
                1,
                &s2,
                null(),
                null()
            ),
            CL_SUCCESS
        );
        assert_code!((x.finalize)(cb), CL_SUCCESS);
    }
    let rgba = [1u8, 2, 3, 4];
    let pixel = |v: &[u8], px: usize, py: usize| -> [u8; 4] {
        v[(py * 4 + px) * 4..][..4].try_into().unwrap()
    };
    for replay in 1..=2 {
        // The host clears `out` and A between replays: each replay makes
        // them again.
        let zero = 0u8;
        assert_code!(
            call!(t; clEnqueueFillBuffer(fx.q, out, (&zero as *const u8).cast(), 1, 0, 64, 0, null(), null())),
            CL_SUCCESS
        );
        let zeros = [0u8; 64];
        assert_code!(
            call!(t; clEnqueueWriteImage(fx.q, a, CL_TRUE, o0.as_ptr(), all.as_ptr(), 0, 0, zeros.as_ptr().cast(), 0, null(), null())),
            CL_SUCCESS
        );
        fx.run(t, cb);
        let mut got = [0u8; 64];
        assert_code!(
            call!(t; clEnqueueReadBuffer(fx.q, out, CL_TRUE, 0, 64, got.as_mut_ptr().cast(), 0, null(), null())),
            CL_SUCCESS
        );
        for py in 0..4 {
            for px in 0..4 {
                let copied = (1..3).contains(&px) && (1..3).contains(&py);
                let want = if copied { rgba } else { [0; 4] };
                assert_eq!(
                    pixel(&got, px, py),
                    want,
                    "replay {replay}: B's pixel ({px}, {py})"
                );
            }
        }
        let mut img = [0u8; 64];
        assert_code!(
            call!(t; clEnqueueReadImage(fx.q, a, CL_TRUE, o0.as_ptr(), all.as_ptr(), 0, 0, img.as_mut_ptr().cast(), 0, null(), null())),
            CL_SUCCESS
        );
        for py in 0..4 {
            for px in 0..4 {
                let want = if px >= 2 && py >= 2 {
                    let at = ((py - 2) * 2 + (px - 2)) * 4;
                    corner[at..at + 4].try_into().unwrap()
                } else {
                    rgba
                };
                assert_eq!(
                    pixel(&img, px, py),
                    want,
                    "replay {replay}: A's pixel ({px}, {py})"
                );
            }
        }
    }
    // The errors of the enqueue forms, and the context's.
    let r_image = image4x4(t, fx.ctx, false);
    let other = t.context();
    let foreign = image4x4(t, other, true);
    let big = [5usize, 1, 1];
    let rec = fx.command_buffer();
    unsafe {
        assert_code!(
            (x.copy_image)(
                rec,
                null(),
                null(),
                a,
                r_image,
                o0.as_ptr(),
                o0.as_ptr(),
                two.as_ptr(),
                0,
                null(),
                null(),
                null()
            ),
            CL_IMAGE_FORMAT_MISMATCH
        );
        assert_code!(
            (x.copy_image)(
                rec,
                null(),
                null(),
                a,
                a,
                o0.as_ptr(),
                o1.as_ptr(),
                two.as_ptr(),
                0,
                null(),
                null(),
                null()
            ),
            CL_MEM_COPY_OVERLAP
        );
        assert_code!(
            (x.copy_image)(
                rec,
                null(),
                null(),
                a,
                foreign,
                o0.as_ptr(),
                o0.as_ptr(),
                two.as_ptr(),
                0,
                null(),
                null(),
                null()
            ),
            CL_INVALID_CONTEXT
        );
        assert_code!(
            (x.fill_image)(
                rec,
                null(),
                null(),
                a,
                null(),
                o0.as_ptr(),
                all.as_ptr(),
                0,
                null(),
                null(),
                null()
            ),
            CL_INVALID_VALUE,
            "fill_color NULL"
        );
        assert_code!(
            (x.fill_image)(
                rec,
                null(),
                null(),
                a,
                color.as_ptr().cast(),
                o0.as_ptr(),
                big.as_ptr(),
                0,
                null(),
                null(),
                null()
            ),
            CL_INVALID_VALUE,
            "a region past the image"
        );
        assert_code!(
            (x.copy_image_to_buffer)(
                rec,
                null(),
                null(),
                a,
                src,
                o0.as_ptr(),
                all.as_ptr(),
                0,
                0,
                null(),
                null(),
                null()
            ),
            CL_INVALID_VALUE,
            "64 bytes into a buffer of 16"
        );
        assert_code!(
            (x.copy_image_to_buffer)(
                rec,
                null(),
                null(),
                src,
                out,
                o0.as_ptr(),
                all.as_ptr(),
                0,
                0,
                null(),
                null(),
                null()
            ),
            CL_INVALID_MEM_OBJECT,
            "a buffer as the source image"
        );
        assert_code!(
            (x.copy_buffer_to_image)(
                rec,
                null(),
                null(),
                a,
                b,
                0,
                o0.as_ptr(),
                two.as_ptr(),
                0,
                null(),
                null(),
                null()
            ),
            CL_INVALID_MEM_OBJECT,
            "an image as the source buffer"
        );
        assert_code!(
            (x.copy_buffer_to_image)(
                rec,
                null(),
                null(),
                src,
                a,
                0,
                o0.as_ptr(),
                two.as_ptr(),
                1,
                null(),
                null(),
                null()
            ),
            CL_INVALID_SYNC_POINT_WAIT_LIST_KHR,
            "a count of one and no list"
        );
        assert_code!((x.release)(rec), CL_SUCCESS);
        assert_code!((x.release)(cb), CL_SUCCESS);
    }
    for m in [a, b, r_image, foreign, src, out] {
        call!(t; clReleaseMemObject(m));
    }
    call!(t; clReleaseContext(other));
}

both_ways!(
    advertised_with_its_version,
    replays_fill_kernel_and_copies,
    kernel_arguments_are_captured_when_recorded,
    barriers_and_event_ordering,
    create_errors,
    recording_and_state_errors,
    info_queries,
    svm_commands,
    image_commands,
);
