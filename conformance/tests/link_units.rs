//! `clCompileProgram` then `clLinkProgram`: each compiled program stays its
//! own translation unit. One struct tag defined in both units, a `static`
//! function of one name in each, an `extern` object of the other unit, a
//! function defined in one and declared in the other, and one identical
//! definition in both (a header both include) link and compute what the
//! kernels say; two different definitions of one external function fail to
//! link with the name in the log (test_compiler's `two_file_*` cases).

use cranecl_conformance::{call, cl, code_name, info_string, null, Cl};
use opencl_sys::*;
use std::ffi::{c_void, CString};

const UNIT_A: &str = "
struct bar { float x, y; int color; };
constant struct bar foo = { 1.5f, 2.5f, 7 };
static int helper(int v) { return v * 2; }
int twice(int v) { return helper(v); }
int square(int v) { return v * v; }
kernel void ka(global int *o) { o[0] = helper(3) + square(2); }
";

const UNIT_B: &str = "
struct bar { float x, y; int color; };
extern constant struct bar foo;
static int helper(int v) { return v * 10; }
int twice(int v);
int square(int v) { return v * v; }
struct bar get(void) { return foo; }
kernel void kb(global int *o) {
    o[1] = helper(3);
    o[2] = twice(4);
    o[3] = get().color;
    o[4] = (int)(foo.x + foo.y);
    o[5] = square(3);
}
";

/// A compiled (not linked) program of `src` (OpenCL C 3.0).
fn compiled(t: &Cl, ctx: cl_context, src: &str) -> cl_program {
    let text = CString::new(src).unwrap();
    let mut sp = text.as_ptr();
    let mut e = 0;
    let p = call!(t; clCreateProgramWithSource(ctx, 1, &mut sp, null(), &mut e));
    assert_eq!(e, CL_SUCCESS);
    let dev = t.device();
    let r = call!(t; clCompileProgram(p, 1, &dev, c"-cl-std=CL3.0".as_ptr(), 0, null(), null(), None, null()));
    assert_eq!(r, CL_SUCCESS, "clCompileProgram: {}", code_name(r));
    p
}

/// Link `units`: the program or the error and the log.
fn link(t: &Cl, ctx: cl_context, units: &[cl_program]) -> Result<cl_program, (cl_int, String)> {
    let dev = t.device();
    let mut e = 0;
    let p = call!(t; clLinkProgram(ctx, 1, &dev, null(), units.len() as u32, units.as_ptr(), None, null(), &mut e));
    if e == CL_SUCCESS {
        return Ok(p);
    }
    let log = if p.is_null() {
        String::new()
    } else {
        info_string(
            |s, v, rr| call!(t; clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, s, v, rr)),
        )
        .unwrap_or_default()
    };
    Err((e, log))
}

/// Run one-item kernel `name` of `p` on `o` (in and out).
fn run(t: &Cl, ctx: cl_context, p: cl_program, name: &str, o: &mut [i32]) {
    let q = t.queue(ctx, 0);
    let bytes = std::mem::size_of_val(o);
    let mut e = 0;
    let buf = call!(t; clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, o.as_mut_ptr() as *mut c_void, &mut e));
    assert_eq!(e, CL_SUCCESS);
    let n = CString::new(name).unwrap();
    let k = call!(t; clCreateKernel(p, n.as_ptr(), &mut e));
    assert_eq!(e, CL_SUCCESS, "clCreateKernel({name}): {}", code_name(e));
    let r = call!(t; clSetKernelArg(k, 0, std::mem::size_of::<cl_mem>(), &buf as *const cl_mem as *const c_void));
    assert_eq!(r, CL_SUCCESS);
    let one = 1usize;
    let r = call!(t; clEnqueueNDRangeKernel(q, k, 1, null(), &one, null(), 0, null(), null()));
    assert_eq!(r, CL_SUCCESS);
    let r = call!(t; clEnqueueReadBuffer(q, buf, CL_TRUE, 0, bytes, o.as_mut_ptr() as *mut c_void, 0, null(), null()));
    assert_eq!(r, CL_SUCCESS);
    call!(t; clReleaseKernel(k));
    call!(t; clReleaseMemObject(buf));
    call!(t; clReleaseCommandQueue(q));
}

#[test]
fn units_keep_their_own_scope_and_share_external_names() {
    let t = cl();
    let ctx = t.context();
    let units = [compiled(t, ctx, UNIT_A), compiled(t, ctx, UNIT_B)];
    let p = link(t, ctx, &units).unwrap_or_else(|(e, log)| panic!("link: {}\n{log}", code_name(e)));
    let mut o = [0i32; 6];
    run(t, ctx, p, "ka", &mut o);
    run(t, ctx, p, "kb", &mut o);
    assert_eq!(o, [6 + 4, 30, 8, 7, 4, 9]);
    for u in units.into_iter().chain([p]) {
        call!(t; clReleaseProgram(u));
    }
    call!(t; clReleaseContext(ctx));
}

#[test]
fn two_different_definitions_fail_to_link() {
    let t = cl();
    let ctx = t.context();
    let units = [
        compiled(
            t,
            ctx,
            "int f(void) { return 1; } kernel void k1(global int *o) { o[0] = f(); }",
        ),
        compiled(
            t,
            ctx,
            "int f(void) { return 2; } kernel void k2(global int *o) { o[0] = f(); }",
        ),
    ];
    match link(t, ctx, &units) {
        Ok(_) => panic!("two definitions of f linked"),
        Err((e, log)) => {
            assert_eq!(e, CL_LINK_PROGRAM_FAILURE, "{}", code_name(e));
            assert!(log.contains("error: redefinition of 'f'"), "{log}");
        }
    }
    for u in units {
        call!(t; clReleaseProgram(u));
    }
    call!(t; clReleaseContext(ctx));
}

#[test]
fn untagged_structs_of_two_units_are_one_type() {
    // test_basic progvar_prog_scope_misc's l_user_type, separately compiled.
    let t = cl();
    let ctx = t.context();
    let ty = "typedef struct { uchar c; uint i; } my_struct_t;\n";
    let units = [
        compiled(t, ctx, &format!("{ty}global my_struct_t var = {{ 'a', 42 }};")),
        compiled(
            t,
            ctx,
            &format!("{ty}extern global my_struct_t var;\nkernel void k(global int *o) {{ o[0] = var.i + var.c; }}"),
        ),
    ];
    let p = link(t, ctx, &units).unwrap_or_else(|(e, log)| panic!("link: {}\n{log}", code_name(e)));
    let mut o = [0i32; 1];
    run(t, ctx, p, "k", &mut o);
    assert_eq!(o, [42 + 'a' as i32]);
    for u in units.into_iter().chain([p]) {
        call!(t; clReleaseProgram(u));
    }
    call!(t; clReleaseContext(ctx));
}
