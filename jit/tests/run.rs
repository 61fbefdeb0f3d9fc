//! Kernels compiled through the front end and code generator and run
//! work-group by work-group, with their results checked on the host.

mod run_common;
use run_common::*;

#[test]
fn vector_add_runs() {
    let p = build(
        "kernel void add(global const float *a, global const float *b, global float *c) {
            size_t i = get_global_id(0);
            c[i] = a[i] + b[i];
        }",
    );
    let mut a: Vec<f32> = (0..100).map(|i| i as f32).collect();
    let mut b: Vec<f32> = (0..100).map(|i| (2 * i) as f32 + 0.5).collect();
    let mut c = vec![0f32; 100];
    run(
        &p,
        "add",
        &mut [buf(&mut a), buf(&mut b), buf(&mut c)],
        &[100],
        &[16],
    );
    for i in 0..100 {
        assert_eq!(c[i], a[i] + b[i], "c[{i}]");
    }
}
