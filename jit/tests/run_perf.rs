//! Rough single-thread timings of generated code (ignored by default; run
//! with `cargo test --release -p cranecl-jit --test run_perf -- --ignored --nocapture`).
//! They print figures and check results; they assert no speed.

mod run_common;
use run_common::*;
use std::time::Instant;

#[test]
#[ignore]
fn triad_timing() {
    let t0 = Instant::now();
    let p = build(
        "kernel void triad(global const float *a, global const float *b, global float *c, float s) {
            size_t i = get_global_id(0);
            c[i] = a[i] + s * b[i];
        }",
    );
    let build_ms = t0.elapsed().as_secs_f64() * 1e3;
    let n = 1 << 24;
    let mut a = vec![1.0f32; n];
    let mut b = vec![2.0f32; n];
    let mut c = vec![0.0f32; n];
    let t = Instant::now();
    run(
        &p,
        "triad",
        &mut [buf(&mut a), buf(&mut b), buf(&mut c), val(3.0f32)],
        &[n as u64],
        &[256],
    );
    let s = t.elapsed().as_secs_f64();
    assert!(c.iter().all(|&x| x == 7.0));
    println!(
        "triad: build {build_ms:.2} ms, {:.2} ns/item, {:.2} GB/s",
        s * 1e9 / n as f64,
        (12 * n) as f64 / s / 1e9
    );
}

#[test]
#[ignore]
fn mandelbrot_timing() {
    let p = build(
        "kernel void mandel(global uint *out, int w, int h, int maxit) {
            int x = get_global_id(0), y = get_global_id(1);
            float cr = -2.0f + 3.0f * x / w, ci = -1.5f + 3.0f * y / h;
            float zr = 0.0f, zi = 0.0f; int it = 0;
            while (it < maxit && zr * zr + zi * zi < 4.0f) {
                float t = zr * zr - zi * zi + cr; zi = 2.0f * zr * zi + ci; zr = t; it++;
            }
            out[y * w + x] = it;
        }",
    );
    let (w, h) = (512u64, 512u64);
    let mut out = vec![0u32; (w * h) as usize];
    let s = best_of(3, || {
        run(
            &p,
            "mandel",
            &mut [buf(&mut out), val(w as i32), val(h as i32), val(256i32)],
            &[w, h],
            &[16, 16],
        )
    });
    let iters: u64 = out.iter().map(|&x| x as u64).sum();
    println!(
        "mandelbrot 512²: {:.2} ms, {:.2} ns/iteration",
        s * 1e3,
        s * 1e9 / iters as f64
    );
}

#[test]
#[ignore]
fn sgemm_timing() {
    let p = build(
        "#define TS 16
        kernel void sgemm(global const float *A, global const float *B, global float *C, int N) {
            local float As[TS][TS], Bs[TS][TS];
            int lx = get_local_id(0), ly = get_local_id(1);
            int col = get_global_id(0), row = get_global_id(1);
            float acc = 0.0f;
            for (int t = 0; t < N / TS; t++) {
                As[ly][lx] = A[row * N + t * TS + lx];
                Bs[ly][lx] = B[(t * TS + ly) * N + col];
                barrier(CLK_LOCAL_MEM_FENCE);
                for (int k = 0; k < TS; k++) acc += As[ly][k] * Bs[k][lx];
                barrier(CLK_LOCAL_MEM_FENCE);
            }
            C[row * N + col] = acc;
        }",
    );
    let n = 256usize;
    let mut a: Vec<f32> = (0..n * n).map(|i| (i % 7) as f32).collect();
    let mut b: Vec<f32> = (0..n * n).map(|i| (i % 5) as f32).collect();
    let mut c = vec![0f32; n * n];
    let s = best_of(3, || {
        run(
            &p,
            "sgemm",
            &mut [buf(&mut a), buf(&mut b), buf(&mut c), val(n as i32)],
            &[n as u64, n as u64],
            &[16, 16],
        )
    });
    for (r, col) in [(0, 0), (17, 200), (255, 3)] {
        let want: f32 = (0..n).map(|k| a[r * n + k] * b[k * n + col]).sum();
        assert_eq!(c[r * n + col], want);
    }
    println!(
        "sgemm {n}³: {:.2} ms, {:.2} GFLOP/s",
        s * 1e3,
        2.0 * (n * n * n) as f64 / s / 1e9
    );
}

