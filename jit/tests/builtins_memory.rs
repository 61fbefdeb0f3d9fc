//! Built-ins that touch memory: vector loads and stores (with the half
//! forms and their rounding modes), atomics from many work-items, async
//! copies, the address-space functions; and the geometric functions and
//! `printf`'s formatting.

mod run_common;
use run_common::*;

/// Build as `build_full` does, with the atomics extensions advertised too
/// (whether or not `features.rs` lists them yet).
fn build_ext(src: &str) -> cranecl_jit::codegen::CompiledProgram {
    use cranecl_jit::{
        codegen, diag::Diagnostics, options::ClStd, parse, preprocess, sema, source::SourceMap,
    };
    let exts = [
        "cl_khr_global_int32_base_atomics",
        "cl_khr_global_int32_extended_atomics",
        "cl_khr_local_int32_base_atomics",
        "cl_khr_local_int32_extended_atomics",
        "cl_khr_int64_base_atomics",
        "cl_khr_int64_extended_atomics",
        "cl_khr_fp64",
    ];
    let std = ClStd::Cl30;
    let mut sm = SourceMap::new();
    let main = sm.add("test.cl", src);
    let mut diags = Diagnostics::new();
    let mut defines: Vec<(String, Option<String>)> = exts
        .iter()
        .map(|e| (e.to_string(), Some("1".into())))
        .collect();
    defines.push(("__opencl_c_fp64".into(), Some("1".into())));
    let pp = preprocess::PreprocessOptions {
        defines,
        include_dirs: vec![],
        embedded_headers: vec![],
        cl_std: std,
        fast_relaxed_math: false,
        single_precision_constant: false,
    };
    let tokens = preprocess::preprocess(&mut sm, main, &pp, &mut diags);
    let tu = parse::parse_with(
        &tokens,
        parse::ParseOptions {
            opencl_c_version: std.version(),
        },
        &mut diags,
    );
    let mut so = sema::SemaOptions::for_std(std);
    so.fp64 = true;
    so.program_scope_globals = true;
    so.generic_address_space = true;
    so.extensions.extend(exts.iter().map(|e| e.to_string()));
    let prog = sema::check(&tu, &so, &mut diags);
    assert!(
        !diags.has_errors(),
        "front end failed:\n{}",
        diags.render(&sm)
    );
    codegen::compile(&prog, &codegen::CodegenOptions::default())
        .unwrap_or_else(|e| panic!("codegen failed: {e}"))
}

#[test]
fn vload_vstore_every_width_and_space() {
    let p = build_full(
        "constant float ctab[8] = {1, 2, 3, 4, 5, 6, 7, 8};
        kernel void t(global const float *x, global float *o, global char *c) {
            local float l[16];
            float priv[16];
            for (int i = 0; i < 16; i++) { l[i] = 100 + i; priv[i] = 200 + i; }
            float2 a = vload2(1, x);        // x[2], x[3]
            float3 b = vload3(1, x + 1);    // x[4..6]: unaligned base
            float4 d = vload4(1, ctab);     // 5..8
            float8 e = vload8(1, l);        // 108..115
            float16 f = vload16(0, priv);
            vstore2(a, 0, o);
            vstore3(b, 1, o);               // o[3..5]
            vstore4(d, 0, o + 6);
            vstore8(e, 0, o + 10);
            vstore16(f, 1, o + 2);          // o[18..33]
            char3 cc = vload3(0, c + 1);
            vstore3(cc + (char3)(1), 1, c + 1); // c[4..6]
            float4 q = vload4(0, l + 1);
            vstore4(q, 0, priv + 3);
            o[34] = priv[3] + priv[6];
        }",
    );
    let mut x: Vec<f32> = (0..16).map(|i| i as f32).collect();
    let mut o = vec![0f32; 35];
    let mut c: Vec<i8> = (0..8).collect();
    run(
        &p,
        "t",
        &mut [buf(&mut x), buf(&mut o), buf(&mut c)],
        &[1],
        &[1],
    );
    assert_eq!(&o[0..2], &[2.0, 3.0]);
    assert_eq!(&o[3..6], &[4.0, 5.0, 6.0]);
    assert_eq!(&o[6..10], &[5.0, 6.0, 7.0, 8.0]);
    let e: Vec<f32> = (108..116).map(|v| v as f32).collect();
    assert_eq!(&o[10..18], &e[..]);
    let f: Vec<f32> = (200..216).map(|v| v as f32).collect();
    assert_eq!(&o[18..34], &f[..]);
    assert_eq!(&c[4..7], &[2, 3, 4]);
    assert_eq!(o[34], 101.0 + 104.0);
}

