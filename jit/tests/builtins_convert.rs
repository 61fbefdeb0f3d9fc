//! Conversions (`convert_<type>[_sat][_<rounding>]`, `as_<type>`),
//! `shuffle`/`shuffle2` and the relational built-ins, checked against Rust
//! references over edge values (NaN, ±inf, ±0, out-of-range values,
//! halfway cases).

mod run_common;
use run_common::*;

fn floats() -> Vec<f32> {
    let mut v = vec![
        0.0,
        -0.0,
        0.5,
        -0.5,
        1.5,
        2.5,
        -2.5,
        0.49999997,
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        2147483520.0,
        2147483648.0,
        -2147483904.0,
        4294967296.0,
        1e20,
        -1e20,
        127.5,
        128.0,
        -128.5,
        -129.0,
        255.5,
        256.0,
        65535.4,
        -1.0,
        1e-30,
    ];
    let mut s: u32 = 7;
    while v.len() < 256 {
        s = s.wrapping_mul(1664525).wrapping_add(1013904223);
        v.push((s as i32 as f32) / 65536.0 * if s & 1 == 0 { 1.0 } else { 300.0 });
    }
    v
}

#[test]
fn float_to_integer_with_saturation_and_rounding() {
    let p = build_full(
        "kernel void t(global const float *x, global int *o, global uchar *u, global char *c,
                       global ulong *ul) {
            size_t i = get_global_id(0);
            float a = x[i];
            o[i * 5 + 0] = convert_int_sat(a);
            o[i * 5 + 1] = convert_int_sat_rte(a);
            o[i * 5 + 2] = convert_int_sat_rtp(a);
            o[i * 5 + 3] = convert_int_sat_rtn(a);
            o[i * 5 + 4] = (int)convert_ushort_sat(a);
            u[i] = convert_uchar_sat_rte(a);
            c[i] = convert_char_sat(a);
            ul[i] = convert_ulong_sat(a);
        }",
    );
    let mut x = floats();
    let n = x.len();
    let mut o = vec![0i32; n * 5];
    let mut u = vec![0u8; n];
    let mut c = vec![0i8; n];
    let mut ul = vec![0u64; n];
    run(
        &p,
        "t",
        &mut [
            buf(&mut x),
            buf(&mut o),
            buf(&mut u),
            buf(&mut c),
            buf(&mut ul),
        ],
        &[n as u64],
        &[1],
    );
    for i in 0..n {
        let a = x[i];
        // Rust's `as` saturates and maps NaN to 0: OpenCL's _sat rules.
        let want = [
            a as i32,
            a.round_ties_even() as i32,
            a.ceil() as i32,
            a.floor() as i32,
            i32::from(a as u16),
        ];
        assert_eq!(&o[i * 5..i * 5 + 5], &want, "int conversions of {a:e}");
        assert_eq!(
            u[i],
            a.round_ties_even() as u8,
            "convert_uchar_sat_rte({a:e})"
        );
        assert_eq!(c[i], a as i8, "convert_char_sat({a:e})");
        assert_eq!(ul[i], a as u64, "convert_ulong_sat({a:e})");
    }
}

#[test]
fn integer_saturation_between_every_pair_of_widths() {
    let p = build_full(
        "kernel void t(global const long *x, global long *o) {
            size_t i = get_global_id(0);
            long a = x[i];
            int ia = (int)a; uint ua = (uint)a; ulong ula = (ulong)a; short sa = (short)a;
            o[i * 9 + 0] = convert_char_sat(a);
            o[i * 9 + 1] = convert_uchar_sat(a);
            o[i * 9 + 2] = convert_ushort_sat(ia);
            o[i * 9 + 3] = convert_int_sat(ua);
            o[i * 9 + 4] = convert_uint_sat(ia);
            o[i * 9 + 5] = convert_long_sat(ula);
            o[i * 9 + 6] = (long)convert_ulong_sat(a);
            o[i * 9 + 7] = convert_uint_sat(ula);
            o[i * 9 + 8] = convert_uchar_sat(sa);
        }",
    );
    let mut x: Vec<i64> = vec![
        0,
        1,
        -1,
        127,
        128,
        -128,
        -129,
        255,
        256,
        65535,
        65536,
        i32::MAX as i64,
        i32::MIN as i64,
        u32::MAX as i64,
        i64::MAX,
        i64::MIN,
        -300,
        1 << 40,
    ];
    let n = x.len();
    let mut o = vec![0i64; n * 9];
    run(&p, "t", &mut [buf(&mut x), buf(&mut o)], &[n as u64], &[1]);
    let sat = |v: i128, lo: i128, hi: i128| v.clamp(lo, hi) as i64;
    for i in 0..n {
        let a = x[i];
        let ia = a as i32;
        let ua = a as u32;
        let ula = a as u64;
        let sa = a as i16;
        let want = [
            sat(a.into(), -128, 127),
            sat(a.into(), 0, 255),
            sat(ia.into(), 0, 65535),
            sat(ua.into(), i32::MIN.into(), i32::MAX.into()),
            sat(ia.into(), 0, u32::MAX.into()),
            sat(ula.into(), i64::MIN.into(), i64::MAX.into()),
            sat(a.into(), 0, u64::MAX.into()),
            sat(ula.into(), 0, u32::MAX.into()),
            sat(sa.into(), 0, 255),
        ];
        assert_eq!(&o[i * 9..i * 9 + 9], &want, "saturating conversions of {a}");
    }
}

