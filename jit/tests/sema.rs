//! Semantic analysis through `frontend::compile`: programs that must compile,
//! and programs that must fail with a given message on a given line.

use cranecl_jit::frontend::{compile, FrontendOutput};
use cranecl_jit::options::BuildOptions;

fn build(src: &str, opts: &str) -> FrontendOutput {
    let o = BuildOptions::parse(opts).expect("options parse");
    compile(src, "t.cl", &o, &[])
}

/// Whether `features.rs` advertises this extension or OpenCL C feature.
fn advertised(name: &str) -> bool {
    use cranecl_jit::features::{EXTENSIONS, OPENCL_C_FEATURES};
    EXTENSIONS
        .iter()
        .chain(OPENCL_C_FEATURES)
        .any(|nv| nv.name == name)
}

/// Preprocess, parse and check `src` as `std` with explicit sema options:
/// (errors?, log). Lets a test turn a feature off or on by hand.
fn check_with(
    src: &str,
    std: cranecl_jit::options::ClStd,
    opts: &cranecl_jit::sema::SemaOptions,
) -> (bool, String) {
    use cranecl_jit::diag::Diagnostics;
    use cranecl_jit::parse::{parse_with, ParseOptions};
    use cranecl_jit::preprocess::{preprocess, PreprocessOptions};
    use cranecl_jit::source::SourceMap;
    let mut sm = SourceMap::new();
    let main = sm.add("t.cl", src);
    let mut diags = Diagnostics::new();
    let pp = PreprocessOptions {
        cl_std: std,
        ..Default::default()
    };
    let toks = preprocess(&mut sm, main, &pp, &mut diags);
    let tu = parse_with(
        &toks,
        ParseOptions {
            opencl_c_version: std.version(),
        },
        &mut diags,
    );
    cranecl_jit::sema::check(&tu, opts, &mut diags);
    (diags.has_errors(), diags.render(&sm))
}

/// The program compiles without errors under `opts`.
#[track_caller]
fn ok(src: &str, opts: &str) {
    let out = build(src, opts);
    assert!(
        out.success,
        "expected success under '{opts}', log:\n{}\nsource:\n{src}",
        out.log
    );
}

/// The program fails with an error on `line` whose message contains `msg`.
#[track_caller]
fn err(src: &str, opts: &str, line: u32, msg: &str) {
    let out = build(src, opts);
    assert!(
        !out.success,
        "expected failure under '{opts}' ({msg}), source:\n{src}"
    );
    let want = format!("t.cl:{line}:");
    let hit = out
        .log
        .lines()
        .any(|l| l.starts_with(&want) && l.contains("error:") && l.contains(msg));
    assert!(
        hit,
        "expected error on line {line} containing '{msg}', log:\n{}",
        out.log
    );
}

#[test]
fn harness_detects_success_and_failure() {
    let good = build("kernel void k(global int *p) { *p = 1; }", "");
    assert!(good.success, "{}", good.log);
    assert!(good.program.is_some());
    let bad = build("kernel void k(global int *p) { *p = q; }", "");
    assert!(!bad.success);
    assert!(bad.program.is_none());
    assert!(bad.log.contains("t.cl:1:"), "{}", bad.log);
}

#[test]
fn vector_add_compiles_and_lists_the_kernel() {
    let out = build(
        "kernel void add(global const float *a, global const float *b, global float *c) {\n\
           size_t i = get_global_id(0);\n  c[i] = a[i] + b[i];\n}\n",
        "",
    );
    assert!(out.success, "{}", out.log);
    let p = out.program.unwrap();
    let kernels: Vec<_> = p.kernels().map(|(_, f)| f.name.clone()).collect();
    assert_eq!(kernels, vec!["add".to_string()]);
}

const CL12: &str = "-cl-std=CL1.2";
const CL20: &str = "-cl-std=CL2.0";
const CL30: &str = "-cl-std=CL3.0";

