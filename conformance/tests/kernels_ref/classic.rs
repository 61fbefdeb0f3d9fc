//! References for the classic kernels: reductions, scans, matrix products,
//! transpose, histograms, atomics, convolutions, mandelbrot, n-body, sorts,
//! stencils, and the geometry kernels (non-uniform groups, 3-D ranges).

use super::{Inputs, RefFn, Want};

fn group_sums(v: &[i32], n: usize) -> Vec<i32> {
    v.chunks(n)
        .map(|c| c.iter().fold(0i32, |a, &b| a.wrapping_add(b)))
        .collect()
}

fn matmul64(i: &Inputs) -> Want {
    let (a, b) = (i.f32("a"), i.f32("b"));
    Want::f64s((0..64).flat_map(|r| {
        let (a, b) = (&a, &b);
        (0..64).map(move |c| {
            (0..64)
                .map(|k| a[r * 64 + k] as f64 * b[k * 64 + c] as f64)
                .sum()
        })
    }))
}

fn histogram(i: &Inputs) -> Want {
    let mut h = [0u32; 256];
    for b in i.u8("in") {
        h[b as usize] += 1;
    }
    Want::ints(h)
}

fn conv(img: &[f32], w: usize, h: usize, filt: &[f32], r: i32, div: f32) -> Vec<f32> {
    let side = (2 * r + 1) as usize;
    let mut out = vec![0.0f32; w * h];
    for y in 0..h as i32 {
        for x in 0..w as i32 {
            let mut s = 0.0f32;
            for dy in -r..=r {
                for dx in -r..=r {
                    let xx = (x + dx).clamp(0, w as i32 - 1) as usize;
                    let yy = (y + dy).clamp(0, h as i32 - 1) as usize;
                    s += filt[(dy + r) as usize * side + (dx + r) as usize] * img[yy * w + xx];
                }
            }
            out[y as usize * w + x as usize] = s / div;
        }
    }
    out
}

fn mandelbrot(_: &Inputs) -> Want {
    Want::ints((0..64).flat_map(|py| {
        (0..64).map(move |px| {
            let cr = -2.0f32 + px as f32 * (3.0 / 64.0);
            let ci = -1.5f32 + py as f32 * (3.0 / 64.0);
            let (mut zr, mut zi, mut n) = (0.0f32, 0.0f32, 0);
            while n < 100 && zr * zr + zi * zi <= 4.0 {
                let t = zr * zr - zi * zi + cr;
                zi = 2.0 * zr * zi + ci;
                zr = t;
                n += 1;
            }
            n
        })
    }))
}

fn nbody(i: &Inputs) -> Want {
    let p = i.f32("pos");
    let n = p.len() / 4;
    Want::f32s((0..n).flat_map(|k| {
        let mut a = [0.0f32; 3];
        for j in 0..n {
            let d = [
                p[4 * j] - p[4 * k],
                p[4 * j + 1] - p[4 * k + 1],
                p[4 * j + 2] - p[4 * k + 2],
            ];
            let r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + 0.01;
            let inv = (1.0 / (r2 as f64).sqrt()) as f32;
            let s = p[4 * j + 3] * inv * inv * inv;
            for c in 0..3 {
                a[c] += d[c] * s;
            }
        }
        [a[0], a[1], a[2], 0.0]
    }))
}

fn exclusive_scan(i: &Inputs) -> Want {
    let mut acc = 0u32;
    Want::ints(i.u32("in").into_iter().map(|v| {
        let r = acc;
        acc = acc.wrapping_add(v);
        r
    }))
}

/// Sub-groups are four consecutive local linear ids (`n` per group).
fn sub_groups(v: &[i32], n: usize) -> impl Iterator<Item = &[i32]> {
    v.chunks(n).flat_map(|g| g.chunks(4))
}

