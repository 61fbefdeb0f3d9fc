//! Kernels without barriers run eight (or four) work-items per step (`codegen/lanes/`):
//! every kernel here is built with the lanes on and off, checked to get the
//! entry it should, and its results are checked against the host for group
//! sizes that leave rows with a remainder (and for ones that do not).

mod run_common;
#[path = "../../conformance/tests/kernels_ref/sha512.rs"]
mod sha512;
use cranecl_jit::codegen::{CodegenOptions, CompiledProgram};
use run_common::*;

/// `src` built with the lanes on and off.
fn on_off(src: &str) -> [CompiledProgram; 2] {
    let off = CodegenOptions {
        lanes: false,
        ..Default::default()
    };
    [
        build_cg(src, &CodegenOptions::default()),
        build_cg(src, &off),
    ]
}

/// `src` with the lanes on (asserting `kernel` got them, or not, as
/// `lanes` says) and off.
fn both(src: &str, kernel: &str, lanes: bool) -> [CompiledProgram; 2] {
    let [on, off] = on_off(src);
    let k = on.kernel_index(kernel).expect("kernel");
    assert_eq!(
        on.strategy(k),
        if lanes { "lanes" } else { "loop" },
        "entry of {kernel}"
    );
    assert_eq!(off.strategy(k), "loop");
    [on, off]
}

const LOCALS: [u64; 5] = [1, 3, 4, 13, 64];

#[test]
fn triad_affine_loads_and_stores() {
    let src = "kernel void triad(global float *a, global const float *b, global const float *c, float s) {
        size_t i = get_global_id(0);
        a[i] = b[i] + s * c[i];
    }";
    for p in both(src, "triad", true) {
        for l in LOCALS {
            let n = 1000;
            let b: Vec<f32> = (0..n).map(|i| i as f32).collect();
            let c: Vec<f32> = (0..n).map(|i| (i % 7) as f32).collect();
            let (mut b2, mut c2) = (b.clone(), c.clone());
            let mut a = vec![0f32; n];
            run(
                &p,
                "triad",
                &mut [buf(&mut a), buf(&mut b2), buf(&mut c2), val(0.5f32)],
                &[n as u64],
                &[l],
            );
            for i in 0..n {
                assert_eq!(a[i], b[i] + 0.5 * c[i], "a[{i}] local {l}");
            }
        }
    }
}

#[test]
fn int_index_reversed_and_strided() {
    // int indices, a reversed store, a stride-2 gather and a uniform load.
    let src = "kernel void k(global int *out, global const int *in, int n) {
        int i = get_global_id(0);
        out[n - 1 - i] = in[2 * i] + in[0] * 3 - i;
    }";
    for p in both(src, "k", true) {
        for l in LOCALS {
            let n = 203;
            let mut inp: Vec<i32> = (0..2 * n as i32).map(|i| i * 5 + 1).collect();
            let mut out = vec![0i32; n];
            run(
                &p,
                "k",
                &mut [buf(&mut out), buf(&mut inp), val(n as i32)],
                &[n as u64],
                &[l],
            );
            for i in 0..n {
                let want = (2 * i as i32) * 5 + 1 + 3 - i as i32;
                assert_eq!(out[n - 1 - i], want, "item {i} local {l}");
            }
        }
    }
}

#[test]
fn guard_return_and_divergent_if() {
    // The guard `return`s for some lanes of the last step (before anything
    // is written: those items restart one at a time); the `if` after the
    // store diverges within steps (run lane by lane).
    let src = "kernel void k(global int *out, int n) {
        int i = get_global_id(0);
        if (i >= n) return;
        out[i] = i;
        if (i % 3 == 0) out[i] += 100; else out[i] -= 1;
        int t = i & 1 ? 7 : 9;
        out[i] += t;
    }";
    for p in both(src, "k", true) {
        for l in [4u64, 8, 64] {
            let n = 61;
            let global = 64;
            let mut out = vec![-5i32; global];
            run(
                &p,
                "k",
                &mut [buf(&mut out), val(n as i32)],
                &[global as u64],
                &[l],
            );
            for (i, &got) in out.iter().enumerate() {
                let want = if i >= n {
                    -5
                } else {
                    let mut v = i as i32;
                    v += if i % 3 == 0 { 100 } else { -1 };
                    v + if i & 1 == 1 { 7 } else { 9 }
                };
                assert_eq!(got, want, "item {i} local {l}");
            }
        }
    }
}

#[test]
fn conv_uniform_loops_and_clamps() {
    let src = "kernel void conv(global const float *in, global float *out, constant float *f) {
        int x = get_global_id(0), y = get_global_id(1);
        int w = get_global_size(0), h = get_global_size(1);
        float sum = 0.0f;
        for (int dy = -1; dy <= 1; dy++) {
            int yy = clamp(y + dy, 0, h - 1);
            for (int dx = -1; dx <= 1; dx++) {
                int xx = clamp(x + dx, 0, w - 1);
                sum += f[(dy + 1) * 3 + dx + 1] * in[yy * w + xx];
            }
        }
        out[y * w + x] = sum;
    }";
    for p in both(src, "conv", true) {
        let (w, h) = (26usize, 9usize);
        let inp: Vec<f32> = (0..w * h).map(|i| ((i * 37) % 11) as f32).collect();
        let f: Vec<f32> = (0..9).map(|i| i as f32 - 3.0).collect();
        for l in [[1u64, 1], [13, 3], [26, 1], [2, 9]] {
            let (mut i2, mut f2) = (inp.clone(), f.clone());
            let mut out = vec![0f32; w * h];
            run(
                &p,
                "conv",
                &mut [buf(&mut i2), buf(&mut out), buf(&mut f2)],
                &[w as u64, h as u64],
                &l,
            );
            for y in 0..h {
                for x in 0..w {
                    let mut s = 0f32;
                    for dy in -1i32..=1 {
                        let yy = (y as i32 + dy).clamp(0, h as i32 - 1) as usize;
                        for dx in -1i32..=1 {
                            let xx = (x as i32 + dx).clamp(0, w as i32 - 1) as usize;
                            s += f[((dy + 1) * 3 + dx + 1) as usize] * inp[yy * w + xx];
                        }
                    }
                    assert_eq!(out[y * w + x], s, "({x},{y}) local {l:?}");
                }
            }
        }
    }
}

#[test]
fn varying_loop_break_and_switch_run_per_lane() {
    // A loop on a varying condition, a break under a varying condition
    // inside a uniform loop, a switch and a user function: each per lane.
    let src = "int twice(int v) { return 2 * v; }
    kernel void k(global int *out) {
        int i = get_global_id(0);
        int steps = 0;
        for (int v = i; v > 1; steps++) v = (v & 1) ? 3 * v + 1 : v / 2;
        int first = -1;
        for (int j = 0; j < 10; j++) { if (j * j > i) { first = j; break; } }
        int s;
        switch (i % 4) { case 0: s = 10; break; case 1: s = 20; break; default: s = 30; }
        out[i] = steps * 1000 + first * 100 + s + twice(i) * 100000;
    }";
    for p in both(src, "k", true) {
        for l in LOCALS {
            let n = 77;
            let mut out = vec![0i32; n];
            run(&p, "k", &mut [buf(&mut out)], &[n as u64], &[l]);
            for i in 0..n as i32 {
                let (mut v, mut steps) = (i, 0);
                while v > 1 {
                    v = if v & 1 == 1 { 3 * v + 1 } else { v / 2 };
                    steps += 1;
                }
                let first = (0..10).find(|j| j * j > i).unwrap_or(-1);
                let s = match i % 4 {
                    0 => 10,
                    1 => 20,
                    _ => 30,
                };
                let want = steps * 1000 + first * 100 + s + 2 * i * 100000;
                assert_eq!(out[i as usize], want, "item {i} local {l}");
            }
        }
    }
}

#[test]
fn atomics_run_once_per_work_item() {
    // A uniform-looking atomic must still happen once per work-item.
    let src = "kernel void k(global int *count, global int *slots) {
        int old = atomic_inc(count);
        atomic_add(&slots[get_global_id(0) % 5], 1);
        if (old < 0) slots[0] = -1;
    }";
    for p in both(src, "k", true) {
        for l in LOCALS {
            let n = 130;
            let mut count = vec![0i32; 1];
            let mut slots = vec![0i32; 5];
            run(
                &p,
                "k",
                &mut [buf(&mut count), buf(&mut slots)],
                &[n as u64],
                &[l],
            );
            assert_eq!(count[0], n as i32, "local {l}");
            for (s, &got) in slots.iter().enumerate() {
                assert_eq!(got, (0..n).filter(|i| i % 5 == s).count() as i32);
            }
        }
    }
}

#[test]
fn vectors_per_item_offsets_and_3d() {
    // A float4 per work-item, the global offset, 3 dimensions, linear ids
    // and get_global_id with a dimension known only at run time.
    let src = "kernel void k(global float4 *v, global uint *lin, uint d) {
        size_t i = get_global_linear_id();
        float4 x = v[i];
        x = x * 2.0f + (float4)(get_global_id(0), get_global_id(1), get_global_id(2), get_global_id(d));
        v[i] = x.wzyx;
        lin[i] = get_local_linear_id() + 1000 * (uint)get_global_id(0);
    }";
    for p in both(src, "k", true) {
        let g = [10u64, 3, 2];
        let l = [5u64, 3, 1];
        let off = [4u64, 1, 2];
        let n = (g[0] * g[1] * g[2]) as usize;
        let init: Vec<f32> = (0..4 * n).map(|i| i as f32).collect();
        let mut v = init.clone();
        let mut lin = vec![0u32; n];
        try_run(
            &p,
            "k",
            &mut [buf(&mut v), buf(&mut lin), val(1u32)],
            &g,
            &l,
            &off,
        )
        .unwrap();
        for z in 0..g[2] {
            for y in 0..g[1] {
                for x in 0..g[0] {
                    let i = ((z * g[1] + y) * g[0] + x) as usize;
                    let ids = [x + off[0], y + off[1], z + off[2], y + off[1]];
                    let mut want = [0f32; 4];
                    for c in 0..4 {
                        want[3 - c] = init[4 * i + c] * 2.0 + ids[c] as f32;
                    }
                    assert_eq!(&v[4 * i..4 * i + 4], &want, "item {i}");
                    let local_lin = ((z % l[2]) * l[1] + (y % l[1])) * l[0] + (x % l[0]);
                    assert_eq!(lin[i] as u64, local_lin + 1000 * ids[0], "item {i}");
                }
            }
        }
    }
}