/// Every finite half value with its bits, ascending.
fn halves() -> Vec<(f64, u16)> {
    let mut v: Vec<(f64, u16)> = (0u16..0x7c00)
        .map(|h| {
            let e = (h >> 10) as i32;
            let m = f64::from(h & 0x3ff);
            let val = if e == 0 {
                m * 2f64.powi(-24)
            } else {
                (1.0 + m / 1024.0) * 2f64.powi(e - 15)
            };
            (val, h)
        })
        .collect();
    let neg: Vec<(f64, u16)> = v.iter().map(|(x, h)| (-x, h | 0x8000)).collect();
    v.extend(neg);
    v.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap_or(std::cmp::Ordering::Equal));
    v
}

/// The half `x` rounds to by `mode` (0 rte, 1 rtz, 2 rtp, 3 rtn), by search.
fn to_half_ref(x: f64, all: &[(f64, u16)], mode: u32) -> u16 {
    if x.is_nan() {
        return 0x7e00;
    }
    let max = 65504.0;
    let inf = |neg: bool| if neg { 0xfc00 } else { 0x7c00 };
    let maxh = |neg: bool| if neg { 0xfbff } else { 0x7bff };
    if x.is_infinite() {
        return inf(x < 0.0);
    }
    if x.abs() > max {
        let neg = x < 0.0;
        let to_inf = match mode {
            0 => x.abs() >= 65520.0,
            1 => false,
            2 => !neg,
            _ => neg,
        };
        return if to_inf { inf(neg) } else { maxh(neg) };
    }
    // Largest half <= x and smallest >= x.
    let i = all.partition_point(|(v, _)| *v <= x);
    let below = all[i - 1];
    if below.0 == x {
        // ±0: keep the sign of x.
        return if x == 0.0 && x.is_sign_negative() {
            0x8000
        } else if x == 0.0 {
            0
        } else {
            below.1
        };
    }
    let above = all[i];
    let pick_above = match mode {
        0 => {
            let d_lo = x - below.0;
            let d_hi = above.0 - x;
            d_hi < d_lo || (d_hi == d_lo && above.1 & 1 == 0)
        }
        1 => x < 0.0,
        2 => true,
        _ => false,
    };
    let h = if pick_above { above.1 } else { below.1 };
    // A zero result keeps the sign of x.
    if h & 0x7fff == 0 {
        if x < 0.0 {
            0x8000
        } else {
            0
        }
    } else {
        h
    }
}

/// The same half bits, or two NaNs (whose payloads may differ).
fn same_half(a: u16, b: u16) -> bool {
    let nan = |h: u16| h & 0x7c00 == 0x7c00 && h & 0x3ff != 0;
    a == b || (nan(a) && nan(b))
}

/// Each half's value, the midpoints between neighbouring halves (ties) and
/// the floats and doubles just off them, the extremes, and scattered float
/// bit patterns.
fn half_sweep(all: &[(f64, u16)]) -> Vec<f64> {
    let mut d: Vec<f64> = Vec::new();
    // (-0 and +0 are neighbours of the same value: no midpoint between them.)
    for w in all.windows(2).filter(|w| w[0].0 != w[1].0) {
        let (lo, hi) = (w[0].0, w[1].0);
        let mid = (lo + hi) / 2.0;
        let mid_f = f64::from(mid as f32);
        let up_f = f64::from(f32::from_bits((mid as f32).to_bits() + 1));
        let up_d = f64::from_bits(mid.abs().to_bits() + 1).copysign(mid);
        let down_d = f64::from_bits(mid.abs().to_bits() - 1).copysign(mid);
        d.extend([lo, mid, mid_f, up_f, up_d, down_d]);
    }
    d.extend([
        65504.0,
        65519.99,
        65520.0,
        65535.0,
        65536.0,
        1e10,
        1e300,
        f64::MAX,
    ]);
    d.extend([-65520.0, -1e300, 1e-300, -1e-300, 0.0, -0.0]);
    d.extend([f64::INFINITY, f64::NEG_INFINITY, f64::NAN]);
    // Hand-picked floats near rounding boundaries, and each as a double a
    // little off it (bits past float's precision decide the rounding).
    let picked: [f32; 18] = [
        1.0005,
        1.000_488_3,
        65519.0,
        1e6,
        -1e6,
        6e-8,
        3e-8,
        2.9802322e-8,
        -1e-9,
        0.1,
        -0.1,
        3.25159,
        f32::NAN,
        6.1035156e-5,
        6.097_555e-5,
        -2.5e-6,
        1234.567,
        1.0,
    ];
    for v in picked {
        d.extend([f64::from(v), f64::from(v) * (1.0 + 1e-12)]);
    }
    let mut s: u32 = 7;
    for _ in 0..20_000 {
        s = s.wrapping_mul(0x9e37_79b1).wrapping_add(0x7f4a_7c15);
        d.push(f64::from(f32::from_bits(s)));
    }
    d
}

