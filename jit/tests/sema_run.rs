//! Semantics decided in sema, observed by running kernels: compound
//! literals, pointer compound assignment, `case` conversion, vector
//! subscripts, folded constant tables.

mod run_common;
use run_common::*;

/// Run a one-work-item kernel `t(global int *o)` and return `o`.
fn outputs(src: &str, n: usize) -> Vec<i32> {
    let p = build(src);
    let mut out = vec![0i32; n];
    run(&p, "t", &mut [buf(&mut out)], &[1], &[1]);
    out
}

#[test]
fn compound_literals_are_objects() {
    let out = outputs(
        "typedef struct { int a, b; } pair_t;
         int first(pair_t p) { return p.a; }
         kernel void t(global int *o) {
            o[0] = first((pair_t){ 3, 4 });
            o[1] = ((int[]){ 5, 6 })[1];
            o[2] = ((pair_t){ .b = 9 }).b + ((pair_t){ .b = 9 }).a;
            int *p = (int[3]){ 7 };
            o[3] = p[0] + p[1] + p[2];
         }",
        4,
    );
    assert_eq!(out, [3, 6, 9, 7]);
}

#[test]
fn pointer_compound_assignment_steps_by_elements() {
    let out = outputs(
        "kernel void t(global int *o) {
            global int *p = o + 5;
            p -= 2; *p = 30;
            p += 1; *p = 40;
            int i = 1; p -= i; p[-1] = 20;
         }",
        5,
    );
    assert_eq!(out, [0, 0, 20, 30, 40]);
}

#[test]
fn case_labels_match_after_conversion_and_vector_subscripts_work() {
    let out = outputs(
        "kernel void t(global int *o) {
            uint u = 0xffffffffu;
            switch (u) { case -1: o[0] = 1; break; default: o[0] = 2; }
            int4 v = (int4)(10, 11, 12, 13);
            int k = 2;
            o[1] = v[k];
            v[k + 1] = 99;
            o[2] = v.w;
         }",
        3,
    );
    assert_eq!(out, [1, 12, 99]);
}

#[test]
fn constant_tables_and_folded_sizes() {
    let out = outputs(
        "constant int tab[] = { 1, 2, 3, 4 };
         constant int n = sizeof(tab) / sizeof(tab[0]);
         kernel void t(global int *o) {
            int a[n * 2];
            o[0] = n;
            o[1] = sizeof(a);
            o[2] = tab[3] + vec_step(float3);
         }",
        3,
    );
    assert_eq!(out, [4, 32, 8]);
}

#[test]
fn elements_not_initialised_explicitly_are_zero() {
    let out = outputs(
        "kernel void t(global int *o) {
            int junk[16];
            for (int i = 0; i < 16; i++) junk[i] = 77;
            o[15] = junk[3];
            int a[8] = { 1, 2 };
            uchar s[6] = \"\\xff\";
            o[0] = a[1]; o[1] = a[5]; o[2] = a[7];
            o[3] = s[0]; o[4] = s[1] + s[5];
            int b[4] = { [2] = 9 };
            o[5] = b[0] + b[1] + b[3]; o[6] = b[2];
         }",
        16,
    );
    assert_eq!(&out[..7], &[2, 0, 0, 255, 0, 0, 9]);
}

#[test]
fn kernel_scope_constants_and_string_literals_are_readable() {
    let out = outputs(
        "kernel void t(global int *o) {
            constant int tab[4] = { 10, 20, 30, 40 };
            constant char *s = \"hey\";
            o[0] = tab[get_global_id(0) + 2];
            o[1] = s[1];
            o[2] = \"xyz\"[2];
         }",
        3,
    );
    assert_eq!(out, [30, i32::from(b'e'), i32::from(b'z')]);
}
