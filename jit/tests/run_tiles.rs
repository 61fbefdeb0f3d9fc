//! Register tiles and inlined calls (`codegen/tiles.rs`,
//! `codegen/hir_inline.rs`, the lanes' component writes): kernels written
//! as tuned libraries write them (CLBlast's GEMM: small private arrays
//! indexed in constant-trip loops, helpers that return vectors, a body
//! with barriers in a called function). Each kernel is checked for the
//! strategy and step it gets, and for its results against the host, with
//! the rewrites and with the program as written.

mod run_common;
use cranecl_jit::codegen::CompiledProgram;
use run_common::*;

/// The notes on `kernel`'s lines run once per lane or masked.
fn notes(p: &CompiledProgram, kernel: &str) -> Vec<String> {
    let k = p.kernel_index(kernel).expect("kernel");
    p.explanations()[k].notes.clone()
}

/// A 2×4 register tile per work-item, as CLBlast's `XgemmBody` keeps it:
/// `float4 cpm[2]`, `float a[4]`, filled, updated and stored in
/// constant-trip loops (one nested), an initialiser list.
const TILE: &str = "
    kernel void tile(global float4 *out, global const float *in) {
        size_t i = get_global_id(0);
        float a[4] = {1.0f, 2.0f};
        float4 cpm[2];
        for (int m = 0; m < 2; m++) {
            cpm[m] = (float4)(0.0f);
        }
        for (int k = 0; k < 4; k += 1) {
            a[k] += in[4 * i + k];
        }
        for (int n = 1; n >= 0; n--) {
            for (int k = 0; k <= 3; ++k) {
                cpm[n].x += a[k] * (float)(n + 1);
                cpm[n].y += a[(k + 1) % 4];
                cpm[n].zw += (float2)(a[3 - k], (float)k);
            }
        }
        for (uint n = 0; n != 2; n++) {
            out[2 * i + n] = cpm[n];
        }
    }";

fn tile_host(input: &[f32], i: usize) -> [f32; 8] {
    let mut a = [1.0f32, 2.0, 0.0, 0.0];
    for k in 0..4 {
        a[k] += input[4 * i + k];
    }
    let mut cpm = [[0f32; 4]; 2];
    for n in (0..2).rev() {
        for k in 0..4 {
            cpm[n][0] += a[k] * (n + 1) as f32;
            cpm[n][1] += a[(k + 1) % 4];
            cpm[n][2] += a[3 - k];
            cpm[n][3] += k as f32;
        }
    }
    let mut out = [0f32; 8];
    out[..4].copy_from_slice(&cpm[0]);
    out[4..].copy_from_slice(&cpm[1]);
    out
}

#[test]
fn register_tile_runs_in_the_lanes() {
    let [fast, written] = rewritten_and_written(TILE);
    let k = fast.kernel_index("tile").expect("kernel");
    // As written, the arrays would need a copy per work-item in memory.
    assert_eq!(fast.strategy(k), "lanes", "{:?}", fast.explanations()[k]);
    assert_eq!(notes(&fast, "tile"), Vec::<String>::new());
    for p in [&fast, &written] {
        for local in [1u64, 4, 6, 32] {
            let n = 96usize;
            let mut input: Vec<f32> = (0..4 * n).map(|x| (x % 13) as f32 - 6.0).collect();
            let mut out = vec![0f32; 8 * n];
            run(
                p,
                "tile",
                &mut [buf(&mut out), buf(&mut input)],
                &[n as u64],
                &[local],
            );
            for i in 0..n {
                assert_eq!(
                    out[8 * i..8 * i + 8],
                    tile_host(&input, i),
                    "item {i} local {local}"
                );
            }
        }
    }
}

#[test]
fn arrays_the_rewrite_must_leave_in_memory() {
    // A subscript not constant after unrolling (`j`), a loop left by
    // `break`, an element whose address is taken: every array stays in
    // memory and the results are those of the program as written.
    let src = "
        void twice(private float *p) { *p *= 2.0f; }
        kernel void k(global float *out, global const int *in) {
            size_t i = get_global_id(0);
            int j = in[i] & 3;
            float a[4], b[4], c[2];
            for (int k = 0; k < 4; k++) { a[k] = k + 1; b[k] = 10 * k; }
            for (int k = 0; k < 4; k++) { if (k == in[i] % 5) break; b[k] = -1.0f; }
            c[0] = 3.0f; c[1] = 4.0f;
            twice(&c[1]);
            out[i] = a[j] + b[0] + b[1] + b[2] + b[3] + c[0] + c[1];
        }";
    for p in rewritten_and_written(src) {
        let n = 40usize;
        let mut input: Vec<i32> = (0..n as i32).map(|x| x * 7 + 1).collect();
        let mut out = vec![0f32; n];
        run(
            &p,
            "k",
            &mut [buf(&mut out), buf(&mut input)],
            &[n as u64],
            &[8],
        );
        for i in 0..n {
            let j = (input[i] & 3) as usize;
            let mut b = [0.0f32, 10.0, 20.0, 30.0];
            for (k, bk) in b.iter_mut().enumerate() {
                if k as i32 == input[i] % 5 {
                    break;
                }
                *bk = -1.0;
            }
            let want = (j + 1) as f32 + b.iter().sum::<f32>() + 3.0 + 8.0;
            assert_eq!(out[i], want, "out[{i}] ({})", p.strategy(0));
        }
    }
}