#[test]
#[ignore]
fn sgemm_naive_timing() {
    let p = build(
        "kernel void sgemm(global const float *A, global const float *B, global float *C, int N) {
            int col = get_global_id(0), row = get_global_id(1);
            float acc = 0.0f;
            for (int k = 0; k < N; k++) acc += A[row * N + k] * B[k * N + col];
            C[row * N + col] = acc;
        }",
    );
    let n = 256usize;
    let mut a: Vec<f32> = (0..n * n).map(|i| (i % 7) as f32).collect();
    let mut b: Vec<f32> = (0..n * n).map(|i| (i % 5) as f32).collect();
    let mut c = vec![0f32; n * n];
    let s = best_of(3, || {
        run(
            &p,
            "sgemm",
            &mut [buf(&mut a), buf(&mut b), buf(&mut c), val(n as i32)],
            &[n as u64, n as u64],
            &[16, 16],
        )
    });
    println!(
        "sgemm naive {n}³: {:.2} ms, {:.2} GFLOP/s",
        s * 1e3,
        2.0 * (n * n * n) as f64 / s / 1e9
    );
}

#[test]
#[ignore]
fn barrier_cost() {
    let p = build(
        "kernel void b(global int *o) {
            int x = get_local_id(0);
            for (int i = 0; i < 100; i++) { x += i; barrier(CLK_LOCAL_MEM_FENCE); }
            o[get_global_id(0)] = x;
        }",
    );
    for size in [16u64, 64, 256, 1024] {
        let groups = 16384 / size;
        let mut o = vec![0i32; (groups * size) as usize];
        let t = Instant::now();
        run(&p, "b", &mut [buf(&mut o)], &[groups * size], &[size]);
        let s = t.elapsed().as_secs_f64();
        println!(
            "barrier, groups of {size}: {:.2} ns per work-item per barrier",
            s * 1e9 / (groups * size * 100) as f64
        );
    }
}

/// CPU time of the calling thread, in seconds (steadier than wall time
/// when other processes share the cores).
fn thread_cpu_time() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec to write.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

/// Best of `reps` timings of `f` in thread CPU seconds (the first run also
/// touches every page, so the best run times the kernel, not page faults).
fn best_of(reps: usize, mut f: impl FnMut()) -> f64 {
    (0..reps)
        .map(|_| {
            let t = thread_cpu_time();
            f();
            thread_cpu_time() - t
        })
        .fold(f64::INFINITY, f64::min)
}

#[test]
#[ignore]
fn triad_warm_timing() {
    let p = build(
        "kernel void triad(global const float *a, global const float *b, global float *c, float s) {
            size_t i = get_global_id(0);
            c[i] = a[i] + s * b[i];
        }
        kernel void triad4(global const float4 *a, global const float4 *b, global float4 *c, float s) {
            size_t i = get_global_id(0);
            c[i] = a[i] + s * b[i];
        }",
    );
    let n = 1 << 24;
    let mut a = vec![1.0f32; n];
    let mut b = vec![2.0f32; n];
    let mut c = vec![5.0f32; n];
    // The same loop compiled by rustc: the machine's single-thread bandwidth.
    let s = best_of(3, || {
        for ((c, a), b) in c.iter_mut().zip(&a).zip(&b) {
            *c = *a + std::hint::black_box(3.0f32) * *b;
        }
    });
    println!(
        "triad (rustc, reference): {:.2} ns/float, {:.2} GB/s",
        s * 1e9 / n as f64,
        (12 * n) as f64 / s / 1e9
    );
    for (k, width) in [("triad", 1), ("triad4", 4)] {
        let items = (n / width) as u64;
        let s = best_of(3, || {
            run(
                &p,
                k,
                &mut [buf(&mut a), buf(&mut b), buf(&mut c), val(3.0f32)],
                &[items],
                &[256],
            )
        });
        assert!(c.iter().all(|&x| x == 7.0));
        println!(
            "{k} (warm): {:.2} ns/float, {:.2} GB/s",
            s * 1e9 / n as f64,
            (12 * n) as f64 / s / 1e9
        );
    }
}