/// The float nearest to `v` in the direction `mode` (0 rte, 1 rtz, 2 rtp, 3 rtn).
fn round_to_f32(v: i128, mode: u32) -> f32 {
    let r = v as f32; // nearest
    let exact = r as i128;
    let (down, up) = if exact > v {
        (libm::nextafterf(r, f32::NEG_INFINITY), r)
    } else if exact < v {
        (r, libm::nextafterf(r, f32::INFINITY))
    } else {
        return r;
    };
    match mode {
        0 => r,
        1 if v > 0 => down,
        1 => up,
        2 => up,
        _ => down,
    }
}

#[test]
fn integer_and_double_to_float_with_rounding_modes() {
    let p = build_full(
        "kernel void t(global const long *x, global const double *d, global float *o) {
            size_t i = get_global_id(0);
            long a = x[i]; int ia = (int)a; uint ua = (uint)a; ulong ula = (ulong)a;
            o[i * 12 + 0] = convert_float(a);
            o[i * 12 + 1] = convert_float_rtz(a);
            o[i * 12 + 2] = convert_float_rtp(a);
            o[i * 12 + 3] = convert_float_rtn(a);
            o[i * 12 + 4] = convert_float_rtz(ia);
            o[i * 12 + 5] = convert_float_rtp(ia);
            o[i * 12 + 6] = convert_float_rtn(ua);
            o[i * 12 + 7] = convert_float_rtp(ula);
            o[i * 12 + 8] = convert_float_rtz(d[i]);
            o[i * 12 + 9] = convert_float_rtp(d[i]);
            o[i * 12 + 10] = convert_float_rtn(d[i]);
            o[i * 12 + 11] = convert_float_rte(d[i]);
        }",
    );
    let mut x: Vec<i64> = vec![
        0,
        1,
        -1,
        16777217,
        -16777217,
        i32::MAX as i64,
        i32::MIN as i64,
        i64::MAX,
        i64::MIN,
        0x1234_5678_9abc_def1,
        -0x1234_5678_9abc_def1,
        33554435,
    ];
    let mut d: Vec<f64> = vec![
        0.1,
        -0.1,
        1.0,
        1e300,
        -1e300,
        f64::NAN,
        f64::INFINITY,
        1e-50,
        -1e-50,
        1.0 + 1e-12,
        -3.000000001,
        16777217.0,
    ];
    let n = x.len();
    let mut o = vec![0f32; n * 12];
    run(
        &p,
        "t",
        &mut [buf(&mut x), buf(&mut d), buf(&mut o)],
        &[n as u64],
        &[1],
    );
    for i in 0..n {
        let a = x[i];
        let ia = a as i32;
        let ua = a as u32;
        let ula = a as u64;
        let want_i = [
            round_to_f32(a.into(), 0),
            round_to_f32(a.into(), 1),
            round_to_f32(a.into(), 2),
            round_to_f32(a.into(), 3),
            round_to_f32(ia.into(), 1),
            round_to_f32(ia.into(), 2),
            round_to_f32(ua.into(), 3),
            round_to_f32(ula.into(), 2),
        ];
        assert_eq!(
            &o[i * 12..i * 12 + 8],
            &want_i,
            "integer conversions of {a}"
        );
        let v = d[i];
        let r = v as f32;
        let directed = |mode: u32| -> f32 {
            if !v.is_finite() || f64::from(r) == v {
                return r;
            }
            let (down, up) = if f64::from(r) > v {
                (libm::nextafterf(r, f32::NEG_INFINITY), r)
            } else {
                (r, libm::nextafterf(r, f32::INFINITY))
            };
            match mode {
                1 if v > 0.0 => down,
                1 => up,
                2 => up,
                _ => down,
            }
        };
        let got = &o[i * 12 + 8..i * 12 + 12];
        let want = [directed(1), directed(2), directed(3), r];
        for k in 0..4 {
            assert!(
                got[k] == want[k] || (got[k].is_nan() && want[k].is_nan()),
                "double {v:e} mode {k}: got {:?}, want {:?}",
                got,
                want
            );
        }
    }
}

