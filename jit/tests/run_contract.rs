//! Floating-point contraction (`lower/contract.rs`): `a * b + c` in one
//! expression is one fused multiply-add where the host has the instruction
//! (`FP_CONTRACT` is on by default in OpenCL C), with the same values under
//! every strategy and step and in checked mode; `#pragma OPENCL FP_CONTRACT
//! OFF` (in its scope), `CRANECL_FP_CONTRACT=0` and `half` keep two
//! roundings. The
//! built-in `mad` is one fused operation where the host has FMA.
//!
//! The operands make the two differ: with `x = 1 + 2^-12`, `x * x` is
//! `1 + 2^-11 + 2^-24`, which rounds to `w = 1 + 2^-11` in `float`, so
//! `x * x - w` is `2^-24` fused and `0` rounded twice (`double`: `1 + 2^-27`
//! and `2^-54`; `half`: `1 + 2^-6` and `2^-12`).

mod run_common;
use cranecl_jit::codegen::{CodegenOptions, CompiledProgram};
use run_common::*;

const FORMS: &str = "
kernel void forms(global const float *xs, global const float *ws, global float *out) {
    size_t i = get_global_id(0);
    float x = xs[i], w = ws[i];
    out[8 * i] = x * x + -w;
    out[8 * i + 1] = -w + x * x;
    out[8 * i + 2] = x * x - w;
    out[8 * i + 3] = w - x * x;
    float s = -w;
    s += x * x;
    out[8 * i + 4] = s;
    float t = w;
    t -= x * x;
    out[8 * i + 5] = t;
    float4 v = (float4)(x) * (float4)(x) - (float4)(w);
    out[8 * i + 6] = v.z;
    // Products apart from the sum (two statements) stay rounded twice.
    float p = x * x;
    out[8 * i + 7] = p - w;
}";

/// What `FORMS` writes for each work-item, fused or not.
fn forms_want(fused: bool) -> [f32; 8] {
    let e = if fused { 2f32.powi(-24) } else { 0.0 };
    [e, e, e, -e, e, -e, e, 0.0]
}

/// The `float` operands: `x = 1 + 2^-12` and `w = 1 + 2^-11`.
fn operands() -> (f32, f32) {
    (1.0 + 2f32.powi(-12), 1.0 + 2f32.powi(-11))
}

/// The default build, and one that runs one work-item per step.
fn default_and_one_per_step() -> [CodegenOptions; 2] {
    [
        CodegenOptions::default(),
        CodegenOptions {
            lanes: false,
            groups_of_one: false,
            ..Default::default()
        },
    ]
}

/// Kernel `name(xs, ws, out)` of `p` over `n` work-items in groups of
/// `local`, every `xs[i]`/`ws[i]` the [`operands`], `per_item` results each:
/// the `out` it wrote.
fn run_operands(
    p: &CompiledProgram,
    name: &str,
    n: usize,
    per_item: usize,
    local: u64,
) -> Vec<f32> {
    let (x, w) = operands();
    assert_eq!(x * x, w, "the product rounds to w");
    let (mut xs, mut ws) = (vec![x; n], vec![w; n]);
    let mut out = vec![f32::NAN; per_item * n];
    run(
        p,
        name,
        &mut [buf(&mut xs), buf(&mut ws), buf(&mut out)],
        &[n as u64],
        &[local],
    );
    out
}

/// `FORMS` run over `n` work-items in groups of `local`.
fn run_forms(p: &CompiledProgram, n: usize, local: u64) -> Vec<f32> {
    run_operands(p, "forms", n, 8, local)
}

fn assert_forms(got: &[f32], fused: bool, what: &str) {
    let want = forms_want(fused);
    for (i, item) in got.chunks(8).enumerate() {
        assert_eq!(item, want, "{what}: work-item {i}");
    }
}

#[test]
fn contracted_under_every_strategy_and_step() {
    let fused = host_fma();
    let builds: [(&str, CodegenOptions); 4] = [
        ("default", CodegenOptions::default()),
        (
            "eight per step",
            CodegenOptions {
                step_lanes: Some(8),
                ..Default::default()
            },
        ),
        (
            "four per step",
            CodegenOptions {
                step_lanes: Some(4),
                ..Default::default()
            },
        ),
        (
            "one per step",
            CodegenOptions {
                lanes: false,
                groups_of_one: false,
                ..Default::default()
            },
        ),
    ];
    for (what, cg) in &builds {
        let p = build_cg(FORMS, cg);
        for local in [1u64, 8, 13] {
            let got = run_forms(&p, 26, local);
            assert_forms(&got, fused, &format!("{what}, local size {local}"));
        }
    }
    // The default build does run several work-items per step, and groups
    // of one several per step.
    let p = build_cg(FORMS, &CodegenOptions::default());
    assert!(p.lanes(0), "{}", p.explanations()[0]);
    assert!(p.groups_of_one_in_lanes(0), "{}", p.explanations()[0]);
}

#[test]
fn pragma_off_keeps_two_roundings() {
    for pragma in [
        "#pragma OPENCL FP_CONTRACT OFF\n",
        // At the start of the kernel's body too (to the body's end).
        "",
    ] {
        let src = if pragma.is_empty() {
            FORMS.replacen(
                "size_t i = get_global_id(0);",
                "#pragma OPENCL FP_CONTRACT OFF\n    size_t i = get_global_id(0);",
                1,
            )
        } else {
            format!("{pragma}{FORMS}")
        };
        let p = build_cg(&src, &CodegenOptions::default());
        assert_forms(&run_forms(&p, 16, 8), false, "FP_CONTRACT OFF");
    }
    // ON and DEFAULT leave it on.
    for state in ["ON", "DEFAULT"] {
        let src = format!("#pragma OPENCL FP_CONTRACT {state}\n{FORMS}");
        let p = build_cg(&src, &CodegenOptions::default());
        assert_forms(&run_forms(&p, 16, 8), host_fma(), state);
    }
}