#[test]
#[ignore]
fn reduction_timing() {
    let p = build(
        "kernel void reduce(global const float *in, global float *out, local float *s) {
            size_t l = get_local_id(0), n = get_local_size(0);
            s[l] = in[get_global_id(0)];
            barrier(CLK_LOCAL_MEM_FENCE);
            for (size_t h = n / 2; h > 0; h /= 2) {
                if (l < h) s[l] += s[l + h];
                barrier(CLK_LOCAL_MEM_FENCE);
            }
            if (l == 0) out[get_group_id(0)] = s[0];
        }",
    );
    let n = 1 << 22;
    let wg = 256;
    let mut a: Vec<f32> = (0..n).map(|i| (i % 3) as f32).collect();
    let mut o = vec![0f32; n / wg];
    let s = best_of(3, || {
        run(
            &p,
            "reduce",
            &mut [buf(&mut a), buf(&mut o), Arg::Local(4 * wg as u64)],
            &[n as u64],
            &[wg as u64],
        )
    });
    let want: f32 = (0..wg).map(|i| (i % 3) as f32).sum();
    assert_eq!(o[0], want);
    println!(
        "reduction {n} floats ({}): {:.2} ns/item",
        p.strategy(0),
        s * 1e9 / n as f64
    );
}

#[test]
#[ignore]
fn nbody_timing() {
    let p = build(
        "kernel void nbody(global const float4 *pos, global float4 *acc, int n, float eps) {
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
            acc[i] = a;
        }",
    );
    let n = 2048usize;
    let mut pos: Vec<f32> = (0..4 * n).map(|i| ((i * 37) % 101) as f32 * 0.01).collect();
    let mut acc = vec![0f32; 4 * n];
    let s = best_of(3, || {
        run(
            &p,
            "nbody",
            &mut [buf(&mut pos), buf(&mut acc), val(n as i32), val(0.01f32)],
            &[n as u64],
            &[64],
        )
    });
    assert!(acc.iter().all(|x| x.is_finite()));
    println!(
        "n-body {n}: {:.2} ms, {:.2} ns/interaction",
        s * 1e3,
        s * 1e9 / (n * n) as f64
    );
}

#[test]
#[ignore]
fn conv5x5_timing() {
    let p = build(
        "kernel void conv5x5(global const float *in, global float *out, constant float *filter) {
            int x = get_global_id(0);
            int y = get_global_id(1);
            int w = get_global_size(0);
            int h = get_global_size(1);
            float sum = 0.0f;
            for (int dy = -2; dy <= 2; dy++) {
                int yy = clamp(y + dy, 0, h - 1);
                for (int dx = -2; dx <= 2; dx++) {
                    int xx = clamp(x + dx, 0, w - 1);
                    sum += filter[(dy + 2) * 5 + (dx + 2)] * in[yy * w + xx];
                }
            }
            out[y * w + x] = sum;
        }",
    );
    let (w, h) = (1024usize, 1024usize);
    let mut img: Vec<f32> = (0..w * h).map(|i| (i % 7) as f32).collect();
    let mut out = vec![0f32; w * h];
    let mut filter = vec![1.0f32; 25];
    let s = best_of(3, || {
        run(
            &p,
            "conv5x5",
            &mut [buf(&mut img), buf(&mut out), buf(&mut filter)],
            &[w as u64, h as u64],
            &[16, 16],
        )
    });
    // An interior pixel sums its 5x5 neighbourhood.
    let (x, y) = (100, 100);
    let want: f32 = (0..25)
        .map(|k| img[(y + k / 5 - 2) * w + (x + k % 5 - 2)])
        .sum();
    assert_eq!(out[y * w + x], want);
    println!("conv5x5 {w}x{h}: {:.2} ns/item", s * 1e9 / (w * h) as f64);
}
