//! Work-group collective functions (spec 6.15.16) under both barrier
//! strategies, with 1-D and 2-D groups and partial (non-uniform) groups,
//! checked against sequential references.

mod run_common;
use cranecl_jit::codegen::{self, CodegenOptions, CompiledProgram};
use cranecl_jit::options::BuildOptions;
use run_common::*;

/// `src` as OpenCL C 2.0 (collectives need no feature there), compiled
/// with barrier regions and with coroutines.
fn build_cl20_both(src: &str) -> Vec<CompiledProgram> {
    let opts = BuildOptions::parse("-cl-std=CL2.0").expect("options");
    let out = cranecl_jit::frontend::compile(src, "test.cl", &opts, &[]);
    let prog = out
        .program
        .unwrap_or_else(|| panic!("front end failed:\n{}", out.log));
    [true, false]
        .iter()
        .map(|&regions| {
            let cg = CodegenOptions {
                barrier_regions: regions,
                ..Default::default()
            };
            codegen::compile(&prog, &cg).unwrap_or_else(|e| panic!("codegen failed: {e}"))
        })
        .collect()
}

#[test]
fn reductions_scans_broadcast_all_any() {
    let src = "kernel void t(global const int *x, global const float *f, global int *o,
                             global float *of, global uint *ou) {
        size_t i = get_global_id(0);
        int v = x[i];
        int r = work_group_reduce_add(v);
        o[i * 8 + 0] = r;
        o[i * 8 + 1] = work_group_reduce_min(v);
        o[i * 8 + 2] = work_group_reduce_max(v);
        o[i * 8 + 3] = work_group_scan_inclusive_add(v);
        o[i * 8 + 4] = work_group_scan_exclusive_max(v);
        o[i * 8 + 5] = work_group_broadcast(v, 3);
        o[i * 8 + 6] = work_group_all(v > -1000);
        o[i * 8 + 7] = work_group_any(v == 7);
        of[i] = work_group_scan_exclusive_add(f[i]);
        ou[i] = work_group_reduce_max((uint)v);
    }";
    let n = 100usize;
    let local = 32usize; // the last group has 4 items
    for p in build_cl20_both(src) {
        let mut x: Vec<i32> = (0..n as i32).map(|i| (i * 37) % 23 - 11).collect();
        let mut f: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
        let mut o = vec![0i32; n * 8];
        let mut of = vec![0f32; n];
        let mut ou = vec![0u32; n];
        run(
            &p,
            "t",
            &mut [
                buf(&mut x),
                buf(&mut f),
                buf(&mut o),
                buf(&mut of),
                buf(&mut ou),
            ],
            &[n as u64],
            &[local as u64],
        );
        for g in 0..n.div_ceil(local) {
            let lo = g * local;
            let hi = (lo + local).min(n);
            let xs = &x[lo..hi];
            for (k, i) in (lo..hi).enumerate() {
                let want = [
                    xs.iter().sum::<i32>(),
                    *xs.iter().min().unwrap_or(&0),
                    *xs.iter().max().unwrap_or(&0),
                    xs[..=k].iter().sum(),
                    xs[..k].iter().copied().max().unwrap_or(i32::MIN),
                    xs.get(3).copied().unwrap_or(0),
                    1,
                    i32::from(xs.contains(&7)),
                ];
                if hi - lo <= 3 {
                    // broadcast from an item that does not exist: undefined
                    continue;
                }
                assert_eq!(&o[i * 8..i * 8 + 8], &want, "item {i}");
                let fs: f32 = f[lo..i].iter().sum();
                assert_eq!(of[i], fs, "float exclusive scan at {i}");
                assert_eq!(ou[i], xs.iter().map(|v| *v as u32).max().unwrap_or(0));
            }
        }
    }
}

#[test]
fn two_dimensional_broadcast_and_collectives_in_loops() {
    let src = "kernel void t(global long *o) {
        size_t lx = get_local_id(0), ly = get_local_id(1);
        long v = (long)(ly * 10 + lx);
        long acc = 0;
        for (int k = 0; k < 3; k++) {
            acc += work_group_reduce_add(v + k);
        }
        size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);
        o[i * 2] = acc;
        o[i * 2 + 1] = work_group_broadcast(v, 2, 1);
    }";
    for p in build_cl20_both(src) {
        let mut o = vec![0i64; 8 * 4 * 2];
        run(&p, "t", &mut [buf(&mut o)], &[8, 4], &[4, 2]);
        let base: i64 = (0..2).flat_map(|y| (0..4).map(move |x| y * 10 + x)).sum();
        let want_acc: i64 = (0..3).map(|k| base + 8 * k).sum();
        for i in 0..32 {
            assert_eq!(o[i * 2], want_acc, "sum at {i}");
            assert_eq!(o[i * 2 + 1], 12, "broadcast of item (2, 1)");
        }
    }
}

