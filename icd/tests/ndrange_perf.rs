//! Launch cost (ignored timing tests; run with `cargo test --release -p
//! cranecl --test ndrange_perf -- --ignored --nocapture`): 10,000 tiny
//! launches, queued then finished, and each one waited for; and a launch of
//! many work-groups on the pool.

mod common;
mod program_common;

use common::*;
use program_common::*;
use std::time::Instant;

#[test]
#[ignore]
fn tiny_launches() {
    let ctx = context();
    let p = source(
        ctx,
        &["kernel void k(global int *p) { p[get_global_id(0)] += 1; }"],
    );
    assert_eq!(build(p, ""), CL_SUCCESS);
    let k = kernel(p, "k");
    let m = buffer(ctx, 64 * 4);
    write(ctx_queue(ctx), m, &[0i32; 64]);
    assert_eq!(set_mem_arg(k, 0, m), CL_SUCCESS);
    let q = queue(ctx, 0);
    let n = 10_000;
    for _ in 0..100 {
        assert_eq!(enqueue(q, k, &[1], None), CL_SUCCESS);
    }
    finish(q);
    let t = Instant::now();
    for _ in 0..n {
        assert_eq!(enqueue(q, k, &[1], None), CL_SUCCESS);
    }
    finish(q);
    let queued = t.elapsed().as_secs_f64() * 1e6 / n as f64;
    let t = Instant::now();
    for _ in 0..n {
        assert_eq!(enqueue(q, k, &[1], None), CL_SUCCESS);
        finish(q);
    }
    let waited = t.elapsed().as_secs_f64() * 1e6 / n as f64;
    let t = Instant::now();
    for _ in 0..1000 {
        assert_eq!(enqueue(q, k, &[64], Some(&[1])), CL_SUCCESS);
    }
    finish(q);
    let groups64 = t.elapsed().as_secs_f64() * 1e6 / 1000.0;
    let v: Vec<i32> = read(q, m, 64);
    assert_eq!(v[0], 100 + 2 * n + 1000);
    assert_eq!(v[1], 1000);
    println!("tiny launch: {queued:.2} us queued, {waited:.2} us enqueue+finish; 64 groups of 1: {groups64:.2} us");
    release_mem(m);
    release_kernel(k);
    release_queue(q);
    release_program(p);
    release_context(ctx);
}

fn ctx_queue(ctx: cl_context) -> cl_command_queue {
    queue(ctx, 0)
}

#[test]
#[ignore]
fn heavy_launch_uses_the_pool() {
    let ctx = context();
    let p = source(
        ctx,
        &["kernel void k(global float *p) {
        float x = p[get_global_id(0)];
        for (int i = 0; i < 2000; i++) x = x * 0.999f + 0.001f;
        p[get_global_id(0)] = x;
    }"],
    );
    assert_eq!(build(p, ""), CL_SUCCESS);
    let k = kernel(p, "k");
    let n = 1 << 16;
    let m = buffer(ctx, n * 4);
    let q = queue(ctx, 0);
    write(q, m, &vec![1.0f32; n]);
    assert_eq!(set_mem_arg(k, 0, m), CL_SUCCESS);
    assert_eq!(enqueue(q, k, &[n], Some(&[64])), CL_SUCCESS);
    finish(q);
    let t = Instant::now();
    for _ in 0..5 {
        assert_eq!(enqueue(q, k, &[n], Some(&[64])), CL_SUCCESS);
    }
    finish(q);
    let ms = t.elapsed().as_secs_f64() * 1e3 / 5.0;
    println!("65536 items x 2000 iterations: {ms:.2} ms per launch");
    release_queue(q);
    release_mem(m);
    release_kernel(k);
    release_program(p);
    release_context(ctx);
}

#[test]
#[ignore]
fn build_time() {
    let ctx = context();
    let src = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../conformance/kernels/sgemm_tiled.cl"
    ))
    .expect("the suite's tiled SGEMM");
    let mut best = f64::MAX;
    for _ in 0..10 {
        let p = source(ctx, &[&src]);
        let t = Instant::now();
        assert_eq!(build(p, ""), CL_SUCCESS);
        best = best.min(t.elapsed().as_secs_f64() * 1e3);
        release_program(p);
    }
    println!("build of the tiled SGEMM program: {best:.2} ms (best of 10)");
    release_context(ctx);
}