#[test]
fn reinterpretation_and_shuffles() {
    let p = build_full(
        "kernel void t(global int *o, global float *f, global const uint *m) {
            o[0] = as_int(1.0f);
            float4 v = as_float4((int4)(0x3f800000, 0x40000000, 0xbf800000, 0));
            f[0] = v.x; f[1] = v.y; f[2] = v.z; f[3] = v.w;
            uchar4 b = as_uchar4(0x01020304);
            o[1] = b.x; o[2] = b.w;
            long l = as_long((int2)(1, 2));
            o[3] = (int)(l >> 32);
            int4 s = shuffle((int4)(10, 20, 30, 40), (uint4)(3, 2, 1, 0));
            o[4] = s.x; o[5] = s.w;
            int8 s2 = shuffle2((int4)(1, 2, 3, 4), (int4)(5, 6, 7, 8), (uint8)(7, 0, 6, 1, 5, 2, 4, 3));
            o[6] = s2.s0; o[7] = s2.s1; o[8] = s2.s2; o[9] = s2.s7;
            uint4 mask = vload4(0, m);
            int4 s3 = shuffle((int4)(10, 20, 30, 40), mask);
            o[10] = s3.x; o[11] = s3.y; o[12] = s3.z; o[13] = s3.w;
            int2 s4 = shuffle((int4)(10, 20, 30, 40), (uint2)(5, 2));
            o[14] = s4.x; o[15] = s4.y;
            int3 i3 = as_int3((float3)(1.0f, 2.0f, 3.0f));
            o[16] = i3.z;
        }",
    );
    let mut o = vec![0i32; 17];
    let mut f = vec![0f32; 4];
    let mut m: Vec<u32> = vec![1, 3, 0, 6];
    run(
        &p,
        "t",
        &mut [buf(&mut o), buf(&mut f), buf(&mut m)],
        &[1],
        &[1],
    );
    assert_eq!(o[0], 1.0f32.to_bits() as i32);
    assert_eq!(f, [1.0, 2.0, -1.0, 0.0]);
    assert_eq!((o[1], o[2]), (4, 1), "little-endian bytes");
    assert_eq!(o[3], 2);
    assert_eq!((o[4], o[5]), (40, 10));
    assert_eq!(&o[6..10], &[8, 1, 7, 4]);
    assert_eq!(&o[10..14], &[20, 40, 10, 30], "variable mask (6 & 3 = 2)");
    assert_eq!(
        (o[14], o[15]),
        (20, 30),
        "mask bits beyond the width ignored"
    );
    assert_eq!(o[16], 3.0f32.to_bits() as i32);
}