/// Every reduction, scan and broadcast for each type the spec lists (int,
/// uint, long, ulong, float, double; half is in `fp16.rs`), as OpenCL C 3.0
/// with the device's own features, against sequential references: the
/// exclusive scans start at the identity (0, the type's largest value for
/// min, its smallest for max; ±INFINITY for floating point).
macro_rules! collectives_of {
    ($test:ident, $t:ty, $cl:literal, $lo:expr, $hi:expr, $val:expr) => {
        #[test]
        fn $test() {
            let src = format!(
                "kernel void t(global const {0} *x, global {0} *o) {{
                    size_t i = get_global_id(0);
                    {0} v = x[i];
                    o[i * 10 + 0] = work_group_reduce_add(v);
                    o[i * 10 + 1] = work_group_reduce_min(v);
                    o[i * 10 + 2] = work_group_reduce_max(v);
                    o[i * 10 + 3] = work_group_scan_inclusive_add(v);
                    o[i * 10 + 4] = work_group_scan_inclusive_min(v);
                    o[i * 10 + 5] = work_group_scan_inclusive_max(v);
                    o[i * 10 + 6] = work_group_scan_exclusive_add(v);
                    o[i * 10 + 7] = work_group_scan_exclusive_min(v);
                    o[i * 10 + 8] = work_group_scan_exclusive_max(v);
                    o[i * 10 + 9] = work_group_broadcast(v, 5);
                }}",
                $cl
            );
            let names = [
                "reduce_add",
                "reduce_min",
                "reduce_max",
                "scan_inclusive_add",
                "scan_inclusive_min",
                "scan_inclusive_max",
                "scan_exclusive_add",
                "scan_exclusive_min",
                "scan_exclusive_max",
                "broadcast",
            ];
            let n = 48usize;
            let local = 16usize;
            let p = build(&src);
            let val: fn(usize) -> $t = $val;
            let mut x: Vec<$t> = (0..n).map(val).collect();
            let mut o: Vec<$t> = vec![val(1); n * 10];
            run(
                &p,
                "t",
                &mut [buf(&mut x), buf(&mut o)],
                &[n as u64],
                &[local as u64],
            );
            let min = |a: $t, b: $t| if b < a { b } else { a };
            let max = |a: $t, b: $t| if b > a { b } else { a };
            let zero = val(0) - val(0);
            for g in 0..n / local {
                let xs = &x[g * local..(g + 1) * local];
                let all_sum = xs.iter().fold(zero, |a, &b| a + b);
                for k in 0..local {
                    let (before, upto) = (&xs[..k], &xs[..=k]);
                    let want: [$t; 10] = [
                        all_sum,
                        xs.iter().copied().fold($hi, min),
                        xs.iter().copied().fold($lo, max),
                        upto.iter().fold(zero, |a, &b| a + b),
                        upto.iter().copied().fold($hi, min),
                        upto.iter().copied().fold($lo, max),
                        before.iter().fold(zero, |a, &b| a + b),
                        before.iter().copied().fold($hi, min),
                        before.iter().copied().fold($lo, max),
                        xs[5],
                    ];
                    let i = g * local + k;
                    for (j, w) in want.iter().enumerate() {
                        assert_eq!(
                            o[i * 10 + j],
                            *w,
                            "work_group_{}({}) at item {i}",
                            names[j],
                            $cl
                        );
                    }
                }
            }
        }
    };
}

collectives_of!(collectives_int, i32, "int", i32::MIN, i32::MAX, |i| (i
    as i32
    * 37)
    % 23
    - 11);
collectives_of!(collectives_uint, u32, "uint", 0, u32::MAX, |i| (i as u32
    * 37)
    % 23
    + 3_000_000);
collectives_of!(collectives_long, i64, "long", i64::MIN, i64::MAX, |i| ((i
    as i64
    * 37)
    % 23
    - 11)
    << 33);
collectives_of!(collectives_ulong, u64, "ulong", 0, u64::MAX, |i| ((i
    as u64
    * 37)
    % 23)
    << 35);
collectives_of!(
    collectives_float,
    f32,
    "float",
    f32::NEG_INFINITY,
    f32::INFINITY,
    |i| ((i * 37) % 23) as f32 - 11.5
);
collectives_of!(
    collectives_double,
    f64,
    "double",
    f64::NEG_INFINITY,
    f64::INFINITY,
    |i| ((i * 37) % 23) as f64 * 0.25 - 3.0
);