#[test]
fn seed_constant_rules() {
    // constant.txt: program-scope constants must be initialised, are read-only.
    ok(
        "constant int t[2] = {1, 2};\nkernel void k(global int *o) { o[0] = t[1]; }",
        CL12,
    );
    err(
        "constant int c;\nkernel void k(void) {}",
        CL12,
        1,
        "must be initialized",
    );
    err(
        "constant int c = 1;\nkernel void k(constant int *p) {\n  *p = 2;\n}",
        CL12,
        3,
        "read-only",
    );
    // Return types: no address space except on the pointee.
    err(
        "private int f(void) { return 0; }",
        CL12,
        1,
        "address space",
    );
    ok("local int *f(local int *p) { return p; }", CL12);
    err(
        "local int * private f(local int *p) { return p; }",
        CL12,
        1,
        "address space",
    );
    // String literals are in the constant space.
    err(
        "kernel void k(void) {\n  char *s = \"abc\";\n}",
        CL12,
        2,
        "changes address space",
    );
    ok("kernel void k(void) { constant char *s = \"abc\"; }", CL12);
}

#[test]
fn seed_local_rules() {
    ok(
        "kernel void k(global float *o) { local float a; local float b[10]; a = 1; b[0] = a; o[0] = b[0]; }",
        CL12,
    );
    err(
        "kernel void k(void) {\n  if (1) {\n    local float c;\n  }\n}",
        CL12,
        3,
        "outermost scope of a kernel",
    );
    err(
        "kernel void k(void) {\n  local float a = 1;\n}",
        CL12,
        2,
        "initializer",
    );
    err(
        "void f(void) {\n  local int x;\n}",
        CL12,
        2,
        "non-kernel function",
    );
}

#[test]
fn seed_generic_rules() {
    let canonical = "void foo(int *a) { *a = *a + 2; }\n\
                     kernel void k1(local int *a) { foo(a); }\n\
                     kernel void k2(global int *a) { foo(a); }\n";
    ok(canonical, CL20);
    // Before 2.0 there is no generic space: `int *` is private.
    err(canonical, CL12, 2, "changes address space");
    // Under 3.0 `int *` is generic exactly when the device advertises
    // __opencl_c_generic_address_space, else private.
    if advertised("__opencl_c_generic_address_space") {
        ok(canonical, CL30);
    } else {
        err(canonical, CL30, 2, "changes address space");
    }
    err(
        "constant int c = 1;\nkernel void k(void) {\n  int *p;\n  p = &c;\n}",
        CL20,
        4,
        "changes address space",
    );
    err(
        "kernel void k(global int *gp) {\n  int *p = gp;\n  gp = p;\n}",
        CL20,
        3,
        "changes address space",
    );
    ok(
        "kernel void k(global int *gp) { int *p = gp; gp = (global int *)p; }",
        CL20,
    );
    err(
        "kernel void k(global int *g, local int *l) {\n  g = (global int *)l;\n}",
        CL20,
        2,
        "changes address space",
    );
    ok(
        "kernel void k(global int *g) { int *p = g; global int *q = to_global(p); *q = 1; }",
        CL20,
    );
}

#[test]
fn seed_global_rules() {
    ok(
        "global int foo;\nint bar;\nglobal uchar buf[512];\nglobal int baz = 12;\nstatic global int bat;\n\
         global int * global ptr = &baz;\nint *gp;\nkernel void k(void) { foo = bar + buf[0] + bat + *ptr; }",
        CL20,
    );
    err(
        "global int foo;\nkernel void k(void) {}",
        CL12,
        1,
        "constant address space",
    );
    err(
        "int foo;\nkernel void k(void) {}",
        CL12,
        1,
        "constant address space",
    );
    // Under 3.0 program-scope variables follow the device's
    // __opencl_c_program_scope_global_variables.
    if advertised("__opencl_c_program_scope_global_variables") {
        ok("int foo;\nkernel void k(void) { foo = 1; }", CL30);
    } else {
        err(
            "int foo;\nkernel void k(void) {}",
            CL30,
            1,
            "program_scope_global_variables",
        );
    }
    err(
        "global int baz;\nconstant int *global ptr = &baz;\nkernel void k(void) {}",
        CL20,
        2,
        "changes address space",
    );
    err(
        "global image2d_t im;\nkernel void k(void) {}",
        CL20,
        1,
        "program scope variable",
    );
    err(
        "global event_t ev;\nkernel void k(void) {}",
        CL20,
        1,
        "program scope variable",
    );
    err(
        "kernel void k(global int *p) {\n  int x = *p;\n}\nglobal int g = 1;\nglobal int h = g;",
        CL20,
        5,
        "compile-time constant",
    );
}

