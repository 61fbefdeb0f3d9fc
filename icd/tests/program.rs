//! Program objects through the rlib's entry points: creation rules, builds
//! (synchronous and with a callback), build logs and options, binaries that
//! reload, compile with embedded headers, link (executables and libraries),
//! and the program queries with the spec's error codes.

mod common;
mod program_common;

use common::*;
use program_common::*;
use std::ffi::{c_char, CString};

#[test]
fn source_program_builds_and_lists_kernels() {
    let ctx = context();
    let p = source(
        ctx,
        &[
            "kernel void a(global int *p) { p[0] = 1; }\n",
            "kernel void b(global int *p) { p[0] = 2; }\n",
        ],
    );
    // Before a build: no executable.
    let mut n = 0usize;
    // SAFETY: valid handle and out-pointer.
    let rc = unsafe {
        clGetProgramInfo(
            p,
            CL_PROGRAM_NUM_KERNELS,
            8,
            (&mut n as *mut usize).cast(),
            ptr::null_mut(),
        )
    };
    assert_eq!(rc, CL_INVALID_PROGRAM_EXECUTABLE);
    assert_eq!(build(p, ""), CL_SUCCESS, "{}", build_log(p));
    assert_eq!(program_string(p, CL_PROGRAM_KERNEL_NAMES), "a;b");
    // SAFETY: as above.
    let rc = unsafe {
        clGetProgramInfo(
            p,
            CL_PROGRAM_NUM_KERNELS,
            8,
            (&mut n as *mut usize).cast(),
            ptr::null_mut(),
        )
    };
    assert_eq!((rc, n), (CL_SUCCESS, 2));
    assert_eq!(
        program_string(p, CL_PROGRAM_SOURCE),
        "kernel void a(global int *p) { p[0] = 1; }\nkernel void b(global int *p) { p[0] = 2; }\n"
    );
    assert_eq!(build_status(p), CL_BUILD_SUCCESS);
    assert_eq!(binary_type(p), CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    release_program(p);
    release_context(ctx);
}

#[test]
fn source_lengths_and_nuls() {
    let ctx = context();
    let s1 = b"kernel void k(global int *p) { p[0] = 7; }XXXX";
    let s2 = b"\0// tail\0";
    let strings = [s1.as_ptr() as *const c_char, s2.as_ptr() as *const c_char];
    let lengths = [s1.len() - 4, s2.len()];
    let mut rc = 0;
    // SAFETY: two strings with their lengths.
    let p = unsafe {
        clCreateProgramWithSource(
            ctx,
            2,
            strings.as_ptr() as *mut _,
            lengths.as_ptr(),
            &mut rc,
        )
    };
    assert_eq!(rc, CL_SUCCESS);
    assert_eq!(
        program_string(p, CL_PROGRAM_SOURCE),
        "kernel void k(global int *p) { p[0] = 7; }// tail"
    );
    release_program(p);
    // count 0, NULL strings, a NULL entry.
    // SAFETY: the calls are made to fail.
    unsafe {
        let p = clCreateProgramWithSource(ctx, 0, strings.as_ptr() as *mut _, ptr::null(), &mut rc);
        assert!(p.is_null());
        assert_eq!(rc, CL_INVALID_VALUE);
        let p = clCreateProgramWithSource(ctx, 1, ptr::null_mut(), ptr::null(), &mut rc);
        assert!(p.is_null());
        assert_eq!(rc, CL_INVALID_VALUE);
        let bad = [strings[0], ptr::null()];
        let p = clCreateProgramWithSource(ctx, 2, bad.as_ptr() as *mut _, ptr::null(), &mut rc);
        assert!(p.is_null());
        assert_eq!(rc, CL_INVALID_VALUE);
        let p = clCreateProgramWithSource(
            ptr::null_mut(),
            1,
            strings.as_ptr() as *mut _,
            ptr::null(),
            &mut rc,
        );
        assert!(p.is_null());
        assert_eq!(rc, CL_INVALID_CONTEXT);
    }
    release_context(ctx);
}

#[test]
fn build_failure_gives_the_log() {
    let ctx = context();
    let p = source(
        ctx,
        &["kernel void k(global int *p) { p[0] = undeclared_thing; }\n"],
    );
    assert_eq!(build(p, ""), CL_BUILD_PROGRAM_FAILURE);
    assert_eq!(build_status(p), CL_BUILD_ERROR);
    let log = build_log(p);
    assert!(log.contains("undeclared_thing"), "{log}");
    assert!(log.contains("<source>:1:"), "{log}");
    let mut rc = 0;
    // SAFETY: valid handle.
    let k = unsafe { clCreateKernel(p, c"k".as_ptr(), &mut rc) };
    assert!(k.is_null());
    assert_eq!(rc, CL_INVALID_PROGRAM_EXECUTABLE);
    release_program(p);
    release_context(ctx);
}

#[test]
fn bad_options_are_invalid_build_options_with_a_log() {
    let ctx = context();
    let p = source(ctx, &["kernel void k(global int *p) { p[0] = 1; }\n"]);
    assert_eq!(build(p, "-cl-no-such-option"), CL_INVALID_BUILD_OPTIONS);
    assert!(
        build_log(p).contains("-cl-no-such-option"),
        "{}",
        build_log(p)
    );
    assert_eq!(
        build(p, "-D N=3 -cl-std=CL2.0"),
        CL_SUCCESS,
        "{}",
        build_log(p)
    );
    assert_eq!(build_options(p), "-D N=3 -cl-std=CL2.0");
    release_program(p);
    release_context(ctx);
}

#[test]
fn build_argument_errors_in_spec_order() {
    let ctx = context();
    let p = source(ctx, &["kernel void k(global int *p) { p[0] = 1; }\n"]);
    let d = device();
    let mut x = 0u8;
    // SAFETY: the calls are made to fail.
    unsafe {
        assert_eq!(
            clBuildProgram(
                ptr::null_mut(),
                0,
                ptr::null(),
                ptr::null(),
                None,
                ptr::null_mut()
            ),
            CL_INVALID_PROGRAM
        );
        assert_eq!(
            clBuildProgram(p, 1, ptr::null(), ptr::null(), None, ptr::null_mut()),
            CL_INVALID_VALUE
        );
        assert_eq!(
            clBuildProgram(p, 0, &d, ptr::null(), None, ptr::null_mut()),
            CL_INVALID_VALUE
        );
        assert_eq!(
            clBuildProgram(
                p,
                0,
                ptr::null(),
                ptr::null(),
                None,
                (&mut x as *mut u8).cast()
            ),
            CL_INVALID_VALUE
        );
        let not_dev = ctx as cl_device_id;
        assert_eq!(
            clBuildProgram(p, 1, &not_dev, ptr::null(), None, ptr::null_mut()),
            CL_INVALID_DEVICE
        );
        assert_eq!(
            clBuildProgram(p, 1, &d, ptr::null(), None, ptr::null_mut()),
            CL_SUCCESS
        );
    }
    // Kernels attached: no rebuild.
    let k = kernel(p, "k");
    assert_eq!(build(p, ""), CL_INVALID_OPERATION);
    release_kernel(k);
    assert_eq!(build(p, ""), CL_SUCCESS);
    release_program(p);
    release_context(ctx);
}

struct Notified {
    done: std::sync::Mutex<Option<cl_build_status>>,
    cv: std::sync::Condvar,
}

unsafe extern "C" fn on_built(p: cl_program, data: *mut c_void) {
    // SAFETY: `data` is the `Notified` the test passed, alive until it waits.
    let n = unsafe { &*(data as *const Notified) };
    *n.done.lock().unwrap() = Some(build_status(p));
    n.cv.notify_all();
}

#[test]
fn build_with_callback_is_asynchronous_and_notifies() {
    let ctx = context();
    let p = source(
        ctx,
        &["kernel void k(global int *p) { p[get_global_id(0)] = 5; }\n"],
    );
    let n = Notified {
        done: std::sync::Mutex::new(None),
        cv: std::sync::Condvar::new(),
    };
    // SAFETY: `n` outlives the build (we wait for the callback below).
    let rc = unsafe {
        clBuildProgram(
            p,
            0,
            ptr::null(),
            ptr::null(),
            Some(on_built),
            (&n as *const Notified).cast_mut().cast(),
        )
    };
    assert_eq!(rc, CL_SUCCESS);
    let mut g = n.done.lock().unwrap();
    while g.is_none() {
        g = n.cv.wait(g).unwrap();
    }
    assert_eq!(*g, Some(CL_BUILD_SUCCESS));
    drop(g);
    // A failing build with a callback: the call succeeds, the status says error.
    let bad = source(ctx, &["kernel void k( { }\n"]);
    *n.done.lock().unwrap() = None;
    // SAFETY: as above.
    let rc = unsafe {
        clBuildProgram(
            bad,
            0,
            ptr::null(),
            ptr::null(),
            Some(on_built),
            (&n as *const Notified).cast_mut().cast(),
        )
    };
    assert_eq!(rc, CL_SUCCESS);
    let mut g = n.done.lock().unwrap();
    while g.is_none() {
        g = n.cv.wait(g).unwrap();
    }
    assert_eq!(*g, Some(CL_BUILD_ERROR));
    drop(g);
    assert!(!build_log(bad).is_empty());
    release_program(bad);
    release_program(p);
    release_context(ctx);
}

#[test]
fn binaries_reload_and_bad_bytes_are_invalid_binary() {
    let ctx = context();
    let p = source(
        ctx,
        &["#define V 41\nkernel void k(global int *p) { p[0] = V + 1; }\n"],
    );
    assert_eq!(build(p, "-cl-std=CL1.2"), CL_SUCCESS);
    let bin = program_binary(p);
    assert!(bin.starts_with(b"CRANECL\0"));
    let d = device();
    let (p2, status, rc) = from_binary(ctx, &bin);
    assert_eq!((rc, status), (CL_SUCCESS, CL_SUCCESS));
    assert_eq!(binary_type(p2), CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    assert_eq!(build_status(p2), CL_BUILD_NONE);
    assert_eq!(build(p2, ""), CL_SUCCESS, "{}", build_log(p2));
    let q = queue(ctx, 0);
    let out = run_int_kernel(ctx, q, p2, "k", 1);
    assert_eq!(out, vec![42]);
    // Corrupt bytes.
    let mut bad = bin.clone();
    bad[0] ^= 0xff;
    let (p3, status, rc) = from_binary(ctx, &bad);
    assert!(p3.is_null());
    assert_eq!((rc, status), (CL_INVALID_BINARY, CL_INVALID_BINARY));
    let (p3, status, rc) = from_binary(ctx, &bin[..bin.len() - 3]);
    assert!(p3.is_null());
    assert_eq!((rc, status), (CL_INVALID_BINARY, CL_INVALID_BINARY));
    // A zero length.
    let lens = [0usize];
    let ptrs = [bin.as_ptr()];
    let mut st = 0;
    let mut rc = 0;
    // SAFETY: made to fail.
    let p4 = unsafe {
        clCreateProgramWithBinary(
            ctx,
            1,
            &d,
            lens.as_ptr(),
            ptrs.as_ptr() as *mut _,
            &mut st,
            &mut rc,
        )
    };
    assert!(p4.is_null());
    assert_eq!((rc, st), (CL_INVALID_VALUE, CL_INVALID_VALUE));
    release_queue(q);
    release_program(p2);
    release_program(p);
    release_context(ctx);
}

#[test]
fn compile_with_embedded_headers_and_link() {
    let ctx = context();
    let header = source(ctx, &["#define SCALE 3\nint scale(int x);\n"]);
    let lib_src = source(
        ctx,
        &["#include \"my/scale.h\"\nint scale(int x) { return x * SCALE; }\n"],
    );
    let main_src = source(
        ctx,
        &["#include \"my/scale.h\"\nkernel void k(global int *p) { p[0] = scale(5) + 1; }\n"],
    );
    assert_eq!(
        compile(lib_src, "", &[(header, "my/scale.h")]),
        CL_SUCCESS,
        "{}",
        build_log(lib_src)
    );
    assert_eq!(binary_type(lib_src), CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
    assert_eq!(
        compile(main_src, "", &[(header, "my/scale.h")]),
        CL_SUCCESS,
        "{}",
        build_log(main_src)
    );
    // Without the header the compile fails.
    let lone = source(
        ctx,
        &["#include \"my/scale.h\"\nkernel void k(global int *p) { p[0] = 1; }\n"],
    );
    assert_eq!(compile(lone, "", &[]), CL_COMPILE_PROGRAM_FAILURE);
    assert!(
        build_log(lone).contains("my/scale.h"),
        "{}",
        build_log(lone)
    );
    // A library, then an executable from the library and the object.
    let (lib, rc) = link(ctx, "-create-library", &[lib_src]);
    assert_eq!(rc, CL_SUCCESS);
    assert_eq!(binary_type(lib), CL_PROGRAM_BINARY_TYPE_LIBRARY);
    let (exe, rc) = link(ctx, "", &[main_src, lib]);
    assert_eq!(rc, CL_SUCCESS, "{}", build_log(exe));
    assert_eq!(binary_type(exe), CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    let q = queue(ctx, 0);
    assert_eq!(run_int_kernel(ctx, q, exe, "k", 1), vec![16]);
    // A compiled object's binary reloads as an input to the linker.
    let bin = program_binary(main_src);
    let (obj, _, rc) = from_binary(ctx, &bin);
    assert_eq!(rc, CL_SUCCESS);
    assert_eq!(binary_type(obj), CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
    assert_eq!(build(obj, ""), CL_INVALID_BINARY);
    let (exe2, rc) = link(ctx, "", &[obj, lib]);
    assert_eq!(rc, CL_SUCCESS, "{}", build_log(exe2));
    assert_eq!(run_int_kernel(ctx, q, exe2, "k", 1), vec![16]);
    // A link with an unresolved function fails with a log.
    let (bad, rc) = link(ctx, "", &[main_src]);
    assert_eq!(rc, CL_LINK_PROGRAM_FAILURE);
    assert_eq!(build_status(bad), CL_BUILD_ERROR);
    // Inputs that are not compiled: CL_INVALID_OPERATION.
    let (none, rc) = link(ctx, "", &[header]);
    assert!(none.is_null());
    assert_eq!(rc, CL_INVALID_OPERATION);
    for p in [bad, exe2, obj, exe, lib, lone, main_src, lib_src, header] {
        release_program(p);
    }
    release_queue(q);
    release_context(ctx);
}

#[test]
fn program_info_and_build_info() {
    let ctx = context();
    let p = source(
        ctx,
        &["global int g[4] = {1, 2, 3, 4};\nkernel void k(global int *p) { p[0] = g[1]; }\n"],
    );
    assert_eq!(build(p, "-cl-std=CL2.0"), CL_SUCCESS, "{}", build_log(p));
    let d = device();
    let mut size = 0usize;
    let mut v = 0usize;
    // SAFETY: valid handles and out-pointers.
    unsafe {
        assert_eq!(
            clGetProgramBuildInfo(
                p,
                d,
                CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                8,
                (&mut v as *mut usize).cast(),
                ptr::null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(v, 16);
        assert_eq!(
            clGetProgramBuildInfo(
                p,
                ctx as cl_device_id,
                CL_PROGRAM_BUILD_STATUS,
                4,
                (&mut v as *mut usize).cast(),
                ptr::null_mut()
            ),
            CL_INVALID_DEVICE
        );
        assert_eq!(
            clGetProgramBuildInfo(
                p,
                d,
                0x12345,
                4,
                (&mut v as *mut usize).cast(),
                ptr::null_mut()
            ),
            CL_INVALID_VALUE
        );
        assert_eq!(
            clGetProgramInfo(p, CL_PROGRAM_IL, 0, ptr::null_mut(), &mut size),
            CL_SUCCESS
        );
        assert_eq!(size, 0);
        let mut n: cl_uint = 0;
        assert_eq!(
            clGetProgramInfo(
                p,
                CL_PROGRAM_NUM_DEVICES,
                4,
                (&mut n as *mut u32).cast(),
                ptr::null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(n, 1);
        let mut c: cl_context = ptr::null_mut();
        assert_eq!(
            clGetProgramInfo(
                p,
                CL_PROGRAM_CONTEXT,
                8,
                (&mut c as *mut cl_context).cast(),
                ptr::null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(c, ctx);
        let mut b: cl_bool = 1;
        assert_eq!(
            clGetProgramInfo(
                p,
                CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT,
                4,
                (&mut b as *mut cl_bool).cast(),
                ptr::null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(b, CL_FALSE);
        assert_eq!(
            clGetProgramInfo(
                p,
                CL_PROGRAM_REFERENCE_COUNT,
                4,
                (&mut n as *mut u32).cast(),
                ptr::null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(n, 1);
        assert_eq!(clRetainProgram(p), CL_SUCCESS);
        assert_eq!(
            clGetProgramInfo(
                p,
                CL_PROGRAM_REFERENCE_COUNT,
                4,
                (&mut n as *mut u32).cast(),
                ptr::null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(n, 2);
        assert_eq!(clReleaseProgram(p), CL_SUCCESS);
        // Too small a buffer for the binaries' pointer array.
        let mut one: *mut u8 = ptr::null_mut();
        assert_eq!(
            clGetProgramInfo(
                p,
                CL_PROGRAM_BINARIES,
                4,
                (&mut one as *mut *mut u8).cast(),
                ptr::null_mut()
            ),
            CL_INVALID_VALUE
        );
    }
    release_program(p);
    release_context(ctx);
}

#[test]
fn unsupported_program_calls() {
    let ctx = context();
    let d = device();
    let mut rc = 0;
    let p = source(ctx, &["kernel void k(global int *p) { p[0] = 1; }\n"]);
    unsafe extern "C" fn cb(_: cl_program, _: *mut c_void) {}
    let v = 0u32;
    // SAFETY: the calls are made to fail.
    unsafe {
        let il = [0u8; 8];
        assert!(clCreateProgramWithIL(ctx, il.as_ptr().cast(), 8, &mut rc).is_null());
        assert_eq!(rc, CL_INVALID_OPERATION);
        assert!(clCreateProgramWithBuiltInKernels(ctx, 1, &d, c"k".as_ptr(), &mut rc).is_null());
        assert_eq!(rc, CL_INVALID_VALUE);
        assert_eq!(
            clSetProgramReleaseCallback(p, Some(cb), ptr::null_mut()),
            CL_INVALID_OPERATION
        );
        // Appendix H: no device of the program supports an IL.
        assert_eq!(
            clSetProgramSpecializationConstant(p, 0, 4, (&v as *const u32).cast()),
            CL_INVALID_OPERATION
        );
    }
    let opts = CString::new("").unwrap();
    let _ = opts;
    release_program(p);
    release_context(ctx);
}

#[test]
fn units_sharing_a_header_link() {
    let ctx = context();
    let header = source(
        ctx,
        &["typedef struct { int a; float b; } pair;\nstruct tag { int x; };\nstatic inline int twice(int v) { return 2 * v; }\nconstant int table[3] = {10, 20, 30};\nint helper(pair p);\n"],
    );
    let a = source(
        ctx,
        &["#include \"common.h\"\nint helper(pair p) { return twice(p.a) + table[1]; }\n"],
    );
    let b = source(
        ctx,
        &["#include \"common.h\"\nkernel void k(global int *o) { pair p = {4, 0.5f}; struct tag t = {1}; o[0] = helper(p) + t.x + table[2]; }\n"],
    );
    for u in [a, b] {
        assert_eq!(
            compile(u, "", &[(header, "common.h")]),
            CL_SUCCESS,
            "{}",
            build_log(u)
        );
    }
    let (exe, rc) = link(ctx, "", &[a, b]);
    assert_eq!(rc, CL_SUCCESS, "{}", build_log(exe));
    let q = queue(ctx, 0);
    assert_eq!(run_int_kernel(ctx, q, exe, "k", 1), vec![8 + 20 + 1 + 30]);
    // A variable defined (initialised) in two units is two definitions: an error.
    let g1 = source(ctx, &["global int shared_counter = 1;\n"]);
    let g2 = source(
        ctx,
        &["global int shared_counter = 1;\nkernel void k(global int *o) { o[0] = shared_counter; }\n"],
    );
    for u in [g1, g2] {
        assert_eq!(
            compile(u, "-cl-std=CL2.0", &[]),
            CL_SUCCESS,
            "{}",
            build_log(u)
        );
    }
    let (bad, rc) = link(ctx, "", &[g1, g2]);
    assert_eq!(rc, CL_LINK_PROGRAM_FAILURE);
    assert!(
        build_log(bad).contains("shared_counter"),
        "{}",
        build_log(bad)
    );
    for p in [bad, g2, g1, exe, b, a, header] {
        release_program(p);
    }
    release_queue(q);
    release_context(ctx);
}
