//! cl_khr_integer_dot_product: `dot` and `dot_acc_sat` on `uchar4`/`char4`
//! in the four combinations of signedness, and the `_4x8packed_` forms on
//! the same bytes packed in a `uint`, built with the device's own extension
//! and feature list (OpenCL C 3.0 and 1.2), against Rust references;
//! components at 0, ±1, -128, 127 and 255, accumulators at the ends of
//! their range (saturation both ways).

mod run_common;
use run_common::*;

const NAMES: [&str; 16] = [
    "dot(uchar4, uchar4)",
    "dot(char4, char4)",
    "dot(uchar4, char4)",
    "dot(char4, uchar4)",
    "dot_acc_sat(uchar4, uchar4, uint)",
    "dot_acc_sat(char4, char4, int)",
    "dot_acc_sat(uchar4, char4, int)",
    "dot_acc_sat(char4, uchar4, int)",
    "dot_4x8packed_uu_uint",
    "dot_4x8packed_ss_int",
    "dot_4x8packed_us_int",
    "dot_4x8packed_su_int",
    "dot_acc_sat_4x8packed_uu_uint",
    "dot_acc_sat_4x8packed_ss_int",
    "dot_acc_sat_4x8packed_us_int",
    "dot_acc_sat_4x8packed_su_int",
];

const SRC: &str = "
kernel void t(global const uint *pa, global const uint *pb, global const int *acc, global int *o) {
    size_t i = get_global_id(0);
    uint a = pa[i], b = pb[i];
    int c = acc[i];
    uchar4 ua = as_uchar4(a), ub = as_uchar4(b);
    char4 sa = as_char4(a), sb = as_char4(b);
    global int *r = o + i * 16;
    r[0] = (int)dot(ua, ub);
    r[1] = dot(sa, sb);
    r[2] = dot(ua, sb);
    r[3] = dot(sa, ub);
    r[4] = (int)dot_acc_sat(ua, ub, (uint)c);
    r[5] = dot_acc_sat(sa, sb, c);
    r[6] = dot_acc_sat(ua, sb, c);
    r[7] = dot_acc_sat(sa, ub, c);
    r[8] = (int)dot_4x8packed_uu_uint(a, b);
    r[9] = dot_4x8packed_ss_int(a, b);
    r[10] = dot_4x8packed_us_int(a, b);
    r[11] = dot_4x8packed_su_int(a, b);
    r[12] = (int)dot_acc_sat_4x8packed_uu_uint(a, b, (uint)c);
    r[13] = dot_acc_sat_4x8packed_ss_int(a, b, c);
    r[14] = dot_acc_sat_4x8packed_us_int(a, b, c);
    r[15] = dot_acc_sat_4x8packed_su_int(a, b, c);
}";

/// The four components of `x` (component 0 in the low byte), signed or not.
fn comps(x: u32, signed: bool) -> [i64; 4] {
    x.to_le_bytes().map(|b| {
        if signed {
            i64::from(b as i8)
        } else {
            i64::from(b)
        }
    })
}

fn dot(a: u32, b: u32, sa: bool, sb: bool) -> i64 {
    comps(a, sa)
        .iter()
        .zip(comps(b, sb))
        .map(|(x, y)| x * y)
        .sum()
}

/// The 16 results as the kernel stores them (`int` bits).
fn reference(a: u32, b: u32, c: i32) -> [i32; 16] {
    let kinds = [(false, false), (true, true), (false, true), (true, false)];
    let mut r = [0i32; 16];
    for (k, &(sa, sb)) in kinds.iter().enumerate() {
        let d = dot(a, b, sa, sb);
        r[k] = d as i32;
        r[8 + k] = d as i32;
        let sat = if !sa && !sb {
            (d + i64::from(c as u32)).clamp(0, i64::from(u32::MAX)) as u32 as i32
        } else {
            (d + i64::from(c)).clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
        };
        r[4 + k] = sat;
        r[12 + k] = sat;
    }
    r
}

fn check(options: &str) {
    let p = build_with(SRC, options);
    let edges = [
        0u32,
        0xffff_ffff,
        0x8080_8080,
        0x7f7f_7f7f,
        0x0102_0304,
        0x80ff_7f01,
        1,
    ];
    let accs = [
        0i32,
        i32::MAX,
        i32::MIN,
        -1,
        i32::MAX - 1000,
        i32::MIN + 1000,
        -300_000,
        300_000,
    ];
    let mut pa = Vec::new();
    let mut pb = Vec::new();
    let mut acc = Vec::new();
    for (i, &a) in edges.iter().enumerate() {
        for (j, &b) in edges.iter().enumerate() {
            pa.push(a);
            pb.push(b);
            acc.push(accs[(i + j) % accs.len()]);
        }
    }
    let mut s: u64 = 12345;
    while pa.len() < 128 {
        s = s.wrapping_mul(6364136223846793005).wrapping_add(1);
        pa.push((s >> 32) as u32);
        pb.push(s as u32);
        acc.push(if s & 3 == 0 {
            accs[(s >> 8) as usize % accs.len()]
        } else {
            (s >> 16) as i32 >> 8
        });
    }
    let n = pa.len();
    let mut o = vec![0i32; n * 16];
    run(
        &p,
        "t",
        &mut [buf(&mut pa), buf(&mut pb), buf(&mut acc), buf(&mut o)],
        &[n as u64],
        &[16],
    );
    for i in 0..n {
        let want = reference(pa[i], pb[i], acc[i]);
        for (k, name) in NAMES.iter().enumerate() {
            assert_eq!(
                o[i * 16 + k],
                want[k],
                "{options}: {name} of a = {:#010x}, b = {:#010x}, acc = {}",
                pa[i],
                pb[i],
                acc[i]
            );
        }
    }
}

#[test]
fn every_dot_product_form() {
    check("-cl-std=CL3.0");
    check("-cl-std=CL1.2");
}

/// The extension's macro and its two feature macros are defined in every
/// version, and `dot` on other integer vectors is no overload.
#[test]
fn macros_and_overloads() {
    for std in ["-cl-std=CL1.2", "-cl-std=CL2.0", "-cl-std=CL3.0"] {
        build_with(
            "#if !defined(cl_khr_integer_dot_product) || !defined(__opencl_c_integer_dot_product_input_4x8bit) \\
                 || !defined(__opencl_c_integer_dot_product_input_4x8bit_packed)
             #error macros
             #endif
             kernel void t(global int *o) { o[0] = 1; }",
            std,
        );
    }
    let opts = cranecl_jit::options::BuildOptions::parse("-cl-std=CL3.0").expect("options");
    let out = cranecl_jit::frontend::compile(
        "kernel void t(global int4 *o) { o[0].x = dot(o[1], o[2]); }",
        "t.cl",
        &opts,
        &[],
    );
    assert!(!out.success, "dot(int4, int4) has no overload");
    assert!(out.log.contains("dot"), "{}", out.log);
}