#[test]
fn short_circuit_guards_loads() {
    // `i < n && a[i] > 0` must not read a[i] for lanes past n.
    let src = "kernel void k(global const int *a, global int *out, int n) {
        int i = get_global_id(0);
        out[i] = (i < n && a[i] > 0) ? 1 : 2;
    }";
    for p in both(src, "k", true) {
        let n = 5;
        let mut a = vec![3i32, -1, 4, 0, 9];
        let mut out = vec![0i32; 8];
        run(
            &p,
            "k",
            &mut [buf(&mut a), buf(&mut out), val(n)],
            &[8],
            &[8],
        );
        assert_eq!(out, [1, 2, 1, 2, 1, 2, 2, 2]);
    }
}

#[test]
fn goto_keeps_one_item_per_step() {
    let src = "kernel void k(global int *out) {
        int i = get_global_id(0);
        if (i & 1) goto odd;
        out[i] = 1;
        return;
    odd:
        out[i] = 2;
    }";
    for p in both(src, "k", false) {
        let mut out = vec![0i32; 9];
        run(&p, "k", &mut [buf(&mut out)], &[9], &[9]);
        assert_eq!(out, [1, 2, 1, 2, 1, 2, 1, 2, 1]);
    }
}

#[test]
fn sgemm_naive_uniform_loop_over_k() {
    let src =
        "kernel void mm(global const float *A, global const float *B, global float *C, int n) {
        int col = get_global_id(0), row = get_global_id(1);
        float acc = 0.0f;
        for (int k = 0; k < n; k++) acc += A[row * n + k] * B[k * n + col];
        C[row * n + col] = acc;
    }";
    for p in both(src, "mm", true) {
        let n = 18usize;
        let a: Vec<f32> = (0..n * n).map(|i| (i % 5) as f32 - 2.0).collect();
        let b: Vec<f32> = (0..n * n).map(|i| (i % 3) as f32).collect();
        for l in [[6u64, 3], [18, 1], [1, 1]] {
            let (mut a2, mut b2) = (a.clone(), b.clone());
            let mut c = vec![0f32; n * n];
            run(
                &p,
                "mm",
                &mut [buf(&mut a2), buf(&mut b2), buf(&mut c), val(n as i32)],
                &[n as u64, n as u64],
                &l,
            );
            for r in 0..n {
                for col in 0..n {
                    let mut s = 0f32;
                    for k in 0..n {
                        s += a[r * n + k] * b[k * n + col];
                    }
                    assert_eq!(c[r * n + col], s, "C[{r}][{col}] local {l:?}");
                }
            }
        }
    }
}

#[test]
fn private_memory_keeps_one_item_per_step() {
    // A variable written through its address (a function's pointer
    // parameter) would need a copy per lane the ordinary code can reach:
    // the kernel keeps the plain loop, its array too.
    let src = "void put(int *q, int v) { *q = v; }
    kernel void k(global int *out) {
        int i = get_global_id(0), q;
        int v[2];
        v[i & 1] = i;
        put(&q, 3 * i);
        out[i] = v[i & 1] + q;
    }";
    for p in both(src, "k", false) {
        let mut out = vec![0i32; 11];
        run(&p, "k", &mut [buf(&mut out)], &[11], &[11]);
        let want: Vec<i32> = (0..11).map(|i| 4 * i).collect();
        assert_eq!(out, want);
    }
}

#[test]
fn private_arrays_and_structs_interleaved_per_lane() {
    // Private arrays and structs of 4-byte scalars reached only through
    // subscripts and members: each lane has a copy, the copies of an
    // element side by side (one vector access at a subscript the lanes
    // share). Stores, compound assignments and `++` at shared and at
    // per-lane subscripts, a struct's array member, and a masked loop
    // beside them; rows with a remainder run it one at a time, with the
    // ordinary object.
    let src = "typedef struct { float x, y; int n; uint tag[2]; } Rec;
    kernel void k(global const int *in, global float *out, global int *cnt) {
        int i = get_global_id(0);
        float acc[6];
        Rec r[3];
        for (int j = 0; j < 6; j++) acc[j] = 0.5f * j + i;
        for (int j = 0; j < 3; j++) {
            r[j].x = i + j; r[j].y = in[i] * 0.25f; r[j].n = 0; r[j].tag[1] = i ^ j;
        }
        int v = in[i] & 3;
        acc[v] += 10.0f;
        acc[v + 1]++;
        r[v % 3].n += 2;
        r[2 - v % 3].tag[1] <<= 1;
        float s = 0.0f;
        int m = 0;
        for (int j = 0; j < 6; j++) s += acc[j] * (j + 1);
        for (int j = 0; j < 3; j++) { s += r[j].x * r[j].y; m += r[j].n + (int)r[j].tag[1]; }
        int t = 0, lim = in[i] & 7;
        while (t < lim) t++;
        out[i] = s + t;
        cnt[i] = m;
    }";
    let n = 45usize;
    let input: Vec<i32> = (0..n as i32).map(|i| (i * 37 + 11) % 23).collect();
    let host = |i: usize| {
        let (x, fi) = (input[i], i as f32);
        let mut acc: Vec<f32> = (0..6).map(|j| 0.5f32.mul_add(j as f32, fi)).collect();
        let mut r: Vec<(f32, f32, i32, u32)> = (0..3)
            .map(|j| ((i + j) as f32, x as f32 * 0.25, 0, (i ^ j) as u32))
            .collect();
        let v = (x & 3) as usize;
        acc[v] += 10.0;
        acc[v + 1] += 1.0;
        r[v % 3].2 += 2;
        r[2 - v % 3].3 <<= 1;
        let mut s = 0f32;
        for (j, a) in acc.iter().enumerate() {
            s = a.mul_add((j + 1) as f32, s);
        }
        let mut m = 0i32;
        for e in &r {
            s = e.0.mul_add(e.1, s);
            m += e.2 + e.3 as i32;
        }
        (s + (x & 7) as f32, m)
    };
    let ps = both(src, "k", true);
    let k = ps[0].kernel_index("k").expect("kernel");
    assert!(ps[0].masked_loops(k), "the while loop runs masked");
    for p in ps {
        for l in LOCALS {
            let (mut inp, mut out, mut cnt) = (input.clone(), vec![0f32; n], vec![0i32; n]);
            let mut args = [buf(&mut inp), buf(&mut out), buf(&mut cnt)];
            run(&p, "k", &mut args, &[n as u64], &[l]);
            for i in 0..n {
                let (s, m) = host(i);
                assert_eq!(out[i], s, "out[{i}] local {l}");
                assert_eq!(cnt[i], m, "cnt[{i}] local {l}");
            }
        }
    }
}

#[test]
fn interleaved_private_objects_in_masked_loops() {
    // A struct's members in a loop the lanes leave at different times
    // (masked by default: member accesses are not per-lane addresses), with
    // a masked `if` inside; and an array at per-lane subscripts in such a
    // loop, masked when divergent loops that touch per-lane memory are
    // (otherwise one work-item per step). Lanes out of a loop keep their
    // copies as they were.
    let src = "typedef struct { float sum; int n; uint bits; } Acc;
    kernel void k(global const int *in, global float *out, global int *cnt) {
        int i = get_global_id(0);
        Acc a;
        a.sum = 0.0f; a.n = 0; a.bits = 0;
        int lim = in[i] & 15;
        while (a.n < lim) {
            a.sum += 0.5f * a.n;
            if (a.n & 1) a.bits |= 1u << a.n;
            a.n++;
        }
        out[i] = a.sum;
        cnt[i] = a.n * 1000 + (int)a.bits;
    }
    kernel void h(global const int *in, global int *out) {
        int i = get_global_id(0);
        int bins[8];
        for (int j = 0; j < 8; j++) bins[j] = 0;
        int lim = in[i] & 31;
        for (int t = 0; t < lim; t++) bins[(t * 3 + i) & 7] += t;
        int s = 0;
        for (int j = 0; j < 8; j++) s += bins[j] * (j + 1);
        out[i] = s;
    }";
    let n = 53usize;
    let input: Vec<i32> = (0..n as i32).map(|i| (i * 29 + 7) % 41).collect();
    for p in masked_both(src, "k") {
        for l in LOCALS {
            let (mut inp, mut out, mut cnt) = (input.clone(), vec![0f32; n], vec![0i32; n]);
            let mut args = [buf(&mut inp), buf(&mut out), buf(&mut cnt)];
            run(&p, "k", &mut args, &[n as u64], &[l]);
            for i in 0..n {
                let (mut sum, mut bits) = (0f32, 0u32);
                let lim = input[i] & 15;
                for m in 0..lim {
                    sum = 0.5f32.mul_add(m as f32, sum);
                    if m & 1 == 1 {
                        bits |= 1 << m;
                    }
                }
                assert_eq!(out[i], sum, "k out[{i}] local {l}");
                assert_eq!(cnt[i], lim * 1000 + bits as i32, "k cnt[{i}] local {l}");
            }
        }
    }
    for p in masked_memory_all(src, "h") {
        let (mut inp, mut out) = (input.clone(), vec![0i32; n]);
        let mut args = [buf(&mut inp), buf(&mut out)];
        run(&p, "h", &mut args, &[n as u64], &[13]);
        for i in 0..n {
            let mut bins = [0i32; 8];
            for t in 0..input[i] & 31 {
                bins[((t * 3 + i as i32) & 7) as usize] += t;
            }
            let want: i32 = bins
                .iter()
                .enumerate()
                .map(|(j, b)| b * (j as i32 + 1))
                .sum();
            assert_eq!(out[i], want, "h out[{i}]");
        }
    }
}

