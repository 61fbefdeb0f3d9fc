//! References for the numeric kernels: integer wraparound and shift
//! semantics, small integer types, integer built-ins, conversions, float
//! math and IEEE specials, doubles.

use super::sha512::sha512_rounds;
use super::{contracted64, RefFn, Want};

fn pairs<'a, T: Copy>(a: &'a [T], b: &'a [T]) -> impl Iterator<Item = (T, T)> + use<'a, T> {
    a.iter().copied().zip(b.iter().copied())
}

pub const REFS: &[(&str, RefFn)] = &[
    ("int_wrap", |i| {
        let (a, b) = (i.i32("a"), i.i32("b"));
        Want::ints(pairs(&a, &b).flat_map(|(a, b)| [a.wrapping_add(b), a.wrapping_mul(b)]))
    }),
    ("uint_sub", |i| {
        let (a, b) = (i.u32("a"), i.u32("b"));
        Want::ints(pairs(&a, &b).map(|(a, b)| a.wrapping_sub(b).wrapping_sub(7)))
    }),
    ("shifts32", |i| {
        let (a, s) = (i.i32("a"), i.u32("s"));
        Want::ints(a.iter().zip(&s).flat_map(|(&a, &s)| {
            [
                a.wrapping_shl(s),
                a.wrapping_shr(s),
                (a as u32).wrapping_shr(s) as i32,
            ]
        }))
    }),
    ("ulong_sha512_rounds", |i| {
        let m = i.u64("m");
        Want::ints((0..m.len() / 16).flat_map(|w| sha512_rounds(w as u64, &m[16 * w..16 * w + 16])))
    }),
    ("long_ops", |i| {
        let (a, b) = (i.i64("a"), i.i64("b"));
        Want::ints(pairs(&a, &b).flat_map(|(a, b)| {
            [
                a.wrapping_mul(b),
                a.wrapping_add(b),
                a.wrapping_shl((b & 255) as u32),
                (a as u64).wrapping_shr(b as u32) as i64,
            ]
        }))
    }),
    ("ulong_shifts", |i| {
        let (a, s) = (i.u64("a"), i.u32("s"));
        Want::ints(
            a.iter()
                .zip(&s)
                .flat_map(|(&a, &s)| [a.wrapping_shl(s), a.wrapping_shr(s)]),
        )
    }),
    ("small_ints", |i| {
        let (a, b, c) = (i.i8("a"), i.u8("b"), i.i16("c"));
        Want::ints((0..a.len()).flat_map(|k| {
            [
                (a[k] as i32 + b[k] as i8 as i32) as i8 as i32,
                (b[k] as u32 * 3) as u8 as i32,
                (c[k] as i32 * c[k] as i32) as i16 as i32,
            ]
        }))
    }),
    ("divmod_signs", |i| {
        let (a, b) = (i.i32("a"), i.i32("b"));
        Want::ints(pairs(&a, &b).flat_map(|(a, b)| [a / b, a % b]))
    }),
    ("int_builtins", |i| {
        let (a, b) = (i.i32("a"), i.i32("b"));
        Want::ints(pairs(&a, &b).flat_map(|(a, b)| {
            [
                ((a as i64 * b as i64) >> 32) as i32,
                (a as u32).rotate_left(b as u32 % 32) as i32,
                a.unsigned_abs() as i32,
                a.saturating_add(b),
                a.count_ones() as i32,
                a.leading_zeros() as i32,
            ]
        }))
    }),
    ("convert_sat", |i| {
        Want::ints(
            i.f32("f")
                .iter()
                .flat_map(|&f| [f as i32, f as u8 as i32, f.round_ties_even() as i8 as i32]),
        )
    }),
    ("itof_bits", |i| {
        Want::ints(
            i.i32("a")
                .iter()
                .flat_map(|&a| [(a as f32 * 0.5).to_bits(), (a as f32).to_bits()]),
        )
    }),
    ("math_basic", |i| {
        Want::f64s(i.f32("x").iter().flat_map(|&v| {
            let d = v as f64;
            [
                d.sqrt() as f32 as f64,
                (1.0 / d.sqrt()) as f32 as f64,
                ((v / 10.0) as f64).exp() as f32 as f64,
                d.ln() as f32 as f64,
            ]
        }))
    }),
    ("math_trig", |i| {
        Want::f64s(i.f32("x").iter().flat_map(|&v| {
            let d = v as f64;
            [
                d.sin() as f32 as f64,
                d.cos() as f32 as f64,
                ((v / 4.0) as f64).tan() as f32 as f64,
                ((v.abs() + 0.5) as f64).powf(1.7f32 as f64) as f32 as f64,
            ]
        }))
    }),
    ("rounding", |i| {
        Want::f32s(i.f32("x").iter().flat_map(|&v| {
            [
                v.floor(),
                v.ceil(),
                v.abs(),
                v.min(1.5),
                v.max(-1.5),
                v.mul_add(3.0, 0.25),
            ]
        }))
    }),
    ("ieee_specials", |_| {
        Want::f32s([
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            f32::NAN,
            f32::INFINITY,
            -0.0,
            -0.0,
            3.0 / 7.0,
        ])
    }),
    ("mix_step", |i| {
        let (a, b) = (i.f32("a"), i.f32("b"));
        Want::f32s(pairs(&a, &b).flat_map(|(a, b)| {
            [
                a + (b - a) * 0.25,
                if a < 0.0 { 0.0 } else { 1.0 },
                (a * 3.0).clamp(-1.0, 1.0),
            ]
        }))
    }),
    ("double_arith", |i| {
        let (a, b) = (i.f64("a"), i.f64("b"));
        Want::f64s(pairs(&a, &b).flat_map(|(a, b)| {
            [
                contracted64(b, 3.0, a),
                a / b,
                b.sqrt(),
                a.mul_add(b, 1e-10),
            ]
        }))
    }),
    ("double_to_float", |i| {
        Want::f32s(i.f64("a").iter().map(|&a| a as f32))
    }),
    ("double_to_long", |i| {
        Want::ints(i.f64("a").iter().map(|&a| (a * 1e6) as i64))
    }),
    ("double2_dot", |i| {
        Want::f64s(
            i.f64("a")
                .chunks(4)
                .flat_map(|c| [contracted64(c[0], c[2], c[1] * c[3]), c[0] - c[3]]),
        )
    }),
];