#[test]
fn kernel_signature_rules() {
    err(
        "kernel void k(int *p) {}",
        CL12,
        1,
        "pointer arguments to kernel functions",
    );
    err(
        "kernel int k(void) { return 0; }",
        CL12,
        1,
        "void return type",
    );
    err("kernel void k(size_t n) {}", CL12, 1, "kernel parameter");
    err("void f(int x, ...) {}", CL12, 1, "variadic");
    let out = build(
        "__attribute__((reqd_work_group_size(8, 4, 1)))\nkernel void k(global float4 *a, local int *l, constant uint *c) {}",
        CL12,
    );
    assert!(out.success, "{}", out.log);
    let p = out.program.unwrap();
    let (_, k) = p.kernels().next().unwrap();
    let info = k.kernel.as_ref().unwrap();
    assert_eq!(info.attrs.reqd_work_group_size, Some([8, 4, 1]));
    let names: Vec<_> = k.params.iter().map(|p| p.type_name.as_str()).collect();
    assert_eq!(names, ["float4*", "int*", "uint*"]);
}

#[test]
fn expression_rules() {
    err(
        "kernel void k(void) {\n  x = 1;\n}",
        CL12,
        2,
        "undeclared identifier 'x'",
    );
    err(
        "kernel void k(void) {\n  foo(1);\n}",
        CL12,
        2,
        "implicit declaration",
    );
    err(
        "kernel void k(global float *o) {\n  o[0] = sin(1.0f, 2.0f);\n}",
        CL12,
        2,
        "no matching function for call to 'sin'",
    );
    err(
        "kernel void k(global float4 *o) {\n  int4 v = 0;\n  o[0] = v;\n}",
        CL12,
        3,
        "incompatible type",
    );
    err(
        "kernel void k(global char4 *o) {\n  o[0] = o[0] + 1;\n}",
        CL12,
        2,
        "greater rank",
    );
    err(
        "kernel void k(global float2 *o) {\n  float4 v = 0;\n  o[0] = v.xq;\n}",
        CL12,
        3,
        "illegal vector component name",
    );
    err(
        "int f(int a) { return a; }\nkernel void k(void) {\n  f(1, 2);\n}",
        CL12,
        3,
        "too many arguments",
    );
    err(
        "void f(void) {}\nkernel void k(void) {\n  int x = f();\n}",
        CL12,
        3,
        "incompatible type",
    );
    // One mistake, one diagnostic (the poison type).
    let out = build(
        "kernel void k(global int *o) {\n  o[0] = (y + 1) * 2 - y;\n}",
        CL12,
    );
    assert_eq!(out.log.matches("error:").count(), 2, "{}", out.log);
}

#[test]
fn conversions_and_builtins_resolve() {
    ok(
        "kernel void k(global float4 *o, global int4 *i, global uchar4 *u) {\n\
           float4 v = o[0];\n  o[1] = pow(v, 2.0f) + sqrt(2.0f) + clamp(v, 0.0f, 1.0f);\n\
           i[0] = max(i[0], (char)1) + convert_int4_sat_rte(v) + as_int4(v);\n\
           u[0] = convert_uchar4(v.zyxw);\n  o[2] = (float4)(v.xy, 1.0f, v.s3);\n\
           vstore4(vload4(0, (global float *)o), 1, (global float *)o);\n\
           barrier(CLK_LOCAL_MEM_FENCE);\n  o[3] = select(v, v * 2, i[0] > 0);\n}",
        CL12,
    );
    err(
        "kernel void k(global int *o) {\n  o[0] = as_int((char)1);\n}",
        CL12,
        2,
        "sizes",
    );
    // An int argument converts to float or double equally well: with doubles
    // sqrt(2) is ambiguous, as clang-14 says (with half too); without, float.
    let int_sqrt = "kernel void k(global float *o) {\n  o[0] = sqrt(2);\n}";
    if advertised("cl_khr_fp64") {
        err(int_sqrt, CL12, 2, "ambiguous");
    } else {
        ok(int_sqrt, CL12);
    }
}