#[test]
fn private_array_in_a_per_lane_statement_keeps_one_item_per_step() {
    // After the lanes wrote their copies, an `if` they disagree on runs
    // once per lane with the ordinary code, which cannot reach
    // interleaved copies: the build falls back to one work-item per step.
    // An array whose address is kept in a pointer is reached otherwise
    // than through its elements: nothing interleaved either.
    let src = "kernel void k(global const int *in, global int *out) {
        int i = get_global_id(0);
        int a[4];
        for (int j = 0; j < 4; j++) a[j] = i * j;
        if (in[i] > 2) a[in[i] & 3] = -1;
        out[i] = a[0] + a[1] + a[2] + a[3];
    }
    kernel void f(global int *out) {
        int i = get_global_id(0);
        int a[4];
        for (int j = 0; j < 4; j++) a[j] = i + j;
        int *p = a + 1;
        out[i] = a[0] + p[0] + p[1] + p[2];
    }
    kernel void big(global int *out) {
        int i = get_global_id(0);
        int a[4096];
        for (int j = 0; j < 4096; j++) a[j] = i ^ j;
        out[i] = a[i & 4095] + a[4095];
    }";
    let n = 29usize;
    let input: Vec<i32> = (0..n as i32).map(|i| (i * 5) % 7).collect();
    for p in both(src, "k", false) {
        assert_eq!(p.strategy(p.kernel_index("f").expect("f")), "loop");
        // Eight copies of 16 KiB: more than a step's copies may take.
        assert_eq!(p.strategy(p.kernel_index("big").expect("big")), "loop");
        let (mut inp, mut out) = (input.clone(), vec![0i32; n]);
        let mut args = [buf(&mut inp), buf(&mut out)];
        run(&p, "k", &mut args, &[n as u64], &[n as u64]);
        for i in 0..n {
            let mut a: Vec<i32> = (0..4).map(|j| i as i32 * j).collect();
            if input[i] > 2 {
                a[(input[i] & 3) as usize] = -1;
            }
            assert_eq!(out[i], a.iter().sum::<i32>(), "k out[{i}]");
        }
        let mut out = vec![0i32; n];
        run(&p, "f", &mut [buf(&mut out)], &[n as u64], &[n as u64]);
        for (i, &o) in out.iter().enumerate() {
            assert_eq!(o, 4 * i as i32 + 6, "f out[{i}]");
        }
        let mut out = vec![0i32; n];
        run(&p, "big", &mut [buf(&mut out)], &[n as u64], &[n as u64]);
        for (i, &o) in out.iter().enumerate() {
            let i = i as i32;
            assert_eq!(o, (i ^ (i & 4095)) + (i ^ 4095), "big out[{i}]");
        }
    }
}

#[test]
fn packed_values_and_locals() {
    // Packed int and float arithmetic, an int built from the lane's id
    // stored packed, and a packed float local that per-lane code (a user
    // function call, a divergent if after a write) reads and writes back.
    let src = "float halve(float v) { return v * 0.5f; }
    kernel void k(global const int *a, global const float *b, global int *oi, global float *of, int n) {
        int i = get_global_id(0);
        oi[i] = ((a[i] + i) * 3) ^ a[i];
        float acc = 0.0f;
        for (int j = 0; j < n; j++) acc += b[j * 64 + i] - 1.0f;
        of[i] = acc;
        acc = halve(acc);
        if (a[i] & 1) acc += 100.0f;
        of[64 + i] = acc / 2.0f;
    }";
    for p in both(src, "k", true) {
        for l in LOCALS {
            let n = 5;
            let a: Vec<i32> = (0..64).map(|i| i * 7 - 100).collect();
            let b: Vec<f32> = (0..64 * n).map(|i| (i % 13) as f32).collect();
            let (mut a2, mut b2) = (a.clone(), b.clone());
            let mut oi = vec![0i32; 64];
            let mut of = vec![0f32; 128];
            run(
                &p,
                "k",
                &mut [
                    buf(&mut a2),
                    buf(&mut b2),
                    buf(&mut oi),
                    buf(&mut of),
                    val(n as i32),
                ],
                &[64],
                &[l],
            );
            for i in 0..64 {
                assert_eq!(oi[i], ((a[i] + i as i32) * 3) ^ a[i], "oi[{i}] local {l}");
                let mut acc = 0f32;
                for j in 0..n {
                    acc += b[j * 64 + i] - 1.0;
                }
                assert_eq!(of[i], acc, "of[{i}] local {l}");
                let mut h = acc * 0.5;
                if a[i] & 1 != 0 {
                    h += 100.0;
                }
                assert_eq!(of[64 + i], h / 2.0, "of[64+{i}] local {l}");
            }
        }
    }
}

#[test]
fn whole_vectors_move_by_vector_accesses_and_shuffles() {
    // Each lane's vector read or written whole, each four lanes' vectors
    // transposed to and from one register per component: side by side
    // (`a[i]`, `o4[i]`), apart (`a[(i * 3) % 50]`, `o5[(i * 5) % 64]`), the
    // same for four lanes (`b[i / 4]`), two components side by side
    // (`c[i]`, `o2[i]`) and apart (`e[(i * 7) % 64]`, `o6[(i * 5) % 64]`),
    // eight components (`d[2 * i + 1]`, `o8[i]`).
    let src = "kernel void vecs(global const float4 *a, global const int4 *b,
            global const float2 *c, global const uint8 *d, global float4 *o4,
            global float4 *o5, global float2 *o2, global uint8 *o8,
            global const int2 *e, global int2 *o6) {
        int i = get_global_id(0);
        float4 x = a[i];
        float4 y = a[(i * 3) % 50];
        int4 z = b[i / 4];
        float2 w = c[i];
        uint8 u = d[2 * i + 1];
        o4[i] = x * y + convert_float4(z);
        o5[(i * 5) % 64] = y;
        o2[i] = w * w.yx;
        o8[i] = u + (uint)i;
        o6[(i * 5) % 64] = e[(i * 7) % 64] + (int2)(i, -i);
    }";
    let explained = CodegenOptions {
        explain: true,
        ..Default::default()
    };
    let gathered = |p: &CompiledProgram| -> Vec<String> {
        let k = p.kernel_index("vecs").expect("kernel");
        let e = &p.explanations()[k];
        e.notes
            .iter()
            .filter(|n| n.contains("component by component"))
            .cloned()
            .collect()
    };
    let fast = build_cg(src, &explained);
    assert!(fast.lanes(0), "vecs runs in the lanes");
    assert_eq!(gathered(&fast), Vec::<String>::new());
    // Checked mode tests each lane's components: gathered, and said so.
    let checked = CodegenOptions {
        check: cranecl_jit::runtime::check::Checks::parse("bounds").expect("checks"),
        ..explained
    };
    let notes = gathered(&build_cg(src, &checked));
    assert!(
        notes
            .iter()
            .any(|n| n.contains("float4 read component by component per lane")),
        "{notes:?}"
    );
    let n = 64usize;
    let a: Vec<f32> = (0..4 * n).map(|j| (j % 13) as f32 - 4.5).collect();
    let b: Vec<i32> = (0..n as i32).map(|j| j * 7 - 100).collect();
    let c: Vec<f32> = (0..2 * n).map(|j| (j % 9) as f32 * 0.25).collect();
    let d: Vec<u32> = (0..16 * n as u32)
        .map(|j| j.wrapping_mul(2654435761))
        .collect();
    let e: Vec<i32> = (0..2 * n as i32).map(|j| j * 31 - 999).collect();
    for p in [
        fast,
        build_cg(
            src,
            &CodegenOptions {
                lanes: false,
                ..Default::default()
            },
        ),
    ] {
        for l in LOCALS {
            let (mut a2, mut b2, mut c2, mut d2) = (a.clone(), b.clone(), c.clone(), d.clone());
            let (mut o4, mut o5) = (vec![0f32; 4 * n], vec![0f32; 4 * n]);
            let (mut o2, mut o8) = (vec![0f32; 2 * n], vec![0u32; 8 * n]);
            let (mut e2, mut o6) = (e.clone(), vec![0i32; 2 * n]);
            run(
                &p,
                "vecs",
                &mut [
                    buf(&mut a2),
                    buf(&mut b2),
                    buf(&mut c2),
                    buf(&mut d2),
                    buf(&mut o4),
                    buf(&mut o5),
                    buf(&mut o2),
                    buf(&mut o8),
                    buf(&mut e2),
                    buf(&mut o6),
                ],
                &[n as u64],
                &[l],
            );
            for i in 0..n {
                let y = (i * 3) % 50;
                for e in 0..4 {
                    let want = a[4 * i + e] * a[4 * y + e] + b[4 * (i / 4) + e] as f32;
                    assert_eq!(o4[4 * i + e], want, "o4[{i}].s{e} local {l}");
                    let o = (i * 5) % 64;
                    assert_eq!(o5[4 * o + e], a[4 * y + e], "o5[{o}].s{e} local {l}");
                }
                for e in 0..2 {
                    let want = c[2 * i + e] * c[2 * i + 1 - e];
                    assert_eq!(o2[2 * i + e], want, "o2[{i}].s{e} local {l}");
                }
                for e in 0..8 {
                    let want = d[8 * (2 * i + 1) + e].wrapping_add(i as u32);
                    assert_eq!(o8[8 * i + e], want, "o8[{i}].s{e} local {l}");
                }
                let (o, j) = ((i * 5) % 64, (i * 7) % 64);
                let want = [e[2 * j] + i as i32, e[2 * j + 1] - i as i32];
                assert_eq!(o6[2 * o..2 * o + 2], want, "o6[{o}] local {l}");
            }
        }
    }
}