/// The same sweep through `vstore_half`, `vstore_half_rte` and
/// `vload_half` at consecutive offsets: four work-items' halves in one
/// access and converted together in the lanes.
#[test]
fn consecutive_half_stores_and_loads_in_the_lanes_round_as_one_at_a_time() {
    let src = "kernel void t(global const float *x, global half *h0, global half *h1,
                             global float *back) {
            size_t i = get_global_id(0);
            vstore_half(x[i], i, h0);
            vstore_half_rte(x[i], i, h1);
            back[i] = vload_half(i, h0);
        }";
    let [fast, written] = rewritten_and_written(src);
    let k = fast.kernel_index("t").expect("kernel");
    assert!(fast.lanes(k), "t runs in the lanes");
    let per_lane: Vec<&String> = fast.explanations()[k]
        .notes
        .iter()
        .filter(|n| n.contains("_half"))
        .collect();
    assert!(
        per_lane.is_empty(),
        "no half access once per lane: {per_lane:?}"
    );
    let all = halves();
    let mut d = half_sweep(&all);
    let n = d.len().div_ceil(64) * 64;
    d.resize(n, 1.0);
    let mut x: Vec<f32> = d.iter().map(|v| *v as f32).collect();
    for p in [&fast, &written] {
        let mut h0 = vec![0u16; n];
        let mut h1 = vec![0u16; n];
        let mut back = vec![0f32; n];
        run(
            p,
            "t",
            &mut [buf(&mut x), buf(&mut h0), buf(&mut h1), buf(&mut back)],
            &[n as u64],
            &[64],
        );
        for i in 0..n {
            let v = f64::from(x[i]);
            let want = to_half_ref(v, &all, 0);
            for got in [h0[i], h1[i]] {
                assert!(
                    same_half(got, want),
                    "{v:e}: got {got:04x}, want {want:04x}"
                );
            }
            let hv = all
                .iter()
                .find(|(_, b)| *b == h0[i])
                .map(|(v, _)| *v as f32);
            match hv {
                Some(hv) => assert_eq!(
                    back[i].to_bits(),
                    hv.to_bits(),
                    "vload_half of {:04x}",
                    h0[i]
                ),
                None => assert!(
                    back[i].is_nan() || back[i].is_infinite(),
                    "vload_half of {:04x}",
                    h0[i]
                ),
            }
        }
    }
}

/// Every rounding mode of `vstore_half`, from float and from double, on
/// each half's value, the midpoints between neighbouring halves and their
/// neighbours (the ties and the values just off them, in float and in
/// double), and scattered float bit patterns; `vload_half` of each result.
#[test]
fn half_stores_round_by_every_mode_on_ties_and_neighbours() {
    let p = build_full(
        "kernel void t(global const float *x, global const double *d, global half *h,
                       global float *back) {
            size_t i = get_global_id(0);
            vstore_half(x[i], i * 8 + 0, h);
            vstore_half_rtz(x[i], i * 8 + 1, h);
            vstore_half_rtp(x[i], i * 8 + 2, h);
            vstore_half_rtn(x[i], i * 8 + 3, h);
            vstore_half_rte(d[i], i * 8 + 4, h);
            vstore_half_rtz(d[i], i * 8 + 5, h);
            vstore_half_rtp(d[i], i * 8 + 6, h);
            vstore_half_rtn(d[i], i * 8 + 7, h);
            back[i] = vload_half(i * 8 + 1, h);
        }",
    );
    let all = halves();
    let mut d = half_sweep(&all);
    let n = d.len().div_ceil(64) * 64;
    d.resize(n, 1.0);
    let mut x: Vec<f32> = d.iter().map(|v| *v as f32).collect();
    // In groups of 64, and in work-groups of one work-item (run in rows).
    for local in [64, 1] {
        let mut h = vec![0u16; n * 8];
        let mut back = vec![0f32; n];
        run(
            &p,
            "t",
            &mut [buf(&mut x), buf(&mut d), buf(&mut h), buf(&mut back)],
            &[n as u64],
            &[local],
        );
        for i in 0..n {
            let v = f64::from(x[i]);
            let want: Vec<u16> = (0..4)
                .map(|m| to_half_ref(v, &all, m))
                .chain((0..4).map(|m| to_half_ref(d[i], &all, m)))
                .collect();
            let got = &h[i * 8..i * 8 + 8];
            assert!(
                (0..8).all(|k| same_half(got[k], want[k])),
                "float {v:e} / double {:e}: got {got:04x?}, want {want:04x?}",
                d[i]
            );
            let hv = all
                .iter()
                .find(|(_, b)| *b == got[1])
                .map(|(v, _)| *v as f32);
            if let Some(hv) = hv {
                assert_eq!(
                    back[i].to_bits(),
                    hv.to_bits(),
                    "vload_half of {:04x}",
                    got[1]
                );
            }
        }
    }
}