#[test]
fn relational_functions() {
    let p = build_full(
        "kernel void t(global int *o, global int4 *v, global float4 *f) {
            float n = NAN;
            o[0] = isequal(1.0f, 1.0f); o[1] = isequal(n, n); o[2] = isnotequal(n, n);
            o[3] = isgreater(2.0f, 1.0f); o[4] = islessgreater(n, 1.0f);
            o[5] = isordered(n, 1.0f); o[6] = isunordered(n, 1.0f);
            o[7] = isnan(n); o[8] = isinf(-INFINITY); o[9] = isfinite(INFINITY);
            o[10] = isnormal(1e-40f); o[11] = isnormal(1.0f); o[12] = signbit(-0.0f);
            o[13] = any((int4)(0, 0, -1, 0)); o[14] = all((int4)(-1, -1, 5, -1));
            o[15] = select(1, 2, 0); o[16] = select(1, 2, 7);
            o[17] = bitselect(0x0f0f, 0x7070, 0x00ff);
            float4 a = (float4)(1.0f, n, -INFINITY, 0.0f);
            v[0] = isnan(a);
            v[1] = isless(a, (float4)(2.0f));
            v[2] = signbit((float4)(-1.0f, 1.0f, -0.0f, 0.0f));
            v[3] = select((int4)(1, 2, 3, 4), (int4)(5, 6, 7, 8), (int4)(-1, 0, INT_MIN, 1));
            f[0] = select((float4)(1.0f), (float4)(2.0f), (uint4)(0x80000000u, 0, 0xffffffffu, 1));
            o[18] = any((short2)(1, 2)); o[19] = all((char)-3);
            long2 lc = isequal((double2)(1.0, 2.0), (double2)(1.0, 3.0)) ;
            o[20] = (int)lc.x; o[21] = (int)lc.y;
        }",
    );
    let mut o = vec![0i32; 22];
    let mut v = vec![[0i32; 4]; 4];
    let mut f = vec![[0f32; 4]; 1];
    run(
        &p,
        "t",
        &mut [buf(&mut o), buf(&mut v), buf(&mut f)],
        &[1],
        &[1],
    );
    let bitsel = (0x0f0f & !0x00ff) | (0x7070 & 0x00ff);
    assert_eq!(
        &o[..18],
        &[1, 0, 1, 1, 0, 0, 1, 1, 1, 0, 0, 1, 1, 1, 0, 1, 2, bitsel]
    );
    assert_eq!(v[0], [0, -1, 0, 0]);
    assert_eq!(v[1], [-1, 0, -1, -1]);
    assert_eq!(v[2], [-1, 0, -1, 0]);
    assert_eq!(v[3], [5, 2, 7, 4]);
    assert_eq!(f[0], [2.0, 1.0, 2.0, 1.0]);
    assert_eq!((o[18], o[19]), (0, 1));
    assert_eq!((o[20], o[21]), (-1, 0));
}

/// The double nearest to `v` in the direction `mode` (0 rte, 1 rtz, 2 rtp, 3 rtn).
fn round_to_f64(v: i128, mode: u32) -> f64 {
    let r = v as f64;
    let exact = r as i128;
    let (down, up) = if exact > v {
        (libm::nextafter(r, f64::NEG_INFINITY), r)
    } else if exact < v {
        (r, libm::nextafter(r, f64::INFINITY))
    } else {
        return r;
    };
    match mode {
        0 => r,
        1 if v > 0 => down,
        1 => up,
        2 => up,
        _ => down,
    }
}

#[test]
fn long_to_double_with_rounding_modes_and_vectors() {
    let p = build_full(
        "kernel void t(global const long *x, global double *o, global float4 *v) {
            size_t i = get_global_id(0);
            long a = x[i];
            o[i * 5 + 0] = convert_double(a);
            o[i * 5 + 1] = convert_double_rtz(a);
            o[i * 5 + 2] = convert_double_rtp(a);
            o[i * 5 + 3] = convert_double_rtn((ulong)a);
            o[i * 5 + 4] = convert_double_rtz((int)a);
            if (i == 0) {
                v[0] = convert_float4(convert_int4_sat_rte((float4)(0.5f, 1.5f, -2.5f, 1e10f)));
                v[1] = convert_float4_rtp((long4)(16777217, -16777217, 1, 0));
            }
        }",
    );
    let mut x: Vec<i64> = vec![
        0,
        1,
        -1,
        (1 << 53) + 1,
        -(1 << 53) - 1,
        i64::MAX,
        i64::MIN,
        0x1234_5678_9abc_def1,
        -0x1234_5678_9abc_def1,
    ];
    let n = x.len();
    let mut o = vec![0f64; n * 5];
    let mut v = vec![[0f32; 4]; 2];
    run(
        &p,
        "t",
        &mut [buf(&mut x), buf(&mut o), buf(&mut v)],
        &[n as u64],
        &[1],
    );
    for i in 0..n {
        let a = x[i];
        let want = [
            round_to_f64(a.into(), 0),
            round_to_f64(a.into(), 1),
            round_to_f64(a.into(), 2),
            round_to_f64((a as u64).into(), 3),
            f64::from(a as i32),
        ];
        assert_eq!(&o[i * 5..i * 5 + 5], &want, "conversions of {a}");
    }
    assert_eq!(v[0], [0.0, 2.0, -2.0, i32::MAX as f32]);
    assert_eq!(
        v[1],
        [
            round_to_f32(16777217, 2),
            round_to_f32(-16777217, 2),
            1.0,
            0.0
        ]
    );
}