#[test]
fn calls_of_pure_functions_run_packed() {
    // `group_base()` and `scale()` read no memory and write only their own
    // variables: the same in every lane whose arguments are, so the
    // statements calling them are taken apart like any other (once for the
    // step with uniform arguments, per lane as expressions otherwise).
    // `bump()` writes through its pointer: its statement runs once per lane.
    let src = "int group_base(int per) { return (int)get_group_id(0) * per; }
    float scale(float x, int k) {
        float y = x;
        for (int j = 0; j < k; j++) y = y * 2.0f + (float)j;
        return y;
    }
    kernel void k(global const float *in, global float *out) {
        int l = get_local_id(0);
        int i = get_global_id(0);
        out[group_base(get_enqueued_local_size(0)) + l] = scale(in[i], 3) + scale(1.5f, l % 4);
    }";
    let explained = CodegenOptions {
        explain: true,
        ..Default::default()
    };
    let fast = build_cg(src, &explained);
    let k = fast.kernel_index("k").expect("kernel");
    assert!(fast.lanes(k), "k runs in the lanes");
    let notes = &fast.explanations()[k].notes;
    assert!(
        !notes.iter().any(|n| n.contains("per-work-item effects")),
        "{notes:?}"
    );
    let scale = |x: f32, k: i32| (0..k).fold(x, |y, j| y * 2.0 + j as f32);
    let off = CodegenOptions {
        lanes: false,
        ..Default::default()
    };
    for p in [fast, build_cg(src, &off)] {
        for l in LOCALS {
            let n = 1000usize;
            let mut inp: Vec<f32> = (0..n).map(|j| (j % 17) as f32 * 0.75 - 3.0).collect();
            let mut out = vec![0f32; n];
            run(
                &p,
                "k",
                &mut [buf(&mut inp), buf(&mut out)],
                &[n as u64],
                &[l],
            );
            for i in 0..n {
                let want = scale(inp[i], 3) + scale(1.5, (i as u64 % l % 4) as i32);
                assert_eq!(out[i], want, "out[{i}] local {l}");
            }
        }
    }
}

/// `src` built with the lanes on (asserting the region strategy took them
/// for `kernel`, or not) and off.
fn regions_both(src: &str, kernel: &str, lanes: bool) -> [CompiledProgram; 2] {
    let [on, off] = on_off(src);
    let k = on.kernel_index(kernel).expect("kernel");
    assert_eq!(on.strategy(k), "regions");
    assert_eq!(on.lanes(k), lanes, "lanes of {kernel}");
    assert!(!off.lanes(k));
    [on, off]
}

#[test]
fn tiled_matmul_pieces_run_eight_per_step() {
    // Values crossing barriers (acc, the ids) live in per-item frames: each
    // step loads eight lanes' frames and stores them back.
    let src = "#define T 8
    kernel void mm(global const float *A, global const float *B, global float *C, int n) {
        local float As[T][T], Bs[T][T];
        int tx = get_local_id(0), ty = get_local_id(1);
        int col = get_global_id(0), row = get_global_id(1);
        float acc = 0.0f;
        int steps = 0;
        for (int t = 0; t < n / T; t++) {
            As[ty][tx] = A[row * n + t * T + tx];
            Bs[ty][tx] = B[(t * T + ty) * n + col];
            barrier(CLK_LOCAL_MEM_FENCE);
            for (int k = 0; k < T; k++) acc += As[ty][k] * Bs[k][tx];
            steps += tx & 1;
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        C[row * n + col] = acc + 1000.0f * steps;
    }";
    for p in regions_both(src, "mm", true) {
        let n = 24usize;
        let a: Vec<f32> = (0..n * n).map(|i| (i % 7) as f32 - 3.0).collect();
        let b: Vec<f32> = (0..n * n).map(|i| (i % 5) as f32).collect();
        let (mut a2, mut b2) = (a.clone(), b.clone());
        let mut c = vec![0f32; n * n];
        run(
            &p,
            "mm",
            &mut [buf(&mut a2), buf(&mut b2), buf(&mut c), val(n as i32)],
            &[n as u64, n as u64],
            &[8, 8],
        );
        for r in 0..n {
            for col in 0..n {
                let mut s = 0f32;
                for k in 0..n {
                    s += a[r * n + k] * b[k * n + col];
                }
                let steps = if col % 8 % 2 == 1 { n / 8 } else { 0 };
                assert_eq!(c[r * n + col], s + 1000.0 * steps as f32, "C[{r}][{col}]");
            }
        }
    }
}

#[test]
fn ifs_around_barriers_are_uniform_for_the_lanes() {
    // The tile loops sit in an `if` on the work-item's ids (complete tiles,
    // then the edges with their loads tested), as tuned GEMMs write them.
    // The spec has every work-item of a group reach a barrier or none, so
    // the group agrees on that `if`: `t`, declared and stepped under it, is
    // the same in every lane, and the tile loop, which touches memory at
    // each lane's own address, is not one the lanes leave at different
    // times (they would run it once per lane: refused).
    let src = "#define T 8
    kernel void mm(global const float *A, global const float *B, global float *C, int n) {
        local float As[T][T], Bs[T][T];
        int tx = get_local_id(0), ty = get_local_id(1);
        int col = get_global_id(0), row = get_global_id(1);
        float acc = 0.0f;
        if (row < n / T * T && col < n / T * T) {
            int t = 0;
            for (; t < n / T; t++) {
                As[ty][tx] = A[row * n + t * T + tx];
                Bs[ty][tx] = B[(t * T + ty) * n + col];
                barrier(CLK_LOCAL_MEM_FENCE);
                for (int k = 0; k < T; k++) acc += As[ty][k] * Bs[k][tx];
                barrier(CLK_LOCAL_MEM_FENCE);
            }
            for (t *= T; t < n; t++) acc += A[row * n + t] * B[t * n + col];
            C[row * n + col] = acc;
        } else {
            for (int t = 0; t < n; t += T) {
                As[ty][tx] = row < n && t + tx < n ? A[row * n + t + tx] : 0.0f;
                Bs[ty][tx] = t + ty < n && col < n ? B[(t + ty) * n + col] : 0.0f;
                barrier(CLK_LOCAL_MEM_FENCE);
                for (int k = 0; k < T; k++) acc += As[ty][k] * Bs[k][tx];
                barrier(CLK_LOCAL_MEM_FENCE);
            }
            if (row < n && col < n) C[row * n + col] = acc + 0.5f;
        }
    }";
    for p in regions_both(src, "mm", true) {
        let n = 21usize;
        let a: Vec<f32> = (0..n * n).map(|i| (i % 7) as f32 - 3.0).collect();
        let b: Vec<f32> = (0..n * n).map(|i| (i % 5) as f32).collect();
        let (mut a2, mut b2) = (a.clone(), b.clone());
        let mut c = vec![0f32; n * n];
        run(
            &p,
            "mm",
            &mut [buf(&mut a2), buf(&mut b2), buf(&mut c), val(n as i32)],
            &[24, 24],
            &[8, 8],
        );
        for r in 0..n {
            for col in 0..n {
                let mut s = 0f32;
                for k in 0..n {
                    s += a[r * n + k] * b[k * n + col];
                }
                let edge = if r < 16 && col < 16 { 0.0 } else { 0.5 };
                assert_eq!(c[r * n + col], s + edge, "C[{r}][{col}]");
            }
        }
    }
}

#[test]
fn scan_pieces_with_varying_guards() {
    // A Hillis-Steele scan in local memory: `if (lid >= off)` varies within
    // steps (lanes disagree in the step that straddles `off`), values cross
    // barriers in frames, and rows of 6 leave a remainder of 2.
    let src = "kernel void scan(global const int *in, global int *out, local int *t) {
        int lid = get_local_id(0), n = get_local_size(0);
        int g = get_global_id(0);
        t[lid] = in[g];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int off = 1; off < n; off *= 2) {
            int v = lid >= off ? t[lid - off] : 0;
            barrier(CLK_LOCAL_MEM_FENCE);
            t[lid] += v;
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        out[g] = t[lid];
    }";
    for p in regions_both(src, "scan", true) {
        for l in [6u64, 16, 64] {
            let n = 192usize;
            let mut inp: Vec<i32> = (0..n as i32).map(|i| i % 9 - 4).collect();
            let mut out = vec![0i32; n];
            run(
                &p,
                "scan",
                &mut [buf(&mut inp.clone()), buf(&mut out), Arg::Local(4 * l)],
                &[n as u64],
                &[l],
            );
            let _ = &mut inp;
            for g in 0..n {
                let start = g - g % l as usize;
                let want: i32 = inp[start..=g].iter().sum();
                assert_eq!(out[g], want, "out[{g}] local {l}");
            }
        }
    }
}

#[test]
fn kernel_scope_local_variables_stay_shared_memory() {
    // `bias` is group memory written by one work-item under a varying
    // condition: never a per-lane register.
    let src = "kernel void rev(global const int *in, global int *out) {
        local int t[16];
        local int bias;
        int l = get_local_id(0);
        if (l == 1) bias = 7 + get_group_id(0);
        t[l] = in[get_global_id(0)];
        barrier(CLK_LOCAL_MEM_FENCE);
        out[get_global_id(0)] = t[15 - l] * 2 + bias;
    }";
    for p in regions_both(src, "rev", true) {
        let mut inp: Vec<i32> = (0..64).collect();
        let mut out = vec![0i32; 64];
        run(&p, "rev", &mut [buf(&mut inp), buf(&mut out)], &[64], &[16]);
        for g in 0..64 {
            let (grp, l) = (g / 16, g % 16);
            let want = (grp * 16 + 15 - l) * 2 + 7 + grp;
            assert_eq!(out[g as usize], want, "out[{g}]");
        }
    }
}

/// `both`, also asserting the kernel's divergent loops run masked.
fn masked_both(src: &str, kernel: &str) -> [CompiledProgram; 2] {
    let ps = both(src, kernel, true);
    let k = ps[0].kernel_index(kernel).expect("kernel");
    assert!(ps[0].masked_loops(k), "{kernel}: loops masked");
    ps
}