#[test]
fn atomics_from_many_work_items() {
    let src = "kernel void t(global int *g, global uint *u, global float *f, global long *l) {
            local int hist[4];
            local int lcount;
            size_t i = get_global_id(0);
            int li = get_local_id(0);
            if (li < 4) hist[li] = 0;
            if (li == 0) lcount = 0;
            barrier(CLK_LOCAL_MEM_FENCE);
            atomic_add(&g[0], 1);
            atomic_sub(&g[1], 2);
            atomic_max(&g[2], (int)i);
            atomic_min(&g[3], -(int)i);
            atomic_inc(&u[0]);
            atomic_dec(&u[1]);
            atomic_or(&u[2], 1u << (i % 32));
            atomic_and(&u[3], ~(1u << (i % 16)));
            atomic_xor(&u[4], (uint)i);
            atomic_max(&u[5], (uint)i * 3u);
            atom_add(&g[4], 3);
            atomic_inc(&hist[i % 4]);
            int old;
            do { old = g[5]; } while (atomic_cmpxchg(&g[5], old, old + 2) != old);
            atomic_xchg(&f[0], 2.5f);
            atom_add(&l[0], 1L << 33);
            atom_max(&l[1], (long)i);
            barrier(CLK_LOCAL_MEM_FENCE);
            if (li < 4) atomic_add(&g[6 + li], hist[li]);
            int c = atomic_inc(&lcount);
            atomic_max(&g[10], c);
        }";
    let p = build_ext(src);
    let n = 256u64;
    let mut g = vec![0i32; 11];
    let mut u = vec![0u32; 6];
    u[1] = 1000;
    u[3] = 0xffff_ffff;
    let mut f = vec![0f32; 1];
    let mut l = vec![0i64; 2];
    run(
        &p,
        "t",
        &mut [buf(&mut g), buf(&mut u), buf(&mut f), buf(&mut l)],
        &[n],
        &[64],
    );
    assert_eq!(g[0], 256);
    assert_eq!(g[1], -512);
    assert_eq!(g[2], 255);
    assert_eq!(g[3], -255);
    assert_eq!(g[4], 768);
    assert_eq!(g[5], 512);
    assert_eq!(&g[6..10], &[64, 64, 64, 64]);
    assert_eq!(
        g[10], 63,
        "old values returned by atomic_inc on local memory"
    );
    assert_eq!(u[0], 256);
    assert_eq!(u[1], 1000 - 256);
    assert_eq!(u[2], u32::MAX);
    assert_eq!(u[3], 0xffff_0000);
    assert_eq!(u[4], (0..256u32).fold(0, |a, b| a ^ b));
    assert_eq!(u[5], 255 * 3);
    assert_eq!(f[0], 2.5);
    assert_eq!(l[0], 256 << 33);
    assert_eq!(l[1], 255);
}

