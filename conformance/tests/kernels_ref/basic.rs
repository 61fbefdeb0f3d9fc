//! References for the basic kernels: element-wise arithmetic, indexing,
//! control flow, structs, private arrays, the preprocessor.

use super::{contracted32, Inputs, RefFn, Want};

pub const REFS: &[(&str, RefFn)] = &[
    ("vadd_f", |i| {
        Want::f32s(i.f32("a").iter().zip(i.f32("b")).map(|(a, b)| a + b))
    }),
    ("vadd_i", |i| {
        Want::ints(
            i.i32("a")
                .iter()
                .zip(i.i32("b"))
                .map(|(a, b)| a.wrapping_add(b)),
        )
    }),
    ("saxpy", |i| {
        Want::f32s(
            i.f32("x")
                .iter()
                .zip(i.f32("y"))
                .map(|(&x, y)| contracted32(2.5, x, y)),
        )
    }),
    ("scale7", |i| Want::ints(i.i32("in").iter().map(|v| v * 7))),
    ("iota", |_| Want::ints(0u32..3000)),
    ("iota_plus100", |_| Want::ints(100u32..600)),
    ("idx2d", |_| {
        Want::ints((0..8).flat_map(|y| (0..16).map(move |x| x * 100 + y)))
    }),
    ("reverse", |_| Want::ints((0..777).map(|j| 776 - j))),
    ("clamp_i", |i| {
        Want::ints(i.i32("in").iter().map(|v| (*v).clamp(-100, 100)))
    }),
    ("minmaxsel", minmaxsel),
    ("switch_map", |i| {
        Want::ints(i.i32("in").iter().map(|&v| match v {
            0 => 10,
            1 | 2 => 20,
            3 => 300,
            4 => 400,
            _ => -1,
        }))
    }),
    ("goto_collatz", |i| {
        Want::ints(i.i32("in").iter().map(|&v| {
            let (mut n, mut s) = (v + 1, 0);
            while n != 1 {
                n = if n % 2 == 1 { 3 * n + 1 } else { n / 2 };
                s += 1;
            }
            s
        }))
    }),
    ("nested_loops", |_| Want::ints((0..64).map(nested_loops))),
    ("short_circuit", |i| {
        Want::ints(i.i32("a").iter().flat_map(|&x| short_circuit(x)))
    }),
    ("digits_sum", |i| {
        Want::ints(i.u32("in").iter().map(|&v| {
            let (mut v, mut s) = (v, 0u32);
            loop {
                s += v % 10;
                v /= 10;
                if v == 0 {
                    break;
                }
            }
            if s > 10 {
                s
            } else {
                s * 2
            }
        }))
    }),
    ("divmod7", |i| {
        Want::ints(i.i32("in").iter().flat_map(|&a| [2 * (a / 7).abs(), a % 7]))
    }),
    ("aos_move", |i| {
        Want::f32s(
            i.f32("p")
                .chunks(4)
                .flat_map(|p| [p[0] + p[2] * 0.5, p[1] + p[3] * 0.5, p[2] * 0.5, p[3]]),
        )
    }),
    ("struct_value", |_| {
        Want::f32s((0..64).map(|g| 3.0 * g as f32 + 0.25 + -2.0))
    }),
    ("nested_struct", |_| {
        Want::ints((0..100).map(|id: i32| {
            let mut s = id;
            for j in 0..2 {
                for k in 0..4 {
                    s += (id * j + k) * (id + j);
                }
            }
            s
        }))
    }),
    ("float_bits", |i| {
        Want::ints(i.f32("in").iter().map(|f| f.to_bits()))
    }),
    ("struct_return", |i| {
        Want::f32s(i.f32("in").chunks(2).flat_map(|p| {
            if p[0] < p[1] {
                [p[0], p[1]]
            } else {
                [p[1], p[0]]
            }
        }))
    }),
    ("sort8", |i| {
        Want::ints(i.i32("data").chunks(8).flat_map(|c| {
            let mut v = c.to_vec();
            v.sort();
            v
        }))
    }),
    ("ptr_arith", |_| Want::ints((0..256).map(|i| 2 * i + 3))),
    ("defines", |_| Want::ints([1034; 16])),
    ("mixed_args", |_| {
        Want::f32s((0..2).flat_map(|i| {
            [
                -3.0,
                1.0 + 2.0 * 3.0 + 4.0,
                1.0,
                10.0,
                0.5 * i as f32,
                200.0,
                60.0,
                -7.0,
            ]
        }))
    }),
    ("bit_walk", |i| {
        Want::ints(i.u32("in").iter().map(|&v| bit_walk(v)))
    }),
    ("sizes", |_| {
        Want::ints([1, 2, 4, 8, 4, 8, 16, 16, 32, 16, 8, 8])
    }),
];

fn minmaxsel(i: &Inputs) -> Want {
    let (a, b) = (i.i32("a"), i.i32("b"));
    Want::ints(
        a.iter()
            .zip(&b)
            .flat_map(|(&a, &b)| [a.min(b), a.max(b), if a < b { b } else { a }]),
    )
}

fn nested_loops(id: i32) -> i32 {
    let mut acc = 0;
    for i in 0..20 {
        if i == id % 7 {
            continue;
        }
        for j in 0..20 {
            if j > i {
                break;
            }
            if (i + j) % 3 == 0 {
                continue;
            }
            acc += i * j + id;
        }
        if acc > 5000 {
            break;
        }
    }
    acc
}

fn short_circuit(x: i32) -> [i32; 2] {
    let mut calls = 0;
    let t1 = x > 0 && {
        calls += 1;
        x > 2
    };
    let r = if t1 {
        1
    } else {
        let t2 = x < -3 && {
            calls += 1;
            true
        };
        if t2 {
            1
        } else {
            calls += 1;
            0
        }
    };
    [r, calls]
}

fn bit_walk(mut v: u32) -> u32 {
    let (mut acc, mut n) = (0u32, 0u32);
    while v != 0 {
        match v & 3 {
            0 => acc = acc.wrapping_add(1),
            1 => acc ^= n,
            2 => {
                v >>= 1;
                continue;
            }
            _ => acc = acc.wrapping_mul(3).wrapping_add(1),
        }
        v >>= 2;
        n += 1;
        if n > 12 {
            break;
        }
    }
    acc.wrapping_add(n)
}