#[test]
fn masked_loop_with_break_mandelbrot() {
    let src = "kernel void m(global uint *out, float x0, float dx, uint max_iter) {
        uint px = get_global_id(0);
        float cr = x0 + (float)px * dx, ci = 0.3f;
        float zr = 0.0f, zi = 0.0f;
        uint n = 0;
        while (n < max_iter) {
            float zr2 = zr * zr, zi2 = zi * zi;
            if (zr2 + zi2 > 4.0f) break;
            float t = zr2 - zi2 + cr;
            zi = 2.0f * zr * zi + ci;
            zr = t;
            n++;
        }
        out[px] = n;
    }";
    for p in masked_both(src, "m") {
        for l in LOCALS {
            let n = 101;
            let mut out = vec![0u32; n];
            run(
                &p,
                "m",
                &mut [buf(&mut out), val(-2.0f32), val(0.025f32), val(200u32)],
                &[n as u64],
                &[l],
            );
            for (px, &got) in out.iter().enumerate() {
                let cr = -2.0f32 + px as f32 * 0.025;
                let (mut zr, mut zi, mut it) = (0f32, 0f32, 0u32);
                while it < 200 {
                    let (zr2, zi2) = (zr * zr, zi * zi);
                    if zr2 + zi2 > 4.0 {
                        break;
                    }
                    let t = zr2 - zi2 + cr;
                    zi = 2.0 * zr * zi + 0.3;
                    zr = t;
                    it += 1;
                }
                assert_eq!(got, it, "px {px} local {l}");
            }
        }
    }
}

/// A kernel whose divergent loop touches memory at per-lane addresses:
/// built by default (one work-item per step: the lanes would run that loop
/// once per lane), with the lanes off, and with divergent loops masked even
/// then (masked loads and stores).
fn masked_memory_all(src: &str, kernel: &str) -> Vec<CompiledProgram> {
    let mut ps: Vec<CompiledProgram> = both(src, kernel, false).into();
    let masked = build_cg(
        src,
        &CodegenOptions {
            masked_memory_loops: true,
            ..Default::default()
        },
    );
    let k = masked.kernel_index(kernel).expect("kernel");
    assert_eq!(masked.strategy(k), "lanes", "entry of {kernel}");
    assert!(masked.masked_loops(k), "{kernel}: loops masked");
    ps.push(masked);
    ps
}

#[test]
fn masked_loop_loads_stores_continue_and_nesting() {
    // A CSR-style row loop (its loads past a short row must not happen for
    // the lanes done with it: the rows sit at the very end of `val`), a
    // continue, a conditional store, a nested varying loop and a do-while.
    let src = "kernel void k(global const uint *rp, global const float *val,
                              global float *y, global int *flags) {
        size_t r = get_global_id(0);
        float sum = 0.0f;
        for (uint j = rp[r]; j < rp[r + 1]; j++) {
            if (val[j] < 0.0f) continue;
            sum += val[j];
            if (val[j] > 5.0f) flags[r] = (int)j;
        }
        y[r] = sum;
        int c = 0;
        for (int a = 0; a < (int)(r % 5); a++)
            for (int b = a; b < (int)(r % 3); b++) c += a * 10 + b;
        int d = (int)r;
        do { d -= 3; } while (d > 0);
        flags[64 + r] = c * 100 + d;
    }";
    for p in masked_memory_all(src, "k") {
        for l in [4u64, 8, 13] {
            let rows = 26usize;
            let mut rp = vec![0u32; rows + 1];
            for r in 0..rows {
                rp[r + 1] = rp[r] + (r as u32 * 7) % 5;
            }
            let nnz = rp[rows] as usize;
            let val: Vec<f32> = (0..nnz).map(|i| (i % 9) as f32 - 2.0).collect();
            let (mut rp2, mut val2) = (rp.clone(), val.clone());
            let mut y = vec![0f32; rows];
            let mut flags = vec![-1i32; 128];
            run(
                &p,
                "k",
                &mut [buf(&mut rp2), buf(&mut val2), buf(&mut y), buf(&mut flags)],
                &[rows as u64],
                &[l],
            );
            for r in 0..rows {
                let (s, e) = (rp[r] as usize, rp[r + 1] as usize);
                let sum: f32 = val[s..e].iter().filter(|v| **v >= 0.0).sum();
                assert_eq!(y[r], sum, "y[{r}] local {l}");
                let flag = (s..e)
                    .rev()
                    .find(|&j| val[j] > 5.0)
                    .map_or(-1, |j| j as i32);
                assert_eq!(flags[r], flag, "flags[{r}] local {l}");
                let mut c = 0;
                for a in 0..(r % 5) as i32 {
                    for b in a..(r % 3) as i32 {
                        c += a * 10 + b;
                    }
                }
                let mut d = r as i32;
                loop {
                    d -= 3;
                    if d <= 0 {
                        break;
                    }
                }
                assert_eq!(flags[64 + r], c * 100 + d, "c/d of {r} local {l}");
            }
        }
    }
}

#[test]
fn packed_comparisons_and_logic_as_ints_and_masks() {
    // Comparisons and && / || of packed values are ints 0/1 per lane; a
    // bitwise `& 1` of them is an int too (never taken for a mask); NaN
    // compares unequal; the same values steer a masked loop and an `if`.
    let src = "kernel void k(global const int *a, global const float *f, global int *out) {
        int i = get_global_id(0);
        int x = a[i], y = a[i + 1];
        float g = f[i];
        int c1 = x < y;
        int c2 = (x & y) & 1;
        int c3 = (x > 2) && (g < 1.5f);
        int c4 = (x == y) || (g != g);
        int n = 0;
        while ((n < 8 && x > n) || (c2 && n < 3)) n++;
        int t = 0;
        if (c2 + c1 == 1) t = 5;
        out[i] = c1 + 2 * c2 + 4 * c3 + 8 * c4 + 16 * n + 1000 * t + 100000 * (int)(float)x;
    }";
    for p in masked_both(src, "k") {
        for l in LOCALS {
            let n = 37;
            let a: Vec<i32> = (0..=n as i32).map(|i| (i * 7) % 11 - 2).collect();
            let f: Vec<f32> = (0..n)
                .map(|i| {
                    if i % 6 == 0 {
                        f32::NAN
                    } else {
                        i as f32 * 0.25
                    }
                })
                .collect();
            let (mut a2, mut f2) = (a.clone(), f.clone());
            let mut out = vec![0i32; n];
            run(
                &p,
                "k",
                &mut [buf(&mut a2), buf(&mut f2), buf(&mut out)],
                &[n as u64],
                &[l],
            );
            for i in 0..n {
                let (x, y, g) = (a[i], a[i + 1], f[i]);
                let c1 = (x < y) as i32;
                let c2 = (x & y) & 1;
                let c3 = (x > 2 && g < 1.5) as i32;
                let c4 = (x == y || g.is_nan()) as i32;
                let mut m = 0;
                while (m < 8 && x > m) || (c2 != 0 && m < 3) {
                    m += 1;
                }
                let t = if c2 + c1 == 1 { 5 } else { 0 };
                let want = c1 + 2 * c2 + 4 * c3 + 8 * c4 + 16 * m + 1000 * t + 100000 * x;
                assert_eq!(out[i], want, "item {i} local {l}");
            }
        }
    }
}

#[test]
fn packed_vector_types_per_component() {
    // float4/float3/int4 values of each lane packed per component: vector
    // arithmetic, scalar * vector, swizzles (reads and a swizzled store),
    // vector literals, rsqrt/sqrt/fabs packed; results must equal the
    // one-item-per-step build's bit for bit, and the host's for n-body.
    let src = "kernel void nb(global const float4 *pos, global float4 *acc, global int4 *iv,
                              global float *sc, int n, float eps) {
        size_t i = get_global_id(0);
        float4 p = pos[i];
        float4 a = (float4)(0.0f);
        for (int j = 0; j < n; j++) {
            float4 q = pos[j];
            float4 d = q - p;
            float r2 = d.x * d.x + d.y * d.y + d.z * d.z + eps;
            float inv = rsqrt(r2);
            float s = q.w * inv * inv * inv;
            a += s * d;
        }
        float3 t = (float3)(a.z, p.x, sqrt(fabs(a.y)));
        a.xyz += 0.5f * t;
        acc[i] = a;
        int4 k = (int4)((int)i, 2, (int)i * 3, -1) + iv[i];
        iv[i] = k.wzyx ^ (int4)(5);
        sc[i] = t.y + (float)k.x;
    }";
    let n = 45usize;
    let pos: Vec<f32> = (0..4 * n)
        .map(|i| ((i * 37) % 101) as f32 * 0.01 + 0.1)
        .collect();
    let iv0: Vec<i32> = (0..4 * n as i32).map(|i| i * 3 - 50).collect();
    let mut results = Vec::new();
    for p in both(src, "nb", true) {
        let mut pos2 = pos.clone();
        let mut acc = vec![0f32; 4 * n];
        let mut iv = iv0.clone();
        let mut sc = vec![0f32; n];
        run(
            &p,
            "nb",
            &mut [
                buf(&mut pos2),
                buf(&mut acc),
                buf(&mut iv),
                buf(&mut sc),
                val(n as i32),
                val(0.01f32),
            ],
            &[n as u64],
            &[9],
        );
        results.push((acc, iv, sc));
    }
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(
        bits(&results[0].0),
        bits(&results[1].0),
        "acc: lanes vs one per step"
    );
    assert_eq!(results[0].1, results[1].1, "iv");
    assert_eq!(bits(&results[0].2), bits(&results[1].2), "sc");
    let (acc, iv, _) = &results[0];
    for i in 0..n {
        let p = &pos[4 * i..4 * i + 4];
        let mut a = [0f32; 4];
        for j in 0..n {
            let q = &pos[4 * j..4 * j + 4];
            let d = [q[0] - p[0], q[1] - p[1], q[2] - p[2], q[3] - p[3]];
            // Contracted as the kernel's expressions are.
            let r2 = contracted(d[2], d[2], contracted(d[0], d[0], d[1] * d[1])) + 0.01;
            let inv = 1.0 / r2.sqrt();
            let s = q[3] * inv * inv * inv;
            for c in 0..4 {
                a[c] = contracted(s, d[c], a[c]);
            }
        }
        let t = [a[2], p[0], a[1].abs().sqrt()];
        for c in 0..3 {
            a[c] += 0.5 * t[c];
        }
        assert_eq!(bits(&acc[4 * i..4 * i + 4]), bits(&a), "acc[{i}]");
        let k = [
            i as i32 + iv0[4 * i],
            2 + iv0[4 * i + 1],
            i as i32 * 3 + iv0[4 * i + 2],
            -1 + iv0[4 * i + 3],
        ];
        assert_eq!(
            &iv[4 * i..4 * i + 4],
            &[k[3] ^ 5, k[2] ^ 5, k[1] ^ 5, k[0] ^ 5],
            "iv[{i}]"
        );
    }
}