#[test]
fn c11_atomics_and_flags() {
    let p = build_ext(
        "kernel void t(global atomic_int *a, global atomic_float *f, global int *o,
                       global atomic_flag *flag, global atomic_long *l) {
            size_t i = get_global_id(0);
            atomic_fetch_add(&a[0], 2);
            atomic_fetch_max_explicit(&a[1], (int)i, memory_order_relaxed);
            atomic_fetch_sub_explicit(&a[2], 1, memory_order_seq_cst, memory_scope_device);
            atomic_fetch_or(&a[3], 1 << (i % 8));
            int exp = atomic_load(&a[4]);
            while (!atomic_compare_exchange_weak(&a[4], &exp, exp + 1)) {}
            atomic_fetch_add(&l[0], 3L);
            if (i == 0) {
                atomic_store(&f[0], 1.5f);
                o[0] = (int)(atomic_load(&f[0]) * 2.0f);
                o[1] = (int)atomic_exchange(&f[0], 4.0f);
                o[2] = atomic_flag_test_and_set(&flag[0]);
                o[3] = atomic_flag_test_and_set(&flag[0]);
                atomic_flag_clear(&flag[0]);
                o[4] = atomic_flag_test_and_set_explicit(&flag[0], memory_order_acquire);
                int e2 = 12345;
                o[5] = atomic_compare_exchange_strong(&a[5], &e2, 7);
                o[6] = e2;
                atomic_init(&a[6], 99);
            }
        }",
    );
    let n = 100u64;
    let mut a = vec![0i32; 7];
    a[2] = 1000;
    a[5] = 5;
    let mut f = vec![0f32; 1];
    let mut o = vec![0i32; 7];
    let mut flag = vec![0i32; 1];
    let mut l = vec![0i64; 1];
    run(
        &p,
        "t",
        &mut [
            buf(&mut a),
            buf(&mut f),
            buf(&mut o),
            buf(&mut flag),
            buf(&mut l),
        ],
        &[n],
        &[10],
    );
    assert_eq!(&a[..5], &[200, 99, 900, 255, 100]);
    assert_eq!(a[5], 5, "failed compare-exchange leaves the object");
    assert_eq!(a[6], 99);
    assert_eq!(f[0], 4.0);
    assert_eq!(&o[..7], &[3, 1, 0, 1, 0, 0, 5]);
    assert_eq!(l[0], 300);
}

#[test]
fn async_copies_and_address_space_queries() {
    let p = build_full(
        "kernel void t(global const int *src, global int *dst, global int *q) {
            local int tile[64];
            local int col[16];
            int lid = get_local_id(0);
            size_t g = get_group_id(0);
            event_t e = async_work_group_copy(tile, src + g * 64, 64, 0);
            event_t e2 = async_work_group_strided_copy(col, src + g * 64, 16, 4, 0);
            wait_group_events(1, &e);
            wait_group_events(1, &e2);
            tile[lid] = tile[lid] * 2 + col[lid % 16];
            barrier(CLK_LOCAL_MEM_FENCE);
            event_t e3 = async_work_group_copy(dst + g * 64, tile, 64, 0);
            wait_group_events(1, &e3);
            prefetch(src, 64);
            if (g == 0 && lid == 0) {
                int p = 5;
                generic int *gp = &p;
                generic int *gl = tile;
                generic int *gg = dst;
                q[0] = to_private(gp) != 0; q[1] = to_local(gp) != 0; q[2] = to_global(gp) != 0;
                q[3] = to_private(gl) != 0; q[4] = to_local(gl) != 0; q[5] = to_global(gl) != 0;
                q[6] = to_private(gg) != 0; q[7] = to_local(gg) != 0; q[8] = to_global(gg) != 0;
                q[9] = get_fence(gl); q[10] = get_fence(gg);
                q[11] = *to_private(gp);
            }
        }",
    );
    let mut src: Vec<i32> = (0..256).collect();
    let mut dst = vec![0i32; 256];
    let mut q = vec![0i32; 12];
    run(
        &p,
        "t",
        &mut [buf(&mut src), buf(&mut dst), buf(&mut q)],
        &[256],
        &[64],
    );
    for i in 0..256 {
        let g = i / 64;
        let lid = i % 64;
        let col = src[g * 64 + (lid % 16) * 4];
        assert_eq!(dst[i], src[i] * 2 + col, "dst[{i}]");
    }
    assert_eq!(&q[..9], &[1, 0, 0, 0, 1, 0, 0, 0, 1]);
    assert_eq!(
        (q[9], q[10]),
        (1, 2),
        "CLK_LOCAL_MEM_FENCE, CLK_GLOBAL_MEM_FENCE"
    );
    assert_eq!(q[11], 5);
}

