//! References for the vector kernels: every width, swizzles, comparisons,
//! vload/vstore, geometric functions, conversions and literals.

use super::{contracted32, RefFn, Want};

fn zip2<T: Copy>(a: &[T], b: &[T], f: impl Fn(T, T) -> T) -> Vec<T> {
    a.iter().zip(b).map(|(&x, &y)| f(x, y)).collect()
}

pub const REFS: &[(&str, RefFn)] = &[
    ("v_float2", |i| {
        let (a, b) = (i.f32("a"), i.f32("b"));
        Want::f32s(
            a.iter()
                .zip(&b)
                .enumerate()
                .map(|(k, (&a, &b))| contracted32(a, b, if k % 2 == 0 { 1.0 } else { 2.0 })),
        )
    }),
    ("v_float3", |i| {
        Want::f32s(zip2(&i.f32("a"), &i.f32("b"), |a, b| a + b * 2.0))
    }),
    ("v_float4", |i| {
        Want::f32s(zip2(&i.f32("a"), &i.f32("b"), |a, b| {
            contracted32(a, b, -a)
        }))
    }),
    ("vadd_f_c", |i| {
        Want::f32s(zip2(&i.f32("a"), &i.f32("b"), |a, b| a + b))
    }),
    ("v_float16", |i| {
        Want::f32s(zip2(&i.f32("a"), &i.f32("b"), |a, b| a * 2.0 + b))
    }),
    ("v_int2", |i| {
        let (a, b) = (i.i32("a"), i.i32("b"));
        Want::ints((0..256).flat_map(|k| {
            let j = 2 * k;
            [a[j] + b[j], a[j + 1] + b[j + 1], a[j] * 3, a[j + 1] * 3]
        }))
    }),
    ("v_int4_bits", |i| {
        let (a, b) = (i.i32("a"), i.i32("b"));
        Want::ints((0..256).flat_map(|k| {
            let r: Vec<i32> = (0..4)
                .map(|l| (a[4 * k + l] & b[4 * k + l]) | (a[4 * k + l] ^ 0x0f0f))
                .chain((0..4).map(|l| (!a[4 * k + l]).wrapping_add(b[4 * k + l] >> 3)))
                .collect();
            r
        }))
    }),
    ("v_int8", |i| {
        Want::ints(zip2(&i.i32("a"), &i.i32("b"), |a, b| (a - b) >> 1))
    }),
    ("v_int16", |i| {
        Want::ints(zip2(&i.i32("a"), &i.i32("b"), |a, b| a * b + 1))
    }),
    ("v_uchar16", |i| {
        Want::ints(zip2(&i.u8("a"), &i.u8("b"), |a, b| a.wrapping_add(b)))
    }),
    ("v_short8", |i| {
        Want::ints(zip2(&i.i16("a"), &i.i16("b"), |a, b| a.wrapping_mul(b)))
    }),
    ("v_long2", |i| {
        let (a, b) = (i.i64("a"), i.i64("b"));
        Want::ints((0..128).flat_map(|k| {
            let j = 2 * k;
            [
                a[j].wrapping_add(b[j]),
                a[j + 1].wrapping_add(b[j + 1]),
                a[j].wrapping_shl(3),
                a[j + 1].wrapping_shl(3),
            ]
        }))
    }),
    ("v_swizzle", |i| {
        Want::f32s(i.f32("a").chunks(4).flat_map(|v| {
            let first = [v[3] + v[0], v[2] + v[0], v[1] + v[1], v[0] + v[1]];
            // w.s01 = v.s23; w.hi = v.lo * 2; w.x += v.odd.y (= v.s3)
            let second = [v[2] + v[3], v[3], v[0] * 2.0, v[1] * 2.0];
            first.into_iter().chain(second)
        }))
    }),
    ("v_cmp_sel", |i| {
        let (a, b) = (i.i32("a"), i.i32("b"));
        Want::ints((0..256).flat_map(|k| {
            let m: Vec<i32> = (0..4)
                .map(|l| -((a[4 * k + l] < b[4 * k + l]) as i32))
                .collect();
            let s: Vec<i32> = (0..4)
                .map(|l| if m[l] < 0 { b[4 * k + l] } else { a[4 * k + l] })
                .collect();
            m.into_iter().chain(s)
        }))
    }),
    ("v_vload_off", |i| {
        let a = i.f32("a");
        let mut c = vec![0.0f32; 1030];
        for k in 0..1024 {
            c[k + 2] = a[k + 1] * 3.0;
        }
        Want::f32s(c)
    }),
    ("v_geometric", |i| {
        let a = i.f32("a");
        Want::f64s((0..256).flat_map(|k| {
            let v: Vec<f64> = a[4 * k..4 * k + 4].iter().map(|&x| x as f64).collect();
            let n = (k + 1) % 256;
            let w: Vec<f64> = a[4 * n..4 * n + 4].iter().map(|&x| x as f64).collect();
            let dot: f64 = v.iter().zip(&w).map(|(x, y)| x * y).sum();
            let len = v.iter().map(|x| x * x).sum::<f64>().sqrt();
            let dist = v
                .iter()
                .zip(&w)
                .map(|(x, y)| (x - y) * (x - y))
                .sum::<f64>()
                .sqrt();
            [dot, len, v[0] / len, dist]
        }))
    }),
    ("v_convert_as", |i| {
        Want::ints(i.f32("a").chunks(4).flat_map(|v| {
            let c: Vec<i32> = v.iter().map(|&x| x as i32).collect();
            let b: Vec<i32> = c.iter().map(|&x| (x as f32).to_bits() as i32).collect();
            c.into_iter().chain(b)
        }))
    }),
    ("float3_stride", |i| {
        Want::f32s(
            i.f32("a")
                .chunks(4)
                .flat_map(|v| [v[2] * 2.0 + 1.0, v[0] * 2.0, v[1] * 2.0 - 1.0, 0.0]),
        )
    }),
    ("int3_ops", |i| {
        Want::ints(
            i.i32("a")
                .chunks(4)
                .flat_map(|v| [v[0] * 2 - v[2], v[1] * 2 - v[0], v[2] * 2 - v[1], v[3]]),
        )
    }),
    ("char4_ops", |i| {
        Want::ints(i.i8("b").chunks(4).flat_map(|v| {
            (0..4)
                .map(|k| v[k].wrapping_add(v[3 - k]))
                .collect::<Vec<_>>()
        }))
    }),
    ("v_literals", |_| {
        let row = |i: usize| -> [f32; 8] {
            let i = i as f32;
            [1.0, 2.0, i, 5.0, 3.0, 4.0, i * 2.0, 5.0].map(|x| x + 5.0)
        };
        Want::f32s(
            (0..64)
                .flat_map(row)
                .chain((0..64).flat_map(|i| row(i).map(|x| x * 2.0))),
        )
    }),
];