pub const REFS: &[(&str, RefFn)] = &[
    ("subgroup_reduce_scan27", |i| {
        Want::ints(sub_groups(&i.i32("in"), 27).flat_map(|sg| {
            let sum: i32 = sg.iter().sum();
            let min = *sg.iter().min().unwrap();
            let last = sg[sg.len() - 1];
            (0..sg.len()).flat_map(move |k| [sum, sg[..k].iter().sum(), last - min])
        }))
    }),
    ("subgroup_ids_6x3", |_| {
        // global (12, 6) in groups of (6, 3): the item at (x, y)
        Want::ints((0..72u32).flat_map(|i| {
            let (x, y) = (i % 12, i / 12);
            let lin = (y % 3) * 6 + x % 6;
            let size = if lin >= 16 { 2 } else { 4 };
            [lin / 4, lin % 4, size * 10 + 5]
        }))
    }),
    ("group_sums256", |i| {
        Want::ints(group_sums(&i.i32("in"), 256))
    }),
    ("total_sum", |i| {
        Want::f64s([i.f32("in").iter().map(|&v| v as f64).sum()])
    }),
    ("group_max64", |i| {
        Want::ints(
            i.i32("in")
                .chunks(64)
                .map(|c| *c.iter().max().unwrap_or(&0)),
        )
    }),
    ("group_inclusive_scan256", |i| {
        Want::ints(i.i32("in").chunks(256).flat_map(|c| {
            c.iter()
                .scan(0i32, |s, &v| {
                    *s = s.wrapping_add(v);
                    Some(*s)
                })
                .collect::<Vec<_>>()
        }))
    }),
    ("exclusive_scan512", exclusive_scan),
    ("matmul64", matmul64),
    ("transpose96x64", |i| {
        let a = i.f32("in");
        Want::f32s((0..96).flat_map(|x| {
            let a = &a;
            (0..64).map(move |y| a[y * 96 + x])
        }))
    }),
    ("histogram256", histogram),
    ("atomics_mixed", |i| {
        let v = i.i32("in");
        Want::ints([
            v.iter().fold(0i32, |a, &b| a.wrapping_add(b)),
            -2048,
            *v.iter().max().unwrap_or(&0),
            *v.iter().min().unwrap_or(&0),
            0x7fff_ffff,
            4096,
        ])
    }),
    ("local_counts", |_| {
        Want::ints((0..64).map(|g| if g < 16 { 71 } else { 0 }))
    }),
    ("row_ranges", |i| {
        let a = i.i32("a");
        Want::ints((0..64i64).map(|i| {
            let (lo, hi) = (i * 16 - i % 3, (i * 16 + 16 + i % 5).min(1024));
            let mut s: i64 = (lo..hi).map(|k| a[k as usize] as i64 * (k - lo + 1)).sum();
            s += (lo - 2..lo + 2)
                .filter(|&k| k >= 0)
                .map(|k| a[k as usize] as i64)
                .sum::<i64>();
            s -= (lo..lo + 3).map(|k| a[k as usize] as i64).sum::<i64>();
            s as i32
        }))
    }),
    ("csr_rows", |i| {
        let (a, ptr) = (i.i32("a"), i.u32("ptr"));
        Want::ints((0..64).map(|r| {
            (ptr[r]..ptr[r + 1])
                .map(|k| a[k as usize] ^ k as i32)
                .fold(0i32, i32::wrapping_add)
        }))
    }),
    ("conv3x3", |i| {
        Want::f32s(conv(&i.f32("img"), 64, 64, &i.f32("filt"), 1, 16.0))
    }),
    ("conv5x5", |i| {
        let w: [f32; 25] = [
            1., 4., 6., 4., 1., 4., 16., 24., 16., 4., 6., 24., 36., 24., 6., 4., 16., 24., 16.,
            4., 1., 4., 6., 4., 1.,
        ];
        Want::f32s(conv(&i.f32("img"), 64, 64, &w, 2, 256.0))
    }),
    ("mandelbrot64", mandelbrot),
    ("nbody_acc", nbody),
    ("inverse_square", |i| {
        let p = i.f32("pos");
        let n = p.len() / 4;
        Want::f32s((0..n).flat_map(|k| {
            let mut a = [0.0f32; 3];
            for j in 0..n {
                let d = [
                    p[4 * j] - p[4 * k],
                    p[4 * j + 1] - p[4 * k + 1],
                    p[4 * j + 2] - p[4 * k + 2],
                ];
                let s = p[4 * j + 3] / (d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + 0.5);
                for c in 0..3 {
                    a[c] += d[c] * s;
                }
            }
            [a[0], a[1], a[2], 0.0]
        }))
    }),
    ("tile_sums_8x8", |i| {
        let a = i.i32("in");
        Want::ints((0..16).map(|t| {
            let (gx, gy) = (t % 4, t / 4);
            let a = &a;
            (0..8)
                .flat_map(|y| (0..8).map(move |x| a[(gy * 8 + y) * 32 + gx * 8 + x]))
                .sum::<i32>()
        }))
    }),
    ("sorted1024", |i| {
        let mut v = i.i32("data");
        v.sort();
        Want::ints(v)
    }),
    ("sorted64u", |i| {
        let mut v = i.u32("data");
        v.sort();
        Want::ints(v)
    }),
    ("matvec", |i| {
        let (m, v) = (i.f32("m"), i.f32("v"));
        Want::f64s((0..64).map(|r| (0..128).map(|c| m[r * 128 + c] as f64 * v[c] as f64).sum()))
    }),
    ("stencil3", |i| {
        let a = i.f32("in");
        let at = |k: i64| {
            if !(0..1024).contains(&k) {
                0.0
            } else {
                a[k as usize]
            }
        };
        Want::f32s((0..1024i64).map(|g| (at(g - 1) + at(g) + at(g + 1)) / 3.0))
    }),
    ("nonuniform1000_64", |_| {
        Want::ints(
            (0..1000u32).map(|i| (if i >= 960 { 40 } else { 64 }) * 100000 + (i / 64) * 100 + 16),
        )
    }),
    ("nonuniform2d", |_| {
        Want::ints((0..30u32).flat_map(|y| {
            (0..50u32).flat_map(move |x| {
                let lx = if x >= 48 { 2 } else { 16 };
                let ly = if y >= 24 { 6 } else { 8 };
                [lx * 100 + ly, 1608]
            })
        }))
    }),
    ("nonuniform_sums", |i| {
        Want::ints(group_sums(&i.i32("in"), 64))
    }),
    ("range3d", |_| {
        Want::ints((0..8u32).flat_map(|z| {
            (0..10u32).flat_map(move |y| {
                (0..12u32).flat_map(move |x| {
                    [
                        (x + 3) + 100 * (y + 7) + 10000 * (z + 11),
                        x / 4 + 10 * (y / 5) + 100 * (z / 2),
                        x % 4 + 10 * (y % 5) + 100 * (z % 2) + 3000,
                    ]
                })
            })
        }))
    }),
    ("wi2d", |_| {
        Want::ints((0..512).flat_map(|_| [44u32, 3216, 111]))
    }),
];