#[test]
fn geometric_functions() {
    let p = build_full(
        "kernel void t(global float *o, global float4 *v, global double *d) {
            float4 a = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
            float4 b = (float4)(-2.0f, 0.5f, 1.0f, 2.0f);
            o[0] = dot(a, b);
            o[1] = length(a);
            o[2] = distance(a, b);
            o[3] = length((float2)(3e30f, 4e30f));
            o[4] = length((float3)(3e-30f, 4e-30f, 0.0f));
            o[5] = dot(3.0f, 4.0f);
            o[6] = fast_length((float2)(6.0f, 8.0f));
            v[0] = normalize(a);
            v[1] = normalize((float4)(0.0f));
            v[2] = normalize((float4)(INFINITY, 1.0f, -INFINITY, 2.0f));
            v[3] = cross(a, b);
            float3 c = cross((float3)(1, 0, 0), (float3)(0, 1, 0));
            o[7] = c.z;
            d[0] = length((double3)(1e200, 1e200, 0.0));
            d[1] = dot((double2)(1.0, 2.0), (double2)(3.0, 4.0));
            double2 nd = normalize((double2)(3e-310, 4e-310));
            d[2] = nd.x; d[3] = nd.y;
        }",
    );
    let mut o = vec![0f32; 8];
    let mut v = vec![[0f32; 4]; 4];
    let mut d = vec![0f64; 4];
    run(
        &p,
        "t",
        &mut [buf(&mut o), buf(&mut v), buf(&mut d)],
        &[1],
        &[1],
    );
    assert_eq!(o[0], -2.0 + 1.0 + 3.0 + 8.0);
    assert_eq!(o[1], 30f32.sqrt());
    let dd = [3.0f32, 1.5, 2.0, 2.0];
    assert_eq!(o[2], (dd.iter().map(|x| x * x).sum::<f32>()).sqrt());
    assert_eq!(o[3], 5e30, "no overflow");
    assert_eq!(o[4], 5e-30, "no underflow");
    assert_eq!(o[5], 12.0);
    assert_eq!(o[6], 10.0);
    let len = 30f64.sqrt();
    for (k, got) in v[0].iter().enumerate() {
        let want = ((k + 1) as f64 / len) as f32;
        assert!(
            (got - want).abs() <= 2.0 * f32::EPSILON * want,
            "normalize lane {k}"
        );
    }
    assert_eq!(v[1], [0.0; 4], "normalize of zero");
    let s = std::f32::consts::FRAC_1_SQRT_2;
    assert_eq!(v[2], [s, 0.0, -s, 0.0]);
    assert_eq!(
        v[3],
        [
            2.0 * 1.0 - 3.0 * 0.5,
            3.0 * -2.0 - 1.0 * 1.0,
            1.0 * 0.5 - 2.0 * -2.0,
            0.0
        ]
    );
    assert_eq!(o[7], 1.0);
    assert!((d[0] / (2f64.sqrt() * 1e200) - 1.0).abs() < 1e-15);
    assert_eq!(d[1], 11.0);
    assert!((d[2] - 0.6).abs() < 1e-15 && (d[3] - 0.8).abs() < 1e-15);
}

#[test]
fn printf_formats_like_c99_with_vectors() {
    use cranecl_jit::builtins::printf::format;
    let f = |fmt: &str, slots: &[u64]| format(fmt.as_bytes(), slots);
    let d = |x: f64| x.to_bits();
    assert_eq!(
        f("%d %i|%5d|%-5d|%05d", &[(-3i64) as u64, 7, 42, 42, 42]).as_deref(),
        Some("-3 7|   42|42   |00042")
    );
    assert_eq!(
        f("%u %x %X %o %#x", &[(-1i64) as u64, 255, 255, 8, 255]).as_deref(),
        Some("4294967295 ff FF 10 0xff")
    );
    assert_eq!(
        f("%hhd %hu %ld", &[0x1ff, 0x12345, (-5i64) as u64]).as_deref(),
        Some("-1 9029 -5")
    );
    assert_eq!(
        f(
            "%f %.2f %e %G %a",
            &[d(1.5), d(3.25159), d(1234.5), d(1e-10), d(1.0)]
        )
        .as_deref(),
        Some("1.500000 3.25 1.234500e+03 1E-10 0x1p+0")
    );
    assert_eq!(
        f("%v4hlf", &[d(1.0), d(2.0), d(3.0), d(4.0)]).as_deref(),
        Some("1.000000,2.000000,3.000000,4.000000")
    );
    assert_eq!(
        f("%v2hd|%v3hhx", &[1, (-2i64) as u64, 10, 11, 255]).as_deref(),
        Some("1,-2|a,b,ff")
    );
    assert_eq!(f("100%% %c", &[b'x' as u64]).as_deref(), Some("100% x"));
    let s = b"hi\0";
    assert_eq!(
        f("[%s] [%4s]", &[s.as_ptr() as u64, s.as_ptr() as u64]).as_deref(),
        Some("[hi] [  hi]")
    );
    assert_eq!(f("%d %d", &[1]), None, "too few arguments");
    assert_eq!(f("%q", &[1]), None, "unknown conversion");
    assert_eq!(f("%hld", &[1]), None, "hl without a vector specifier");
}

