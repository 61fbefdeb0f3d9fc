//! Semantics decided in sema, observed by running kernels: compound
//! literals, pointer compound assignment, `case` conversion, vector
//! subscripts, folded constant tables.

mod run_common;
use run_common::*;

/// Run a one-work-item kernel `t(global T *o)` and return `o`.
fn outputs_of<T: Copy + Default>(src: &str, n: usize) -> Vec<T> {
    let p = build(src);
    let mut out = vec![T::default(); n];
    run(&p, "t", &mut [buf(&mut out)], &[1], &[1]);
    out
}

/// [`outputs_of`] for `global int *o`.
fn outputs(src: &str, n: usize) -> Vec<i32> {
    outputs_of(src, n)
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

/// [`outputs_of`] for `global long *o`.
fn outputs64(src: &str, n: usize) -> Vec<i64> {
    outputs_of(src, n)
}

/// Enumerations widen as clang widens them (hashcat keeps SHA-512's initial
/// values in one): `int` or `unsigned int`, then `long` or `unsigned long`;
/// an enumerator is `int` when its value fits, else of the enumeration's
/// type. The expected values are clang-14's (`-cl-std=CL3.0 -target spir64`).
#[test]
fn enumerations_widen_to_hold_their_values() {
    let out = outputs64(
        "enum E { IV = 0x510e527fade682d1UL, B };
         enum F { X = 1, Y = -1 };
         enum G { P = 0xffffffffU };
         enum H { Q = -5, R = 0x80000000L };
         enum A { A1 = 1 };
         enum W { W1 = 1, W2 = 0x100000000L };
         enum N { N1 = 0x7fffffff, N2 };
         kernel void t(global long *o) {
            o[0] = sizeof(enum E); o[1] = IV; o[2] = B; o[3] = sizeof(IV);
            o[4] = sizeof(enum G); o[5] = sizeof(P); o[6] = (P > 0);
            o[7] = sizeof(enum H); o[8] = sizeof(R); o[9] = (X > -2);
            o[10] = ((enum F)0 - 1) < 0; o[11] = ((enum G)0 - 1) > 0;
            o[12] = ((enum A)0 - 1) > 0; o[13] = sizeof(W1); o[14] = sizeof(enum W);
            o[15] = ((enum W)0 - 1) > 0; o[16] = sizeof(N2); o[17] = N2; o[18] = sizeof(enum N);
            enum E e = IV; o[19] = e >> 32;
            ulong h[2] = { IV, B }; o[20] = h[0] == 0x510e527fade682d1UL && h[1] == h[0] + 1;
         }",
        21,
    );
    let iv = 0x510e527fade682d1u64 as i64;
    assert_eq!(
        out,
        [
            8,
            iv,
            iv + 1,
            8,
            4,
            4,
            1,
            8,
            8,
            1,
            1,
            1,
            1,
            4,
            8,
            1,
            4,
            2147483648,
            4,
            iv >> 32,
            1
        ]
    );
}

/// Front-end cases the CTS met (test_basic's async copies and vstores,
/// test_integer_ops vector_scalar, test_compiler): a vector cast of a cast,
/// `NULL` for a pointer to any address space, scalar arms of a `?:` with a
/// vector condition kept unpromoted, `DBL_RADIX`, and an `extern` object of
/// a type completed later. Values are clang-14's.
#[test]
fn cts_front_end_cases_build_and_run() {
    let out = outputs64(
        "extern constant struct bar x;
         struct bar { int a; };
         constant struct bar x = { 5 };
         kernel void t(global long *o) {
            char2 v = (char2)(char)3;
            char2 w = (char2)((char)1, (char)2);
            o[0] = v.x + 10 * v.y; o[1] = w.x + 10 * w.y;
            global int *p = NULL;
            local int *q = NULL;
            o[2] = (p == NULL) + (q == 0);
            char2 c = (char2)(-1, 0);
            char a = 7, b = 9;
            char2 s = c ? a : b;
            o[3] = sizeof(c ? a : b); o[4] = s.x + 10 * s.y;
            short h = 4; short2 c2 = (short2)(0, -1);
            o[5] = sizeof(c2 ? a : h);
            o[6] = DBL_RADIX;
            o[7] = x.a;
         }",
        8,
    );
    assert_eq!(out, [33, 21, 2, 2, 97, 4, 2, 5]);
    // OpenCL C 1.2: `(void *)0` is a private pointer, still a null constant.
    let p = build_cg_with(
        "kernel void t(global long *o) { global long *p = NULL; o[0] = p == NULL; }",
        "-cl-std=CL1.2",
        &Default::default(),
    );
    let mut o = vec![0i64; 1];
    run(&p, "t", &mut [buf(&mut o)], &[1], &[1]);
    assert_eq!(o, [1]);
}

/// Private objects get their type's alignment above the stack's 16 bytes
/// (`long16`: 128, `int16`: 64, a struct holding a `short16`: 32), with and
/// without barriers (test_basic kernel_memory_alignment_private).
#[test]
fn private_objects_are_aligned_past_16_bytes() {
    let src = "typedef struct { char c; short16 s; } S;
        kernel void t(global long *o) {
            long16 a = (long16)(1); int16 b = (int16)(2); S st; char pad = 1;
            o[get_local_id(0) * 4 + 0] = (ulong)&a % 128;
            o[get_local_id(0) * 4 + 1] = (ulong)&b % 64;
            o[get_local_id(0) * 4 + 2] = (ulong)&st % 32;
            barrier(CLK_LOCAL_MEM_FENCE);
            o[get_local_id(0) * 4 + 3] = (ulong)&st.s % 32 + a.s3 + b.s4 - 3 + pad - 1;
        }";
    for p in build_both(src) {
        let mut out = vec![-1i64; 4 * 8];
        run(&p, "t", &mut [buf(&mut out)], &[8], &[8]);
        assert!(out.iter().all(|&x| x == 0), "{out:?}");
    }
}