#[test]
fn packed_fma_rounds_once() {
    // `fma` of packed floats is one fused operation per lane, as the scalar
    // code's: x * y + z rounded once. The values make the fused and the
    // unfused results differ (x * y = 1 - k^2 * 2^-24 exactly; rounded to
    // float first it loses the low bits), and a vector argument goes
    // component by component.
    let src = "kernel void k(global const float *x, global const float *y, global float *o,
                             global const float4 *v, global float4 *ov) {
        size_t i = get_global_id(0);
        o[i] = fma(x[i], y[i], -1.0f);
        ov[i] = fma(v[i], v[i], (float4)(-1.0f, 0.5f, -0.25f, 2.0f));
    }";
    let n = 37usize;
    let x: Vec<f32> = (0..n).map(|k| 1.0 + k as f32 / 4096.0).collect();
    let y: Vec<f32> = (0..n).map(|k| 1.0 + (2 * k + 1) as f32 / 4096.0).collect();
    let v: Vec<f32> = (0..4 * n)
        .map(|k| 1.0 + (k as f32 - 70.0) / 8192.0)
        .collect();
    let add = [-1.0f32, 0.5, -0.25, 2.0];
    let mut outs = Vec::new();
    for p in both(src, "k", true) {
        let (mut x2, mut y2, mut v2) = (x.clone(), y.clone(), v.clone());
        let mut o = vec![0f32; n];
        let mut ov = vec![0f32; 4 * n];
        run(
            &p,
            "k",
            &mut [
                buf(&mut x2),
                buf(&mut y2),
                buf(&mut o),
                buf(&mut v2),
                buf(&mut ov),
            ],
            &[n as u64],
            &[n as u64],
        );
        outs.push((o, ov));
    }
    for (o, ov) in &outs {
        for i in 0..n {
            let want = x[i].mul_add(y[i], -1.0);
            assert_eq!(
                o[i].to_bits(),
                want.to_bits(),
                "fma [{i}]: {} against {want}",
                o[i]
            );
            for (c, a) in add.iter().enumerate() {
                let j = 4 * i + c;
                let want = v[j].mul_add(v[j], *a);
                assert_eq!(ov[j].to_bits(), want.to_bits(), "vector fma [{i}].{c}");
            }
        }
    }
    // Not the unfused result: the test would pass a mul-and-add otherwise.
    assert_ne!(outs[0].0[5].to_bits(), (x[5] * y[5] - 1.0).to_bits());
}

#[test]
fn packed_min_max_clamp_mad() {
    // Packed built-ins follow the library's formulas: NaN-aware float
    // min/max, signed and unsigned integer min/max/clamp, mad.
    let src = "kernel void k(global const float *f, global const int *a, global const uint *u,
                             global float *of, global int *oi, global uint *ou) {
        size_t i = get_global_id(0);
        float x = f[i], y = f[i + 1];
        of[4 * i] = fmin(x, y);
        of[4 * i + 1] = max(x, 0.5f);
        of[4 * i + 2] = clamp(x, -1.0f, y);
        of[4 * i + 3] = mad(x, y, 0.25f);
        int s = a[i];
        oi[3 * i] = min(s, a[i + 1]);
        oi[3 * i + 1] = max(s, -3);
        oi[3 * i + 2] = clamp(s, -5, 5);
        uint v = u[i];
        ou[2 * i] = min(v, 7u);
        ou[2 * i + 1] = clamp(v, 2u, 4000000000u);
    }";
    let n = 41usize;
    let f: Vec<f32> = (0..=n)
        .map(|i| match i % 7 {
            0 => f32::NAN,
            1 => -0.0,
            _ => (i as f32 - 20.0) * 0.37,
        })
        .collect();
    let a: Vec<i32> = (0..=n as i32).map(|i| (i * 5) % 17 - 8).collect();
    let u: Vec<u32> = (0..=n as u32)
        .map(|i| i.wrapping_mul(0x9E37_79B9))
        .collect();
    let mut outs = Vec::new();
    for p in both(src, "k", true) {
        let (mut f2, mut a2, mut u2) = (f.clone(), a.clone(), u.clone());
        let mut of = vec![0f32; 4 * n];
        let mut oi = vec![0i32; 3 * n];
        let mut ou = vec![0u32; 2 * n];
        run(
            &p,
            "k",
            &mut [
                buf(&mut f2),
                buf(&mut a2),
                buf(&mut u2),
                buf(&mut of),
                buf(&mut oi),
                buf(&mut ou),
            ],
            &[n as u64],
            &[n as u64],
        );
        outs.push((of, oi, ou));
    }
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(
        bits(&outs[0].0),
        bits(&outs[1].0),
        "floats: lanes vs one per step"
    );
    assert_eq!(outs[0].1, outs[1].1);
    assert_eq!(outs[0].2, outs[1].2);
    let (of, oi, ou) = &outs[0];
    for i in 0..n {
        assert_eq!(oi[3 * i], a[i].min(a[i + 1]), "min {i}");
        assert_eq!(oi[3 * i + 1], a[i].max(-3), "max {i}");
        assert_eq!(oi[3 * i + 2], a[i].clamp(-5, 5), "clamp {i}");
        assert_eq!(ou[2 * i], u[i].min(7), "umin {i}");
        assert_eq!(ou[2 * i + 1], u[i].clamp(2, 4_000_000_000), "uclamp {i}");
        let (x, y) = (f[i], f[i + 1]);
        // fmin ignores a NaN operand; mad as x * y + 0.25 rounded twice.
        let want_min = if x.is_nan() {
            y
        } else if y.is_nan() {
            x
        } else {
            x.min(y)
        };
        if !(x == 0.0 && y == 0.0) {
            assert_eq!(of[4 * i].to_bits(), want_min.to_bits(), "fmin {i}");
        }
        assert_eq!(of[4 * i + 3].to_bits(), (x * y + 0.25).to_bits(), "mad {i}");
    }
}

#[test]
fn masked_loop_packed_accesses_whole_and_partial_steps() {
    // A loop whose trip count differs between the lanes (run masked where
    // masked memory loops are on) and an `if` arm: their consecutive
    // accesses are one vector access in the steps where all the lanes
    // take part, lane by lane in the others (a masked-off lane must neither
    // read nor write its element).
    let src = "kernel void grow(global int *out, global const int *in) {
        int g = get_global_id(0);
        for (int i = 0; i < g % 7; i++)
            out[g] += in[g] + i;
        if (in[g] % 3 != 0)
            out[g] += 100000;
    }";
    for p in masked_memory_all(src, "grow") {
        for l in LOCALS {
            let n = 203usize;
            let input: Vec<i32> = (0..n as i32).map(|i| i * 5 - 40).collect();
            let start: Vec<i32> = (0..n as i32).map(|i| 1000 - i).collect();
            let (mut out, mut in2) = (start.clone(), input.clone());
            run(
                &p,
                "grow",
                &mut [buf(&mut out), buf(&mut in2)],
                &[n as u64],
                &[l],
            );
            for g in 0..n {
                let t = (g % 7) as i32;
                let mut want = start[g] + t * input[g] + t * (t - 1) / 2;
                if input[g] % 3 != 0 {
                    want += 100000;
                }
                assert_eq!(out[g], want, "out[{g}] local {l}");
            }
        }
    }
}

#[test]
fn float_exp_is_the_same_with_and_without_the_lanes() {
    // The lanes compute `exp` four to a register; one work-item per step
    // computes it with the same instructions, so a kernel's values do not
    // depend on the step that ran it (and stay within the spec's 3 ulp).
    let src = "kernel void k(global float *out, global const float *in) {
        size_t i = get_global_id(0);
        out[i] = exp(in[i]);
    }";
    let n = 4096;
    let inp: Vec<f32> = (0..n)
        .map(|i| match i {
            0 => f32::NAN,
            1 => f32::INFINITY,
            2 => f32::NEG_INFINITY,
            3 => 0.0,
            _ => -110.0 + 200.0 * (i as f32 / n as f32) + (i % 13) as f32 * 1e-3,
        })
        .collect();
    let mut results = Vec::new();
    for p in both(src, "k", true) {
        let mut a = vec![0f32; n];
        let mut b = inp.clone();
        run(&p, "k", &mut [buf(&mut a), buf(&mut b)], &[n as u64], &[64]);
        results.push(a);
    }
    for i in 0..n {
        let (on, off) = (results[0][i], results[1][i]);
        assert!(
            on.to_bits() == off.to_bits() || (on.is_nan() && off.is_nan()),
            "exp({}) lanes {on:e}, one work-item {off:e}",
            inp[i]
        );
        let want = (inp[i] as f64).exp();
        if want.is_nan() {
            assert!(on.is_nan());
        } else if want > f32::MAX as f64 {
            assert_eq!(on, f32::INFINITY, "exp({})", inp[i]);
        } else if want >= f32::MIN_POSITIVE as f64 {
            let ulp = (want as f32).abs().next_up() - (want as f32).abs();
            let err = ((on as f64 - want) / ulp as f64).abs();
            assert!(err <= 3.0, "exp({}) = {on:e}, {err} ulp", inp[i]);
        }
    }
}

#[test]
fn shifts_by_a_shared_count_take_it_modulo_the_width() {
    // Packed `int`/`uint` shifted by a count every work-item shares (a
    // rotation, a count of 33 or -1, `>>` of negative `int`s): OpenCL C
    // takes the count modulo 32 (6.3.j).
    let src = "kernel void sh(global const uint *in, global uint *out, int s) {
        size_t i = get_global_id(0);
        uint u = in[i] * 2654435761u;
        int v = (int)u;
        out[4 * i] = (u << 7) | (u >> (32 - 7));
        out[4 * i + 1] = (u << s) ^ (u >> (s + 1));
        out[4 * i + 2] = (uint)(v >> s) + (uint)(v << 33);
        out[4 * i + 3] = (uint)(v >> -1) ^ (u >> -1);
    }";
    for p in both(src, "sh", true) {
        for l in LOCALS {
            for s in [3i32, 31, 33] {
                let n = 70usize;
                let mut input: Vec<u32> = (0..n as u32).map(|x| x * 977 + 13).collect();
                let mut out = vec![0u32; 4 * n];
                run(
                    &p,
                    "sh",
                    &mut [buf(&mut input), buf(&mut out), val(s)],
                    &[n as u64],
                    &[l],
                );
                let m = |c: i32| (c & 31) as u32;
                for i in 0..n {
                    let u = input[i].wrapping_mul(2654435761);
                    let v = u as i32;
                    let want = [
                        u.rotate_left(7),
                        (u << m(s)) ^ (u >> m(s + 1)),
                        ((v >> m(s)) as u32).wrapping_add((v << 1) as u32),
                        ((v >> 31) as u32) ^ (u >> 31),
                    ];
                    for (k, w) in want.iter().enumerate() {
                        assert_eq!(out[4 * i + k], *w, "out[{}] s {s} local {l}", 4 * i + k);
                    }
                }
            }
        }
    }
}