#[test]
fn printf_returns_zero_or_minus_one() {
    let p = build_full(
        "kernel void t(global int *o) {
            o[0] = printf(\"builtins test: %d %s %v2hlf %5.1f\\n\", 42, \"ok\", (float2)(1.0f, 2.0f), 2.25);
            o[1] = printf(\"%d %d\\n\", 1);
        }",
    );
    let mut o = vec![7i32; 2];
    run(&p, "t", &mut [buf(&mut o)], &[1], &[1]);
    assert_eq!(o, [0, -1]);
}

#[test]
fn aligned_half_vectors_64_bit_cmpxchg_and_vector_async_copies() {
    let p = build_ext(
        "kernel void t(global half *h, global float *o, global long *l, global const float4 *src,
                       global float4 *dst) {
            local float4 tile[8];
            vstorea_half3((float3)(1.0f, 2.0f, 3.0f), 1, h);      // h[4..6]
            vstorea_half4_rtz((float4)(0.1f, 0.2f, 0.3f, 0.4f), 2, h);  // h[8..11]
            float3 a = vloada_half3(1, h);
            float4 b = vloada_half4(2, h);
            o[0] = a.x; o[1] = a.y; o[2] = a.z; o[3] = b.x; o[4] = b.w;
            float2 c = vload_half2(2, h);                         // h[4], h[5]
            o[5] = c.x; o[6] = c.y;
            if (get_local_id(0) == 0) {
                long old = atom_cmpxchg(&l[0], 5L, 1L << 40);
                long keep = atom_cmpxchg(&l[1], 7L, 9L);
                l[2] = old; l[3] = keep;
            }
            event_t e = async_work_group_copy(tile, src, 8, 0);
            wait_group_events(1, &e);
            tile[get_local_id(0)] *= 2.0f;
            barrier(CLK_LOCAL_MEM_FENCE);
            e = async_work_group_copy(dst, tile, 8, 0);
            wait_group_events(1, &e);
        }",
    );
    let mut h = vec![0u16; 12];
    let mut o = vec![0f32; 7];
    let mut l: Vec<i64> = vec![5, 6, 0, 0];
    let mut src: Vec<[f32; 4]> = (0..8).map(|i| [i as f32, 1.0, 2.0, -(i as f32)]).collect();
    let mut dst = vec![[0f32; 4]; 8];
    run(
        &p,
        "t",
        &mut [
            buf(&mut h),
            buf(&mut o),
            buf(&mut l),
            buf(&mut src),
            buf(&mut dst),
        ],
        &[8],
        &[8],
    );
    assert_eq!(
        &h[4..7],
        &[0x3c00, 0x4000, 0x4200],
        "vstorea_half3 steps by 4"
    );
    assert_eq!(&o[..3], &[1.0, 2.0, 3.0]);
    let all = halves();
    let rtz = |x: f32| to_half_ref(f64::from(x), &all, 1);
    assert_eq!(&h[8..12], &[rtz(0.1), rtz(0.2), rtz(0.3), rtz(0.4)]);
    let val = |bits: u16| all.iter().find(|(_, b)| *b == bits).map(|(v, _)| *v as f32);
    assert_eq!(Some(o[3]), val(h[8]));
    assert_eq!(Some(o[4]), val(h[11]));
    assert_eq!(
        (o[5], o[6]),
        (1.0, 2.0),
        "vload_half2 at offset 2 reads h[4], h[5]"
    );
    assert_eq!(&l[..], &[1 << 40, 6, 5, 6]);
    for i in 0..8 {
        assert_eq!(dst[i], src[i].map(|v| v * 2.0));
    }
}