/// A body with its barriers in a called function, called twice, whose
/// parameter it changes (a copy: the caller's variable keeps its value).
const BODY_IN_A_FUNCTION: &str = "
    void body(local int *t, global int *out, int x, int round) {
        int l = get_local_id(0);
        t[l] = x + round;
        x += 100;
        barrier(CLK_LOCAL_MEM_FENCE);
        out[get_global_id(0) * 2 + round] = t[get_local_size(0) - 1 - l] + x;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    kernel void k(global int *out) {
        local int t[64];
        int x = get_global_id(0);
        body(t, out, x, 0);
        body(t, out, x, 1);
        out[get_global_id(0) * 2] += x;
    }";

#[test]
fn barriers_in_a_called_function_run_as_regions() {
    let [fast, written] = rewritten_and_written(BODY_IN_A_FUNCTION);
    assert_eq!(fast.strategy(0), "regions", "{:?}", fast.explanations()[0]);
    assert_eq!(written.strategy(0), "coroutines");
    for p in [&fast, &written] {
        let (n, l) = (128usize, 16usize);
        let mut out = vec![0i32; 2 * n];
        run(p, "k", &mut [buf(&mut out)], &[n as u64], &[l as u64]);
        for i in 0..n {
            let mirror = (i / l * l + (l - 1 - i % l)) as i32;
            let i32_ = i as i32;
            assert_eq!(out[2 * i], mirror + i32_ + 100 + i32_, "out[{}]", 2 * i);
            assert_eq!(
                out[2 * i + 1],
                mirror + 1 + i32_ + 100,
                "out[{}]",
                2 * i + 1
            );
        }
    }
}

#[test]
fn a_barrier_function_with_an_early_return_stays_a_call() {
    // Inlining `return;` would end the kernel: the call stays, as
    // coroutines, and every work-item still writes.
    let src = "
        void sync(local int *t, int skip) {
            t[get_local_id(0)] = get_local_id(0);
            barrier(CLK_LOCAL_MEM_FENCE);
            if (skip) return;
            t[get_local_id(0)] += 1;
        }
        kernel void k(global int *out) {
            local int t[8];
            sync(t, 1);
            out[get_global_id(0)] = t[7 - get_local_id(0)] + 10;
        }";
    let [fast, _] = rewritten_and_written(src);
    assert_eq!(fast.strategy(0), "coroutines");
    let mut out = vec![0i32; 16];
    run(&fast, "k", &mut [buf(&mut out)], &[16], &[8]);
    for (i, v) in out.iter().enumerate() {
        assert_eq!(*v, 7 - (i % 8) as i32 + 10, "out[{i}]");
    }
}

#[test]
fn helpers_returning_vectors_run_packed_in_the_lanes() {
    // CLBlast's MultiplyAddVector: a helper that updates the components of
    // its (copied) float4 parameter and returns it; called for a value, in
    // a declaration, converted, and as a statement whose value is unused.
    let src = "
        float4 mad4(float4 c, const float4 a, const float b) {
            c.x += a.x * b;
            c.y += a.y * b;
            c.zw += a.zw * b;
            return c;
        }
        int twice(int v) { int t = v * 2; return t; }
        kernel void k(global float4 *out, global const float4 *in) {
            size_t i = get_global_id(0);
            float4 c = (float4)(1.0f);
            float4 a = in[i];
            c = mad4(c, a, 2.0f);
            float4 d = mad4(c, a, 0.5f);
            float s = twice(3);
            mad4(d, a, s);
            out[i] = d + (float4)(s) + c;
        }";
    let [fast, written] = rewritten_and_written(src);
    let k = fast.kernel_index("k").expect("kernel");
    assert_eq!(fast.strategy(k), "lanes");
    assert_eq!(notes(&fast, "k"), Vec::<String>::new());
    for p in [&fast, &written] {
        let n = 64usize;
        let mut input: Vec<[f32; 4]> = (0..n)
            .map(|i| [i as f32, 1.0 - i as f32, 0.25 * i as f32, 3.0])
            .collect();
        let mut out = vec![[0f32; 4]; n];
        run(
            p,
            "k",
            &mut [buf(&mut out), buf(&mut input)],
            &[n as u64],
            &[16],
        );
        for i in 0..n {
            let a = input[i];
            let c: [f32; 4] = std::array::from_fn(|j| 1.0 + a[j] * 2.0);
            let d: [f32; 4] = std::array::from_fn(|j| c[j] + a[j] * 0.5);
            let want: [f32; 4] = std::array::from_fn(|j| d[j] + 6.0 + c[j]);
            assert_eq!(out[i], want, "out[{i}]");
        }
    }
}