#[test]
fn assignments_inside_initialisers_make_their_local_vary() {
    // hashcat's MD5 steps, once its `hc_add3` is inlined: `t` is written
    // inside another variable's initialiser and read by the next step.
    let src = "kernel void md5ish(global uint *out, global const uint *in) {
        size_t g = get_global_id(0);
        uint a = in[g], b = in[g + 1], c = in[g + 2], d = in[g + 3];
        for (int i = 0; i < 4; i++) {
            uint t;
            uint f = (t = b ^ c) ^ d;
            a = rotate(a + f, 7u) + b;
            uint h = a ^ t;
            d = rotate(d + h, 9u) + a;
        }
        out[g] = a ^ d;
    }";
    let n = 64;
    let input: Vec<u32> = (0..n as u32 + 3)
        .map(|i| i.wrapping_mul(0x9E37_79B9))
        .collect();
    let want: Vec<u32> = (0..n)
        .map(|g| {
            let (mut a, b, c, mut d) = (input[g], input[g + 1], input[g + 2], input[g + 3]);
            for _ in 0..4 {
                let t = b ^ c;
                let f = t ^ d;
                a = a.wrapping_add(f).rotate_left(7).wrapping_add(b);
                let h = a ^ t;
                d = d.wrapping_add(h).rotate_left(9).wrapping_add(a);
            }
            a ^ d
        })
        .collect();
    for p in both(src, "md5ish", true) {
        let k = p.kernel_index("md5ish").expect("kernel");
        assert_eq!(
            p.explanations()[k].notes,
            Vec::<String>::new(),
            "nothing once per lane"
        );
        for l in [4, 16] {
            let mut out = vec![0u32; n];
            let mut inp = input.clone();
            run(
                &p,
                "md5ish",
                &mut [buf(&mut out), buf(&mut inp)],
                &[n as u64],
                &[l],
            );
            assert_eq!(out, want, "local {l}");
        }
    }
}

#[test]
fn packed_rotate_and_bitselect() {
    // A count the lanes share (0, 13, and 45: modulo 32), and per-lane
    // selections of bits.
    let src = "kernel void rb(global uint *out, global const uint *in, uint n) {
        size_t g = get_global_id(0);
        uint x = in[g], y = in[g + 1];
        int s = (int)in[g + 2];
        out[3 * g] = rotate(x, n);
        out[3 * g + 1] = bitselect(x, y, x ^ (y << 3));
        out[3 * g + 2] = (uint)bitselect(s, (int)x, s >> 31);
    }";
    let len = 40;
    let input: Vec<u32> = (0..len as u32 + 2)
        .map(|i| i.wrapping_mul(0x9E37_79B9) ^ (i << 29))
        .collect();
    for p in both(src, "rb", true) {
        for n in [0u32, 13, 45] {
            let mut out = vec![0u32; 3 * len];
            let mut inp = input.clone();
            run(
                &p,
                "rb",
                &mut [buf(&mut out), buf(&mut inp), val(n)],
                &[len as u64],
                &[8],
            );
            for g in 0..len {
                let (x, y, s) = (input[g], input[g + 1], input[g + 2]);
                let sel = |a: u32, b: u32, c: u32| (a & !c) | (b & c);
                let s_mask = ((s as i32) >> 31) as u32;
                assert_eq!(out[3 * g], x.rotate_left(n % 32), "rotate, item {g}, n {n}");
                assert_eq!(
                    out[3 * g + 1],
                    sel(x, y, x ^ (y << 3)),
                    "bitselect, item {g}"
                );
                assert_eq!(out[3 * g + 2], sel(s, x, s_mask), "int bitselect, item {g}");
            }
        }
    }
}

#[test]
fn vector_shifts_and_builtins_per_packed_component() {
    // hashcat's `u32x` (here `uint2`/`uint4`): rotations by a constant and
    // by a count the lanes share, shifts by such counts, `bitselect`,
    // `min`/`max`/`clamp`, and `float4` `mad`, `sqrt`, `fabs`, `fmax`,
    // each component packed on its own.
    let src = "kernel void vs(global uint *out, global float *fout,
                              global const uint *in, uint n) {
        size_t g = get_global_id(0);
        uint4 x = (uint4)(in[g], in[g + 1], in[g + 2], in[g + 3]);
        uint4 y = (uint4)(in[g + 4], in[g + 5] ^ x.s0, 7u, in[g]);
        uint2 z = (uint2)(x.s3, y.s1);
        uint4 r = rotate(x, (uint4)13) ^ rotate(y, (uint4)n);
        uint4 s = (x << 5) + (y >> n) + (x << (uint4)(n + 1));
        uint4 b = bitselect(x, y, r);
        uint4 m = clamp(x, min(y, r), max(y, r));
        uint2 q = rotate(z, (uint2)(n + 3)) + (z >> 2u);
        vstore4(r, g, out);
        vstore4(s, g, out + 4 * get_global_size(0));
        vstore4(b, g, out + 8 * get_global_size(0));
        vstore4(m, g, out + 12 * get_global_size(0));
        vstore2(q, g, out + 16 * get_global_size(0));
        float4 f = convert_float4(x & 0xffffu) - 30000.0f;
        float4 h = mad(f, (float4)0.5f, fabs(f)) + sqrt(fabs(f)) + fmax(f, (float4)n);
        vstore4(h, g, fout);
    }";
    let len = 36usize;
    let input: Vec<u32> = (0..len as u32 + 6)
        .map(|i| i.wrapping_mul(0x9E37_79B9) ^ (i << 27))
        .collect();
    for p in both(src, "vs", true) {
        for n in [0u32, 9, 38] {
            let mut out = vec![0u32; 18 * len];
            let mut fout = vec![0f32; 4 * len];
            let mut inp = input.clone();
            run(
                &p,
                "vs",
                &mut [buf(&mut out), buf(&mut fout), buf(&mut inp), val(n)],
                &[len as u64],
                &[12],
            );
            let sel = |a: u32, b: u32, c: u32| (a & !c) | (b & c);
            for g in 0..len {
                let i = &input;
                let x = [i[g], i[g + 1], i[g + 2], i[g + 3]];
                let y = [i[g + 4], i[g + 5] ^ x[0], 7, i[g]];
                let z = [x[3], y[1]];
                for c in 0..4 {
                    let r = x[c].rotate_left(13) ^ y[c].rotate_left(n % 32);
                    let s = (x[c] << 5)
                        .wrapping_add(y[c] >> (n % 32))
                        .wrapping_add(x[c] << ((n + 1) % 32));
                    let m = x[c].clamp(y[c].min(r), y[c].max(r));
                    assert_eq!(out[4 * g + c], r, "rotate, item {g}.{c}, n {n}");
                    assert_eq!(out[4 * (len + g) + c], s, "shifts, item {g}.{c}, n {n}");
                    assert_eq!(
                        out[4 * (2 * len + g) + c],
                        sel(x[c], y[c], r),
                        "bitselect {g}.{c}"
                    );
                    assert_eq!(out[4 * (3 * len + g) + c], m, "clamp, item {g}.{c}, n {n}");
                    let f = (x[c] & 0xffff) as f32 - 30000.0;
                    let h = (f * 0.5 + f.abs()) + f.abs().sqrt() + f.max(n as f32);
                    assert_eq!(fout[4 * g + c], h, "float4, item {g}.{c}, n {n}");
                }
                for c in 0..2 {
                    let q = z[c].rotate_left((n + 3) % 32).wrapping_add(z[c] >> 2);
                    assert_eq!(out[16 * len + 2 * g + c], q, "uint2, item {g}.{c}, n {n}");
                }
            }
        }
    }
}

#[test]
fn conditional_expressions_select_packed_values() {
    // A leaky ReLU (a packed comparison choosing packed floats), an `int`
    // condition that is not a comparison, a condition the lanes share, and
    // arms of both kinds.
    let src = "kernel void ce(global float *y, global int *z, global const float *x, int n) {
        size_t i = get_global_id(0);
        float v = x[i];
        y[i] = v > 0.0f ? v : 0.1f * v;
        int k = (int)i;
        int odd = k & 1;
        z[2 * i] = odd ? k * 3 : n - k;
        z[2 * i + 1] = (n > 5 ? k : -k) + (v < 1.0f ? n : 7);
    }";
    let len = 44usize;
    let input: Vec<f32> = (0..len).map(|i| (i as f32 - 20.0) * 0.37).collect();
    for p in both(src, "ce", true) {
        for n in [2i32, 9] {
            let mut y = vec![0f32; len];
            let mut z = vec![0i32; 2 * len];
            let mut x = input.clone();
            run(
                &p,
                "ce",
                &mut [buf(&mut y), buf(&mut z), buf(&mut x), val(n)],
                &[len as u64],
                &[12],
            );
            for i in 0..len {
                let v = input[i];
                let k = i as i32;
                let want_y = if v > 0.0 { v } else { 0.1 * v };
                assert_eq!(y[i], want_y, "relu, item {i}");
                let want0 = if k & 1 != 0 { k * 3 } else { n - k };
                assert_eq!(z[2 * i], want0, "int condition, item {i}, n {n}");
                let want1 = (if n > 5 { k } else { -k }) + if v < 1.0 { n } else { 7 };
                assert_eq!(z[2 * i + 1], want1, "uniform condition, item {i}, n {n}");
            }
        }
    }
}

