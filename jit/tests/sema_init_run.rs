//! Designated initialisers of arrays of structs and vectors (C99 6.7.8p17-20
//! with OpenCL vectors), observed by running kernels. The expected values
//! are what clang-14 gives for the same declarations (its LLVM IR for
//! `-x cl -cl-std=CL1.2 -emit-llvm`): a designator picks the current
//! object, brace elision goes on from the element designated, and a vector
//! element takes one value whole (a scalar is splatted).

mod run_common;
use run_common::*;

/// Run a one-work-item kernel `t(global int *o)` and return `o`.
fn outputs(src: &str, n: usize) -> Vec<i32> {
    let p = build(src);
    let mut out = vec![0i32; n];
    run(&p, "t", &mut [buf(&mut out)], &[1], &[1]);
    out
}

/// Run `body` after `decls` twice, the declarations' `PRIV` being the
/// private space (inside the kernel) and then the constant space (at
/// program scope); both runs must give `want`.
fn check_both_spaces(decls: &str, body: &str, want: &[i32]) {
    let private = format!(
        "kernel void t(global int *o) {{ {} {body} }}",
        decls.replace("PRIV ", "")
    );
    assert_eq!(outputs(&private, want.len()), want, "private:\n{private}");
    let constant = format!(
        "{} kernel void t(global int *o) {{ {body} }}",
        decls.replace("PRIV ", "constant ")
    );
    assert_eq!(
        outputs(&constant, want.len()),
        want,
        "constant:\n{constant}"
    );
}

#[test]
fn array_designator_then_brace_elision_into_structs() {
    let decls = "typedef struct { float x; } s1_t;
                 typedef struct { int p, q; } pq_t;
                 PRIV s1_t c[3] = { [0] = 1.0f, 2 };
                 PRIV pq_t e[3] = { [1] = 5, 6, 7 };
                 PRIV pq_t f[3] = { [1].q = 5, 6, 7 };";
    let body = "o[0] = (int)c[0].x; o[1] = (int)c[1].x; o[2] = (int)c[2].x;
                for (int i = 0; i < 3; i++) { o[3 + 2 * i] = e[i].p; o[4 + 2 * i] = e[i].q; }
                for (int i = 0; i < 3; i++) { o[9 + 2 * i] = f[i].p; o[10 + 2 * i] = f[i].q; }";
    let want = [1, 2, 0, 0, 0, 5, 6, 7, 0, 0, 0, 0, 5, 6, 7];
    check_both_spaces(decls, body, &want);
}

#[test]
fn nested_designator_continues_inside_the_member_then_after_it() {
    let decls = "typedef struct { int a[3]; int b; } s2_t;
                 typedef struct { int p, q; } pq_t;
                 PRIV s2_t d = { .a[1] = 1, 2, 3 };
                 PRIV pq_t k[2] = { [1] = { 1, 2 }, [0].q = 3, 4 };";
    let body = "o[0] = d.a[0]; o[1] = d.a[1]; o[2] = d.a[2]; o[3] = d.b;
                o[4] = k[0].p; o[5] = k[0].q; o[6] = k[1].p; o[7] = k[1].q;";
    // k[1].q keeps the 2 of its braced list: the elided 4 reaches only k[1].p.
    let want = [0, 1, 2, 3, 0, 3, 4, 2];
    check_both_spaces(decls, body, &want);
}

#[test]
fn vector_elements_take_one_value_each() {
    let decls = "typedef float4 v_t;
                 PRIV v_t a[3] = { [0] = 1.0f, 2 };
                 PRIV float4 h[2] = { [0] = (float4)(1, 2, 3, 4), 5 };
                 PRIV int4 i4[2] = { [1] = 1, [0] = 2, 3 };";
    let body = "for (int j = 0; j < 3; j++) { o[4 * j] = (int)a[j].x; o[4 * j + 1] = (int)a[j].y;
                                             o[4 * j + 2] = (int)a[j].z; o[4 * j + 3] = (int)a[j].w; }
                for (int j = 0; j < 2; j++) { o[12 + 4 * j] = (int)h[j].x; o[13 + 4 * j] = (int)h[j].y;
                                             o[14 + 4 * j] = (int)h[j].z; o[15 + 4 * j] = (int)h[j].w; }
                o[20] = i4[0].x; o[21] = i4[0].w; o[22] = i4[1].y; o[23] = i4[1].w;";
    let want = [
        1, 1, 1, 1, 2, 2, 2, 2, 0, 0, 0, 0, // a: splats, then zero
        1, 2, 3, 4, 5, 5, 5, 5, // h: a whole vector, then a splat
        2, 2, 3, 3, // i4: [0] = 2, then 3 overrides [1]
    ];
    check_both_spaces(decls, body, &want);
}

/// `frontend::compile`'s verdict and log for `src`.
fn compile_log(src: &str) -> (bool, String) {
    use cranecl_jit::frontend::compile;
    use cranecl_jit::options::BuildOptions;
    let o = BuildOptions::parse("-cl-std=CL1.2").expect("options parse");
    let out = compile(src, "t.cl", &o, &[]);
    (out.success, out.log)
}

/// Designations that cannot apply, and elements with nothing to take a
/// value, are errors (clang-14's words) and the checker finishes.
#[test]
fn bad_designations_and_empty_elements_are_errors() {
    let cases = [
        (
            "kernel void k(void) { int a[2] = { [0][1] = 1 }; }",
            "array designator cannot initialize non-array type",
        ),
        (
            "kernel void k(void) { float4 v = { [1] = 2 }; }",
            "designator in initializer for scalar type",
        ),
        (
            "kernel void k(void) { struct { int p; } a[2] = { [0].p.q = 1 }; }",
            "field designator cannot initialize a non-struct, non-union type",
        ),
        (
            "kernel void k(void) { struct { int p; } a[2] = { .p = 1 }; }",
            "field designator cannot initialize a non-struct, non-union type",
        ),
        (
            "typedef struct {} e_t; kernel void k(void) { e_t a[3] = { 1, [2] = 2 }; }",
            "initializer for aggregate with no elements requires explicit braces",
        ),
        (
            "typedef struct { float x; } v_t;
             kernel void k(void) { v_t r[3] = { [1].zp = 1.0f, [0] = 2.0f, 3, [2].x = 4 }; }",
            "field designator 'zp' does not refer to any field",
        ),
    ];
    for (src, msg) in cases {
        let (ok, log) = compile_log(src);
        assert!(
            !ok && log.contains(msg),
            "want '{msg}' for:\n{src}\nlog:\n{log}"
        );
    }
}

/// Designators far into big sub-arrays share one slot budget per
/// declaration (cranecl's limit; clang has none), so they end in an error
/// instead of exhausting memory.
#[test]
fn far_designators_share_one_slot_budget() {
    let items: Vec<String> = (0..8).map(|i| format!("[{i}][999999] = 1")).collect();
    let src = format!(
        "constant int t[8][1000000] = {{ {} }};
         kernel void k(global int *o) {{ o[0] = t[0][999999]; }}",
        items.join(", ")
    );
    let (ok, log) = compile_log(&src);
    assert!(
        !ok && log.contains("cranecl initialises element by element"),
        "log:\n{log}"
    );
    // One far designator is within the budget.
    let src = "constant int t[8][1000000] = { [7][999999] = 1 };
               kernel void k(global int *o) { o[0] = t[7][999999]; }";
    let (ok, log) = compile_log(src);
    assert!(ok, "log:\n{log}");
}
