//! Semantic analysis through `frontend::compile`: programs that must compile,
//! and programs that must fail with a given message on a given line.

use cranecl_jit::frontend::{compile, FrontendOutput};
use cranecl_jit::options::BuildOptions;

fn build(src: &str, opts: &str) -> FrontendOutput {
    let o = BuildOptions::parse(opts).expect("options parse");
    compile(src, "t.cl", &o, &[])
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