/// `double` and unsuffixed double constants follow fp64, which
/// `SemaOptions::for_std` reads from `features.rs` (cl_khr_fp64 before 3.0,
/// __opencl_c_fp64 under 3.0): off, `double` is an error and `1.0` a float
/// with a warning; on, both are doubles.
#[test]
fn double_needs_fp64() {
    use cranecl_jit::options::ClStd;
    use cranecl_jit::sema::SemaOptions;
    let uses_double = "kernel void k(global double *d) {}";
    let constant = "kernel void k(global float *f) { f[0] = 1.0; }";
    for (std, name) in [
        (ClStd::Cl12, "cl_khr_fp64"),
        (ClStd::Cl30, "__opencl_c_fp64"),
    ] {
        let device = SemaOptions::for_std(std);
        assert_eq!(
            device.fp64,
            advertised(name),
            "{std:?}: fp64 follows {name}"
        );
        let mut off = device.clone();
        off.fp64 = false;
        let (failed, log) = check_with(uses_double, std, &off);
        assert!(
            failed && log.contains("double"),
            "{std:?} without fp64:\n{log}"
        );
        let (failed, log) = check_with(constant, std, &off);
        assert!(!failed, "{log}");
        assert!(log.contains("casting to single precision"), "{log}");
        let mut on = device.clone();
        on.fp64 = true;
        let (failed, log) = check_with(uses_double, std, &on);
        assert!(!failed, "{std:?} with fp64:\n{log}");
        let (failed, log) = check_with(constant, std, &on);
        assert!(
            !failed && !log.contains("casting"),
            "{std:?} with fp64:\n{log}"
        );
    }
    // And through the front end, the device's own answer.
    if advertised("cl_khr_fp64") {
        ok(
            "kernel void k(global double *d) { d[0] = 1.0 / 3.0; }",
            CL12,
        );
    } else {
        err(uses_double, CL12, 1, "double");
    }
}

#[test]
fn program_scope_initialisers_fold_with_relocations() {
    let out = build(
        "global int a[4] = {1, 2, 3, 4};\nglobal int *p = &a[2];\nconstant float c = 1.5f * 2;\nkernel void k(void) {}",
        CL20,
    );
    assert!(out.success, "{}", out.log);
    let p = out.program.unwrap();
    let a = &p.globals[0];
    assert_eq!(a.init.as_ref().unwrap().bytes[4..8], 2i32.to_le_bytes());
    let ptr = p.globals[1].init.as_ref().unwrap();
    assert_eq!(ptr.relocs.len(), 1);
    assert_eq!(ptr.relocs[0].addend, 8);
    let c = p.globals[2].init.as_ref().unwrap();
    assert_eq!(c.bytes, 3.0f32.to_le_bytes());
}

#[test]
fn missing_return_warns_only_when_control_can_fall_off() {
    let warned = |src: &str| {
        let out = build(src, CL12);
        assert!(out.success, "{}", out.log);
        out.log.contains("does not return a value")
    };
    assert!(warned("int f(int x) { if (x) return 1; }"));
    assert!(!warned("int f(int x) { if (x) return 1; else return 2; }"));
    assert!(!warned("int f(int x) { while (1) { if (x) return 1; } }"));
    assert!(warned("int f(int x) { while (1) { if (x) break; } }"));
    assert!(!warned(
        "int f(int x) { switch (x) { case 1: return 1; default: return 0; } }"
    ));
    assert!(warned("int f(int x) { switch (x) { case 1: return 1; } }"));
    assert!(!warned("int f(int x) { for (;;) { } }"));
}