#[test]
fn affine_arms_under_a_shared_condition_stay_affine() {
    // CLBlast's direct GEMM picks its tile's index with the transpose flag
    // (`a_transpose ? mg + kwg : mg + group * WGD`): two affine arms of one
    // step under a condition the lanes share. The chosen index reads and
    // writes contiguous elements; both arms are checked, at offsets that
    // make lanes of one step straddle a group's end.
    let src = "kernel void pick(global float *out, global const float *in, int t, int kwg) {
        int l = (int)get_local_id(0);
        int g = (int)get_group_id(0);
        int idm = t ? l + kwg : l + g * 8;
        long wide = t ? (long)l * 2 + kwg : (long)l * 2 + 1;
        out[get_global_id(0)] = in[idm] + in[wide];
    }";
    let n = 48usize;
    let input: Vec<f32> = (0..256).map(|i| i as f32 * 0.5 - 3.0).collect();
    for p in both(src, "pick", true) {
        for t in [0i32, 1] {
            for kwg in [0i32, 5] {
                let mut out = vec![0f32; n];
                let mut x = input.clone();
                run(
                    &p,
                    "pick",
                    &mut [buf(&mut out), buf(&mut x), val(t), val(kwg)],
                    &[n as u64],
                    &[8],
                );
                for (i, got) in out.iter().enumerate() {
                    let (l, g) = ((i % 8) as i32, (i / 8) as i32);
                    let idm = if t != 0 { l + kwg } else { l + g * 8 };
                    let wide = if t != 0 { l * 2 + kwg } else { l * 2 + 1 };
                    let want = input[idm as usize] + input[wide as usize];
                    assert_eq!(*got, want, "item {i}, t {t}, kwg {kwg}");
                }
            }
        }
    }
}

#[test]
fn conditions_with_work_item_queries_and_constant_divisions_run_packed() {
    // Arms that ask for the group id or divide by a constant cannot fault
    // for a lane that would not have evaluated them: the conditional runs
    // for the whole step, not once per lane (CLBlast's `(a_transpose) ?
    // mg + kwg/VWMD : mg + GetGroupID0()*(WGD/VWMD)`). A division by a
    // value that may be 0 still goes lane by lane. Results as without the
    // lanes.
    let src = "kernel void q(global int *out, int t, int kwg, int d) {
        int l = (int)get_local_id(0);
        int a = t ? l + kwg / 4 : l + (int)get_group_id(0) * (16 / 4);
        long b = t ? (long)l + kwg / d : (long)l;
        out[get_global_id(0)] = a * 1000 + (int)b;
    }";
    let explained = CodegenOptions {
        explain: true,
        ..Default::default()
    };
    let fast = build_cg(src, &explained);
    let k = fast.kernel_index("q").expect("kernel");
    assert!(fast.lanes(k), "q runs in the lanes");
    let per_lane: Vec<&String> = fast.explanations()[k]
        .notes
        .iter()
        .filter(|n| n.contains("once per lane"))
        .collect();
    // Notes name the type (here without the source's text): `a` is the
    // `int`, `b` the `long`.
    assert!(
        per_lane.iter().all(|n| !n.contains("this int")),
        "{per_lane:?}"
    );
    assert_eq!(per_lane.len(), 1, "only `kwg / d` per lane: {per_lane:?}");
    let off = CodegenOptions {
        lanes: false,
        ..Default::default()
    };
    for p in [fast, build_cg(src, &off)] {
        for t in [0i32, 1] {
            let n = 40usize;
            let mut out = vec![0i32; n];
            run(
                &p,
                "q",
                &mut [buf(&mut out), val(t), val(13i32), val(3i32)],
                &[n as u64],
                &[8],
            );
            for (i, got) in out.iter().enumerate() {
                let (l, g) = ((i % 8) as i32, (i / 8) as i32);
                let a = if t != 0 { l + 13 / 4 } else { l + g * 4 };
                let b = if t != 0 { l + 13 / 3 } else { l };
                assert_eq!(*got, a * 1000 + b, "item {i}, t {t}");
            }
        }
    }
}

#[test]
fn eight_items_per_step_each_on_a_path_of_its_own() {
    // Eight work-items per step, each packed value in two registers: the
    // items of a step leave the masked loop after trip counts of their
    // own (the lanes of both registers), an `if` the items of a step agree
    // on when it starts at a multiple of 8 and not otherwise (a local size
    // of 12 or 13 starts rows elsewhere: those steps run one at a time),
    // and an `if` only the last lane of an aligned step takes, after a
    // write (run lane by lane).
    let src = "kernel void k(global uint *out, global const uint *in, global float *f) {
        uint i = get_global_id(0);
        uint h = in[i];
        uint n = 0;
        float x = (float)i;
        while (h != 1u && n < 300u) {
            h = (h & 1u) ? 3u * h + 1u : h >> 1;
            x = x * 0.5f + 1.0f;
            n++;
        }
        uint v = h * 7u + n;
        if ((i >> 3) & 1u) v = rotate(v ^ 0x9e3779b9u, 5u) + i; else v = v * 3u;
        f[i] = x;
        if (i % 8u == 7u) v += 11u;
        out[i] = v;
    }";
    let [on, off] = both(src, "k", true);
    let k = on.kernel_index("k").expect("kernel");
    assert!(on.masked_loops(k), "the loop runs masked");
    assert_eq!(on.items_per_step(k), 8, "eight work-items per step");
    assert_eq!(off.items_per_step(k), 1);
    for p in [on, off] {
        for l in [8u64, 12, 13, 64] {
            let n = 203;
            let inp: Vec<u32> = (0..n as u32).map(|i| 1 + (i * 37) % 101).collect();
            let mut inp2 = inp.clone();
            let mut out = vec![0u32; n];
            let mut f = vec![0f32; n];
            run(
                &p,
                "k",
                &mut [buf(&mut out), buf(&mut inp2), buf(&mut f)],
                &[n as u64],
                &[l],
            );
            for i in 0..n {
                let (mut h, mut t, mut x) = (inp[i], 0u32, i as f32);
                while h != 1 && t < 300 {
                    h = if h & 1 == 1 { 3 * h + 1 } else { h >> 1 };
                    x = x * 0.5 + 1.0;
                    t += 1;
                }
                let mut v = h.wrapping_mul(7).wrapping_add(t);
                let iu = i as u32;
                v = if (iu >> 3) & 1 == 1 {
                    (v ^ 0x9e37_79b9).rotate_left(5).wrapping_add(iu)
                } else {
                    v.wrapping_mul(3)
                };
                if iu % 8 == 7 {
                    v += 11;
                }
                assert_eq!(out[i], v, "item {i} local {l}");
                assert_eq!(f[i], x, "item {i} local {l}");
            }
        }
    }
}

/// SHA-512's shape: eight `ulong` state words and sixteen `ulong` message
/// words per work-item, rewritten every round (a round constant too); the
/// kernel suite's case, so the two tests run one kernel.
const SHA512_SHAPED: &str = include_str!("../../conformance/kernels/ulong_sha512_rounds.cl");

#[test]
fn sha512_shaped_kernels_run_four_items_per_step() {
    // Its hot values have no packed form (`ulong`, one per lane): four
    // work-items per step, eight only where asked for (CRANECL_LANES=8);
    // every width, and one work-item per step, gives the host's results,
    // in groups with a remainder and in groups of one work-item.
    let with = |step_lanes: Option<usize>, lanes: bool| {
        let cg = CodegenOptions {
            lanes,
            step_lanes,
            ..Default::default()
        };
        build_cg(SHA512_SHAPED, &cg)
    };
    let programs = [
        (with(None, true), 4),
        (with(Some(8), true), 8),
        (with(Some(4), true), 4),
        (with(None, false), 1),
    ];
    for (p, items) in &programs {
        let k = p.kernel_index("rounds").expect("kernel");
        let e = &p.explanations()[k];
        assert_eq!(p.items_per_step(k), *items, "{e}");
        if *items > 1 {
            assert!(p.groups_of_one_in_lanes(k), "{e}");
            assert_eq!(e.groups_of_one, Ok(*items), "{e}");
        }
    }
    // Checked mode keeps eight, whatever is asked (its reports name a
    // step's work-items so).
    let checked = CodegenOptions {
        step_lanes: Some(4),
        check: cranecl_jit::runtime::check::Checks::parse("races").expect("checks"),
        ..Default::default()
    };
    let p = build_cg(SHA512_SHAPED, &checked);
    let k = p.kernel_index("rounds").expect("kernel");
    assert_eq!(p.items_per_step(k), 8, "{}", p.explanations()[k]);
    let e = programs[0].0.explanations()[0].to_string();
    assert!(
        e.contains("; 4 work-items per step")
            && e.contains("not faster because 8 work-items per step: ")
            && e.contains("have no packed form"),
        "{e}"
    );
    let n = 45;
    let m: Vec<u64> = (0..16 * n as u64)
        .map(|j| j.wrapping_mul(0x2545f4914f6cdd1d) ^ (j << 40))
        .collect();
    let want: Vec<u64> = (0..n)
        .flat_map(|i| sha512::sha512_rounds(i as u64, &m[16 * i..16 * i + 16]))
        .collect();
    for (p, items) in &programs {
        for l in [1u64, 5, 13, 45] {
            let mut m2 = m.clone();
            let mut out = vec![0u64; 8 * n];
            run(
                p,
                "rounds",
                &mut [buf(&mut m2), buf(&mut out)],
                &[n as u64],
                &[l],
            );
            assert_eq!(out, want, "{items} per step, local {l}");
        }
    }
}

#[test]
fn packed_hot_values_keep_eight_items_per_step() {
    // The same rounds on `uint` words (MD5's and SHA-256's shape) are
    // packed: eight work-items per step, nothing said about four.
    let src = SHA512_SHAPED.replace("ulong", "uint").replace("UL", "u");
    let p = build(&src);
    let k = p.kernel_index("rounds").expect("kernel");
    let e = &p.explanations()[k];
    assert_eq!(p.items_per_step(k), 8, "{e}");
    assert!(!e.to_string().contains("no packed form"), "{e}");
}