/// The pragma's scope (C99 §7.12.2): in a function's body, to its end; in
/// a nested compound statement, to that statement's end (the state before
/// it comes back); at file scope, to the next pragma. A macro's expression
/// takes the state where the macro is used.
const SCOPES: &str = "
#define SQ_MINUS(x, w) (x * x - w)
float off_in_body(float x, float w) {
#pragma OPENCL FP_CONTRACT OFF
    return x * x - w;
}
float after_that_body(float x, float w) { return x * x - w; }
kernel void scopes(global const float *xs, global const float *ws, global float *out) {
    size_t i = get_global_id(0);
    float x = xs[i], w = ws[i];
    out[7 * i] = off_in_body(x, w);
    out[7 * i + 1] = after_that_body(x, w);
    {
#pragma OPENCL FP_CONTRACT OFF
        out[7 * i + 2] = x * x - w;
        out[7 * i + 3] = SQ_MINUS(x, w);
        {
#pragma OPENCL FP_CONTRACT ON
            out[7 * i + 4] = x * x - w;
        }
        out[7 * i + 5] = x * x - w;
    }
    out[7 * i + 6] = x * x - w;
}
#pragma OPENCL FP_CONTRACT OFF
kernel void file_off(global const float *xs, global const float *ws, global float *out) {
    size_t i = get_global_id(0);
    out[i] = xs[i] * xs[i] - ws[i];
}
#pragma OPENCL FP_CONTRACT DEFAULT
kernel void file_default(global const float *xs, global const float *ws, global float *out) {
    size_t i = get_global_id(0);
    out[i] = xs[i] * xs[i] - ws[i];
}";

#[test]
fn pragma_scopes_follow_compound_statements() {
    let e = if host_fma() { 2f32.powi(-24) } else { 0.0 };
    for cg in default_and_one_per_step() {
        let p = build_cg(SCOPES, &cg);
        let out = run_operands(&p, "scopes", 16, 7, 8);
        for (i, item) in out.chunks(7).enumerate() {
            assert_eq!(item, [0.0, e, 0.0, 0.0, e, 0.0, e], "work-item {i}");
        }
        for (kernel, want) in [("file_off", 0.0), ("file_default", e)] {
            let out = run_operands(&p, kernel, 16, 1, 8);
            assert!(out.iter().all(|&v| v == want), "{kernel}: {out:?}");
        }
    }
}

#[test]
fn option_off_keeps_two_roundings() {
    // `CRANECL_FP_CONTRACT=0` sets this option.
    let off = CodegenOptions {
        fp_contract: false,
        ..Default::default()
    };
    let p = build_cg(FORMS, &off);
    assert_forms(&run_forms(&p, 16, 8), false, "fp_contract: false");
}

#[test]
fn double_contracted_half_not() {
    let src = "
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void k(global const double *xd, global const half *xh, global double *out) {
    size_t i = get_global_id(0);
    double x = xd[0];
    out[2 * i] = x * x - (1.0 + 0x1p-26);
    half h = xh[0];
    half hw = (half)(1.0f + 0x1p-5f);
    out[2 * i + 1] = (double)(h * h - hw);
}";
    let x = 1.0 + 2f64.powi(-27);
    assert_eq!(x * x, 1.0 + 2f64.powi(-26), "the product rounds");
    // half 1 + 2^-6: sign 0, exponent 15, mantissa 2^4.
    let mut xh = [0x3c10u16];
    for cg in [
        CodegenOptions::default(),
        CodegenOptions {
            lanes: false,
            ..Default::default()
        },
    ] {
        let p = build_cg(src, &cg);
        let mut xd = [x];
        let mut out = vec![f64::NAN; 2 * 8];
        run(
            &p,
            "k",
            &mut [buf(&mut xd), buf(&mut xh), buf(&mut out)],
            &[8],
            &[8],
        );
        let want_d = if host_fma() { 2f64.powi(-54) } else { 0.0 };
        for item in out.chunks(2) {
            assert_eq!(item, [want_d, 0.0]);
        }
    }
}

#[test]
fn mad_is_one_fused_operation_where_the_host_has_fma() {
    // `mad` leaves the product's rounding to the implementation: fused,
    // like the contracted expressions, in every step, whatever
    // `FP_CONTRACT` says (it is a call, not an expression to contract).
    let src = "#pragma OPENCL FP_CONTRACT OFF
kernel void k(global const float *xs, global const float *ws, global float *out) {
    size_t i = get_global_id(0);
    float x = xs[i], w = ws[i];
    out[2 * i] = mad(x, x, -w);
    out[2 * i + 1] = mad((float4)(x), (float4)(x), (float4)(-w)).w;
}";
    let want = if host_fma() { 2f32.powi(-24) } else { 0.0 };
    for cg in default_and_one_per_step() {
        let p = build_cg(src, &cg);
        let out = run_operands(&p, "k", 20, 2, 10);
        assert!(out.iter().all(|&v| v == want), "{out:?}");
    }
}