/// The 3.0 optional features are read from `features.rs`: the device's
/// options follow its tables, with the features off (by hand) the program
/// is rejected, with them on accepted.
#[test]
fn cl30_features_enable_generic_and_program_scope_globals() {
    use cranecl_jit::options::ClStd;
    use cranecl_jit::sema::SemaOptions;

    let src = "int counter;\nvoid bump(int *p) { *p += 1; }\n\
               kernel void k(local int *l) { bump(&counter); bump(l); }\n";
    let device = SemaOptions::for_std(ClStd::Cl30);
    assert_eq!(
        device.generic_address_space,
        advertised("__opencl_c_generic_address_space")
    );
    assert_eq!(
        device.program_scope_globals,
        advertised("__opencl_c_program_scope_global_variables")
    );
    let mut without = device.clone();
    without.generic_address_space = false;
    without.program_scope_globals = false;
    let (failed, log) = check_with(src, ClStd::Cl30, &without);
    assert!(failed, "3.0 without the features must reject:\n{log}");
    assert!(
        log.contains("__opencl_c_program_scope_global_variables"),
        "{log}"
    );
    let mut with = device.clone();
    with.generic_address_space = true;
    with.program_scope_globals = true;
    let (failed, log) = check_with(src, ClStd::Cl30, &with);
    assert!(!failed, "3.0 with the features must accept:\n{log}");
    // The device as advertised, through the front end.
    let (failed, log) = check_with(src, ClStd::Cl30, &device);
    assert_eq!(
        failed,
        !(device.generic_address_space && device.program_scope_globals),
        "{log}"
    );
    // 1.2 has neither, whatever the device advertises.
    err(src, CL12, 1, "constant address space");
}

/// `p -= n` reaches codegen as `p += -n` (the count negated once).
#[test]
fn pointer_compound_subtraction_is_an_add_of_the_negated_count() {
    use cranecl_jit::sema::hir::{BinOp, ExprKind, StmtKind, UnOp};
    let out = build("kernel void k(global int *p) { p -= 2; }", CL12);
    assert!(out.success, "{}", out.log);
    let p = out.program.unwrap();
    let (_, k) = p.kernels().next().unwrap();
    let body = k.body.as_ref().unwrap();
    let StmtKind::Expr(e) = &body.stmts[0].kind else {
        panic!("an expression statement")
    };
    let ExprKind::Assign { op, rhs, .. } = &e.kind else {
        panic!("an assignment: {e:?}")
    };
    assert_eq!(*op, Some(BinOp::Add));
    assert!(matches!(rhs.kind, ExprKind::Unary(UnOp::Neg, _)), "{rhs:?}");
}

/// `case` values are converted to the promoted type of the condition.
#[test]
fn case_values_take_the_switch_type() {
    use cranecl_jit::sema::hir::StmtKind;
    let out = build(
        "kernel void k(global uint *o) { switch (o[0]) { case -1: o[1] = 1; } }",
        CL12,
    );
    assert!(out.success, "{}", out.log);
    let p = out.program.unwrap();
    let (_, k) = p.kernels().next().unwrap();
    let StmtKind::Switch(_, body) = &k.body.as_ref().unwrap().stmts[0].kind else {
        panic!()
    };
    let StmtKind::Block(b) = &body.kind else {
        panic!("{body:?}")
    };
    let StmtKind::Case(v, _) = &b.stmts[0].kind else {
        panic!("{b:?}")
    };
    assert_eq!(*v, 0xffff_ffff);
}

#[test]
fn half_values_need_fp16_but_half_pointers_do_not() {
    ok(
        "kernel void k(global half *h, global float *f) {\n\
           f[0] = vload_half(0, h);\n  vstore_half(f[1], 1, h);\n  f[2] = sizeof(half);\n}",
        CL12,
    );
    err(
        "kernel void k(global half *h, global float *f) {\n  f[0] = h[0];\n}",
        CL12,
        2,
        "cl_khr_fp16",
    );
    err(
        "kernel void k(global half *h) {\n  half x;\n}",
        CL12,
        2,
        "half",
    );
}

/// Sema recurses on the tree: as deep as the parser allows, on its own stack
/// (this test runs on a small test-thread stack).
#[test]
fn deep_expressions_and_statements_check_without_overflow() {
    let chain = format!(
        "kernel void k(global int *o) {{ o[0] = {}1; }}",
        "1 + ".repeat(4000)
    );
    ok(&chain, CL12);
    let ifs = format!(
        "kernel void k(global int *o) {{ {} o[0] = 1; }}",
        "if (o[1]) ".repeat(4000)
    );
    ok(&ifs, CL12);
}

/// A checked program can move to another thread (the API builds on one
/// thread and launches on others).
#[test]
fn programs_are_send() {
    fn is_send<T: Send>(_: &T) {}
    let out = build("kernel void k(global int *o) { o[0] = 1; }", CL12);
    is_send(&out.program);
}

/// `CL_KERNEL_ARG_TYPE_NAME` keeps typedef names and OpenCL spellings.
#[test]
fn kernel_arg_type_names_are_as_written() {
    let out = build(
        "typedef float4 vec_t;\ntypedef struct { int a; } rec_t;\n\
         kernel void k(global vec_t *a, unsigned int n, global const uchar *c, global rec_t *r, long l, unsigned long u) {}",
        CL12,
    );
    assert!(out.success, "{}", out.log);
    let p = out.program.unwrap();
    let (_, k) = p.kernels().next().unwrap();
    let names: Vec<_> = k.params.iter().map(|p| p.type_name.as_str()).collect();
    assert_eq!(
        names,
        ["vec_t*", "uint", "uchar*", "rec_t*", "long", "ulong"]
    );
}

#[test]
fn enumeration_values_that_fit_no_type_are_errors() {
    err(
        "enum Z { Z1 = -1, Z2 = 0xffffffffffffffffUL };
         kernel void k(global int *o) { o[0] = Z1; }",
        "",
        1,
        "enumerator value 18446744073709551615 of 'Z2' does not fit in any integer type of the enumeration",
    );
    ok(
        "enum Z { Z1 = -1, Z2 = 0x7fffffffffffffffL };
         kernel void k(global long *o) { o[0] = Z2; }",
        "",
    );
}

/// clang's `-Wconstant-conversion`: an integer constant that the implicit
/// conversion changes is warned about (the places and words are clang-14's);
/// values that fit the width read as unsigned are not.
#[test]
fn narrowing_constant_conversions_warn() {
    let src = "kernel void t(global long *o) {
  char a = 255; uchar b = -1; uint c = -1; short d = 70000; ushort e = 65535; int f = 0x80000000; int g = 4294967296L;
  uchar h = 256; char i = -129; uint j = 0x100000000L; long k = 0xffffffffffffffffUL; char l = 127; uchar m = -128; uchar n2 = -129;
  o[0] = a + b + c + d + e + f + g + h + i + j + k + l + m + n2;
  int arr[2]; arr[0] = 300; char z; z = 300; o[1] = z;
}";
    let out = build(src, "");
    assert!(out.success, "{}", out.log);
    let warnings: Vec<&str> = out.log.lines().filter(|l| l.contains("warning:")).collect();
    assert_eq!(
        warnings,
        [
            "t.cl:2:12: warning: implicit conversion from 'int' to 'char' changes value from 255 to -1",
            "t.cl:2:54: warning: implicit conversion from 'int' to 'short' changes value from 70000 to 4464",
            "t.cl:2:107: warning: implicit conversion from 'long' to 'int' changes value from 4294967296 to 0",
            "t.cl:3:13: warning: implicit conversion from 'int' to 'uchar' changes value from 256 to 0",
            "t.cl:3:27: warning: implicit conversion from 'int' to 'char' changes value from -129 to 127",
            "t.cl:3:42: warning: implicit conversion from 'long' to 'uint' changes value from 4294967296 to 0",
            "t.cl:3:128: warning: implicit conversion from 'int' to 'uchar' changes value from -129 to 127",
            "t.cl:5:41: warning: implicit conversion from 'int' to 'char' changes value from 300 to 44",
        ]
    );
}

/// clang's `-Wswitch` overflow warning: a `case` value the condition's own
/// type cannot hold (the value still compares in the promoted type).
#[test]
fn case_values_the_condition_cannot_hold_warn() {
    let src = "kernel void t(global int *o) { int v = o[0]; switch (v) { case 0x100000001L: o[1] = 1; break; default: o[1] = 2; } char c = o[0]; switch (c) { case 300: o[2] = 1; break; } }";
    let out = build(src, "");
    assert!(out.success, "{}", out.log);
    let warnings: Vec<&str> = out.log.lines().filter(|l| l.contains("warning:")).collect();
    assert_eq!(
        warnings,
        [
            "t.cl:1:64: warning: overflow converting case value to switch condition type (4294967297 to 1)",
            "t.cl:1:149: warning: overflow converting case value to switch condition type (300 to 44)",
        ]
    );
}
