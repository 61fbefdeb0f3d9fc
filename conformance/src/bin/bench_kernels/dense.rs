//! The regular benchmarks: triad (memory bandwidth, against this machine's
//! memcpy), mandelbrot (divergent float loops), n-body (float4 with local
//! tiles), SGEMM (16x16 local tiles) and the 5x5 convolution with a constant
//! filter. Each builds its inputs once on the host, prepares an instance per
//! platform and checks every platform's output against a host reference.

use crate::measure::{alternate, mismatch_f32, Instance, Rng};
use crate::rig::{Kernel, Mem, Program, Rig};
use crate::{Cfg, Metric, Row};
use std::time::{Duration, Instant};

const TRIAD_CL: &str = include_str!("../../../bench/triad.cl");
const MANDELBROT_CL: &str = include_str!("../../../bench/mandelbrot.cl");
const NBODY_CL: &str = include_str!("../../../bench/nbody.cl");
const SGEMM_CL: &str = include_str!("../../../bench/sgemm.cl");
const CONV_CL: &str = include_str!("../../../bench/conv5x5.cl");

/// A built program and one of its kernels (more can be made from `p`).
pub struct Built<'a> {
    pub k: Kernel<'a>,
    pub p: Program<'a>,
}

/// Builds `src` (no options) and makes its kernel `name`.
pub fn built<'a>(rig: &'a Rig, src: &str, name: &str) -> Result<Built<'a>, String> {
    let (p, _) = rig.build(src, "")?;
    let k = p.kernel(name)?;
    Ok(Built { k, p })
}

// ---------------------------------------------------------------- triad

struct Triad<'a> {
    rig: &'a Rig,
    b: Built<'a>,
    a: Mem<'a>,
    _in: [Mem<'a>; 2],
    n: usize,
    host: &'a (Vec<f32>, Vec<f32>, f32),
}

impl Instance for Triad<'_> {
    fn run(&mut self) -> Result<(), String> {
        self.rig.launch(&self.b.k, &[self.n], None)?;
        self.rig.finish()
    }
    fn verify(&mut self) -> Result<String, String> {
        let got: Vec<f32> = self.rig.read(&self.a, self.n)?;
        let (b, c, s) = self.host;
        let want: Vec<f64> = (0..self.n)
            .map(|i| b[i] as f64 + *s as f64 * c[i] as f64)
            .collect();
        // One rounding (fma) or two: within 2 ulp of the larger term.
        match mismatch_f32(&got, &want, |i| {
            2.4e-7 * (b[i].abs() + (s * c[i]).abs()) as f64
        }) {
            Some(m) => Err(m),
            None => Ok(String::new()),
        }
    }
}

/// Bytes per second of a copy between two touched host buffers of `bytes`,
/// split over `threads` threads, counting bytes read plus bytes written
/// (STREAM's convention), best of `rounds`.
fn memcpy_gbs(bytes: usize, threads: usize, rounds: usize) -> f64 {
    let src = vec![0x5au8; bytes];
    let mut dst = vec![0xa5u8; bytes];
    let chunk = bytes.div_ceil(threads.max(1));
    let mut best = Duration::MAX;
    for _ in 0..rounds {
        let start = Instant::now();
        std::thread::scope(|s| {
            for (d, sr) in dst.chunks_mut(chunk).zip(src.chunks(chunk)) {
                s.spawn(move || d.copy_from_slice(sr));
            }
        });
        best = best.min(start.elapsed());
    }
    std::hint::black_box(&dst);
    2.0 * bytes as f64 / best.as_secs_f64() / 1e9
}

/// Bytes per second of the triad itself on the host, split over `threads`
/// threads (3 x 4 bytes per element), best of `rounds`.
fn host_triad_gbs(n: usize, threads: usize, rounds: usize) -> f64 {
    let b = vec![1.0f32; n];
    let c = vec![2.0f32; n];
    let mut a = vec![0.0f32; n];
    let chunk = n.div_ceil(threads.max(1));
    let mut best = Duration::MAX;
    for _ in 0..rounds {
        let start = Instant::now();
        std::thread::scope(|s| {
            for ((a, b), c) in a
                .chunks_mut(chunk)
                .zip(b.chunks(chunk))
                .zip(c.chunks(chunk))
            {
                s.spawn(move || {
                    for ((a, b), c) in a.iter_mut().zip(b).zip(c) {
                        *a = b + 3.0 * c;
                    }
                });
            }
        });
        best = best.min(start.elapsed());
    }
    std::hint::black_box(&a);
    12.0 * n as f64 / best.as_secs_f64() / 1e9
}

pub fn triad(rigs: &[Rig], cfg: &Cfg) -> Row {
    let n = if cfg.quick { 4 << 20 } else { 64 << 20 };
    let mut rng = Rng::new(1);
    let host = (
        (0..n).map(|_| rng.f32_in(-1.0, 1.0)).collect::<Vec<f32>>(),
        (0..n).map(|_| rng.f32_in(-1.0, 1.0)).collect::<Vec<f32>>(),
        3.0f32,
    );
    let host = &host;
    let outcomes = alternate(rigs, cfg.rounds, &|rig| {
        let b = built(rig, TRIAD_CL, "triad")?;
        let a = rig.buffer(4 * n)?;
        rig.zero(&a)?;
        let bb = rig.upload(&host.0)?;
        let cb = rig.upload(&host.1)?;
        b.k.mem(0, &a)?;
        b.k.mem(1, &bb)?;
        b.k.mem(2, &cb)?;
        b.k.val(3, host.2)?;
        Ok(Box::new(Triad {
            rig,
            b,
            a,
            _in: [bb, cb],
            n,
            host,
        }))
    });
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let memcpy = memcpy_gbs(4 * n, threads, cfg.rounds + 2);
    let memcpy1 = memcpy_gbs(4 * n, 1, cfg.rounds + 2);
    let host_triad = host_triad_gbs(n, threads, cfg.rounds + 2);
    let bytes = 12.0 * n as f64;
    let mut extra = vec![format!(
        "triad: host memcpy of {} MiB {memcpy:.2} GB/s on {threads} threads ({memcpy1:.2} on 1), \
         host triad loop {host_triad:.2} GB/s on {threads} threads (bytes read + written)",
        (4 * n) >> 20
    )];
    for (label, o) in &outcomes {
        // Only a verified result's bandwidth counts.
        if let Some(m) = o.as_ref().ok().filter(|m| m.verdict.is_ok()) {
            let gbs = bytes / m.best.as_secs_f64() / 1e9;
            extra.push(format!(
                "triad: {label} {gbs:.2} GB/s = {:.0}% of memcpy, {:.0}% of the host triad loop (goal >= 90%)",
                100.0 * gbs / memcpy,
                100.0 * gbs / host_triad
            ));
        }
    }
    Row {
        name: "triad",
        size: format!("{}M floats", n >> 20),
        metric: Metric::Rate {
            work: bytes / 1e9,
            unit: "GB/s",
        },
        outcomes,
        extra,
    }
}

// ----------------------------------------------------------- mandelbrot

struct Mandel<'a> {
    rig: &'a Rig,
    b: Built<'a>,
    out: Mem<'a>,
    w: usize,
    h: usize,
    want: &'a [u32],
}

const MANDEL_ITER: u32 = 256;

/// The view: [-2.25, 0.75] x [-1.25, 1.25] at `w` x `h` pixels.
fn mandel_view(w: usize, h: usize) -> (f32, f32, f32, f32) {
    (-2.25, -1.25, 3.0 / w as f32, 2.5 / h as f32)
}

/// The escape count of one pixel: `T` is the arithmetic (f32 or f64), and
/// `fused` contracts the two multiply-adds the way a compiler may.
fn mandel_pixel<T>(cr: T, ci: T, fused: bool) -> u32
where
    T: Copy + PartialOrd + From<f32> + std::ops::Add<Output = T> + std::ops::Sub<Output = T>,
    T: std::ops::Mul<Output = T> + MulAdd,
{
    let (mut zr, mut zi, mut n) = (T::from(0.0), T::from(0.0), 0u32);
    let (two, four) = (T::from(2.0), T::from(4.0));
    while n < MANDEL_ITER {
        let (zr2, zi2) = (zr * zr, zi * zi);
        if zr2 + zi2 > four {
            break;
        }
        let t = zr2 - zi2 + cr;
        zi = if fused {
            (two * zr).mul_add(zi, ci)
        } else {
            two * zr * zi + ci
        };
        zr = t;
        n += 1;
    }
    n
}

/// `mul_add` for the two float types.
trait MulAdd {
    fn mul_add(self, a: Self, b: Self) -> Self;
}
impl MulAdd for f32 {
    fn mul_add(self, a: f32, b: f32) -> f32 {
        f32::mul_add(self, a, b)
    }
}
impl MulAdd for f64 {
    fn mul_add(self, a: f64, b: f64) -> f64 {
        f64::mul_add(self, a, b)
    }
}

/// The pixel's coordinates, with the kernel's float operations in its order.
fn mandel_c(w: usize, h: usize, px: usize, py: usize) -> (f32, f32) {
    let (x0, y0, dx, dy) = mandel_view(w, h);
    (x0 + px as f32 * dx, y0 + py as f32 * dy)
}

/// The host reference (f32, the kernel's operations in its order).
fn mandel_host(w: usize, h: usize) -> Vec<u32> {
    let mut out = vec![0u32; w * h];
    for py in 0..h {
        for px in 0..w {
            let (cr, ci) = mandel_c(w, h, px, py);
            out[py * w + px] = mandel_pixel(cr, ci, false);
        }
    }
    out
}

impl Instance for Mandel<'_> {
    fn run(&mut self) -> Result<(), String> {
        self.rig.launch(&self.b.k, &[self.w, self.h], None)?;
        self.rig.finish()
    }
    fn verify(&mut self) -> Result<String, String> {
        let got: Vec<u32> = self.rig.read(&self.out, self.w * self.h)?;
        // Near the set's boundary the count is chaotic: a contracted
        // multiply-add (allowed by OpenCL C) changes it. A differing pixel is
        // explained when the device agrees with the fused f32 or the f64
        // computation, or those references disagree among themselves; an
        // unexplained one is wrong, and so are more than 1% explained ones.
        let (mut explained, mut first_bad) = (0usize, None);
        for (i, (&g, &want)) in got.iter().zip(self.want).enumerate() {
            if g == want {
                continue;
            }
            let (cr, ci) = mandel_c(self.w, self.h, i % self.w, i / self.w);
            let fused = mandel_pixel(cr, ci, true);
            let wide = mandel_pixel(cr as f64, ci as f64, false);
            if g <= MANDEL_ITER && (g == fused || g == wide || fused != want || wide != want) {
                explained += 1;
            } else if first_bad.is_none() {
                first_bad = Some(i);
            }
        }
        if let Some(i) = first_bad {
            return Err(format!(
                "pixel {i} (x {}, y {}): got {}, expected {}",
                i % self.w,
                i / self.w,
                got[i],
                self.want[i]
            ));
        }
        if explained > got.len() / 100 {
            return Err(format!(
                "{explained} of {} boundary pixels differ",
                got.len()
            ));
        }
        Ok(if explained > 0 {
            format!("{explained} boundary px differ")
        } else {
            String::new()
        })
    }
}

pub fn mandelbrot(rigs: &[Rig], cfg: &Cfg) -> Row {
    let (w, h) = if cfg.quick { (512, 512) } else { (2048, 2048) };
    let want = mandel_host(w, h);
    let want = &want[..];
    let (x0, y0, dx, dy) = mandel_view(w, h);
    let outcomes = alternate(rigs, cfg.rounds, &|rig| {
        let b = built(rig, MANDELBROT_CL, "mandelbrot")?;
        let out = rig.buffer(4 * w * h)?;
        b.k.mem(0, &out)?;
        b.k.val(1, x0)?;
        b.k.val(2, y0)?;
        b.k.val(3, dx)?;
        b.k.val(4, dy)?;
        b.k.val(5, MANDEL_ITER)?;
        Ok(Box::new(Mandel {
            rig,
            b,
            out,
            w,
            h,
            want,
        }))
    });
    Row {
        name: "mandelbrot",
        size: format!("{w}x{h}, {MANDEL_ITER} iter"),
        metric: Metric::Rate {
            work: (w * h) as f64 / 1e6,
            unit: "Mpixel/s",
        },
        outcomes,
        extra: vec![],
    }
}

// --------------------------------------------------------------- n-body

struct NBody<'a> {
    rig: &'a Rig,
    b: Built<'a>,
    new_pos: Mem<'a>,
    new_vel: Mem<'a>,
    _in: [Mem<'a>; 2],
    n: usize,
    want: &'a [(usize, [f64; 4], [f64; 4], f64)],
}

const NBODY_LOCAL: usize = 64;
const NBODY_DT: f32 = 0.01;
const NBODY_EPS2: f32 = 0.01;

/// Host reference for body `i` (in f64): new position, new velocity and the
/// scale of the acceleration sum (for the tolerance).
fn nbody_host(pos: &[[f32; 4]], vel: &[[f32; 4]], i: usize) -> ([f64; 4], [f64; 4], f64) {
    let p = pos[i].map(f64::from);
    let (mut acc, mut scale) = ([0.0f64; 3], 0.0f64);
    for q in pos {
        let q = q.map(f64::from);
        let d = [q[0] - p[0], q[1] - p[1], q[2] - p[2]];
        let r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + NBODY_EPS2 as f64;
        let s = q[3] / (r2 * r2.sqrt());
        for k in 0..3 {
            acc[k] += s * d[k];
            scale += (s * d[k]).abs();
        }
    }
    let dt = NBODY_DT as f64;
    let mut v = vel[i].map(f64::from);
    let mut np = p;
    for k in 0..3 {
        v[k] += dt * acc[k];
        np[k] += dt * v[k];
    }
    (np, v, dt * scale + 1.0)
}

impl Instance for NBody<'_> {
    fn run(&mut self) -> Result<(), String> {
        self.rig
            .launch(&self.b.k, &[self.n], Some(&[NBODY_LOCAL]))?;
        self.rig.finish()
    }
    fn verify(&mut self) -> Result<String, String> {
        let pos: Vec<[f32; 4]> = self.rig.read(&self.new_pos, self.n)?;
        let vel: Vec<[f32; 4]> = self.rig.read(&self.new_vel, self.n)?;
        for &(i, wp, wv, scale) in self.want {
            for k in 0..4 {
                // Float accumulation over n bodies against the f64 sum.
                let tol = 1e-4 * scale;
                for (what, got, want) in [("pos", pos[i][k], wp[k]), ("vel", vel[i][k], wv[k])] {
                    let d = (got as f64 - want).abs();
                    if d.is_nan() || d > tol {
                        return Err(format!(
                            "body {i} {what}[{k}]: got {got}, expected {want} (tolerance {tol:.2e})"
                        ));
                    }
                }
            }
        }
        Ok(String::new())
    }
}

pub fn nbody(rigs: &[Rig], cfg: &Cfg) -> Row {
    let n = if cfg.quick { 4096 } else { 16384 };
    let mut rng = Rng::new(3);
    let pos: Vec<[f32; 4]> = (0..n)
        .map(|_| {
            let mut p = [0.0; 4];
            p[..3].iter_mut().for_each(|c| *c = rng.f32_in(-1.0, 1.0));
            p[3] = rng.f32_in(0.1, 1.0) / n as f32;
            p
        })
        .collect();
    let vel: Vec<[f32; 4]> = (0..n)
        .map(|_| {
            [
                rng.f32_in(-0.1, 0.1),
                rng.f32_in(-0.1, 0.1),
                rng.f32_in(-0.1, 0.1),
                0.0,
            ]
        })
        .collect();
    // A sample of bodies, always including the first and the last.
    let sample: Vec<usize> = (0..256).map(|k| k * (n - 1) / 255).collect();
    let want: Vec<_> = sample
        .iter()
        .map(|&i| {
            let (p, v, s) = nbody_host(&pos, &vel, i);
            (i, p, v, s)
        })
        .collect();
    let (pos, vel, want) = (&pos, &vel, &want[..]);
    let outcomes = alternate(rigs, cfg.rounds, &|rig| {
        let b = built(rig, NBODY_CL, "nbody")?;
        let pb = rig.upload(pos)?;
        let vb = rig.upload(vel)?;
        let new_pos = rig.buffer(16 * n)?;
        let new_vel = rig.buffer(16 * n)?;
        b.k.mem(0, &pb)?;
        b.k.mem(1, &vb)?;
        b.k.mem(2, &new_pos)?;
        b.k.mem(3, &new_vel)?;
        b.k.local(4, 16 * NBODY_LOCAL)?;
        b.k.val(5, n as u32)?;
        b.k.val(6, NBODY_DT)?;
        b.k.val(7, NBODY_EPS2)?;
        Ok(Box::new(NBody {
            rig,
            b,
            new_pos,
            new_vel,
            _in: [pb, vb],
            n,
            want,
        }))
    });
    Row {
        name: "nbody",
        size: format!("{n} bodies, local {NBODY_LOCAL}"),
        metric: Metric::Rate {
            // The usual count: 20 flops per interaction.
            work: 20.0 * (n * n) as f64 / 1e9,
            unit: "GFLOP/s",
        },
        outcomes,
        extra: vec![],
    }
}

// ---------------------------------------------------------------- sgemm

struct Sgemm<'a> {
    rig: &'a Rig,
    b: Built<'a>,
    c: Mem<'a>,
    _in: [Mem<'a>; 2],
    n: usize,
    a_host: &'a [f32],
    b_host: &'a [f32],
}

impl Instance for Sgemm<'_> {
    fn run(&mut self) -> Result<(), String> {
        self.rig
            .launch(&self.b.k, &[self.n, self.n], Some(&[16, 16]))?;
        self.rig.finish()
    }
    fn verify(&mut self) -> Result<String, String> {
        let n = self.n;
        let got: Vec<f32> = self.rig.read(&self.c, n * n)?;
        let mut rng = Rng::new(99);
        for s in 0..2048 {
            // Corners first, then random entries.
            let (r, c) = match s {
                0 => (0, 0),
                1 => (n - 1, n - 1),
                _ => (rng.below(n as u32) as usize, rng.below(n as u32) as usize),
            };
            let (mut want, mut scale) = (0.0f64, 0.0f64);
            for k in 0..n {
                let t = self.a_host[r * n + k] as f64 * self.b_host[k * n + c] as f64;
                want += t;
                scale += t.abs();
            }
            let g = got[r * n + c] as f64;
            let tol = 1e-5 * scale + 1e-6;
            if (g - want).abs().is_nan() || (g - want).abs() > tol {
                return Err(format!(
                    "C[{r}][{c}]: got {g}, expected {want} (tolerance {tol:.2e})"
                ));
            }
        }
        Ok(String::new())
    }
}

pub fn sgemm(rigs: &[Rig], cfg: &Cfg) -> Row {
    let n = if cfg.quick { 256 } else { 1024 };
    let mut rng = Rng::new(4);
    let a: Vec<f32> = (0..n * n).map(|_| rng.f32_in(-1.0, 1.0)).collect();
    let b: Vec<f32> = (0..n * n).map(|_| rng.f32_in(-1.0, 1.0)).collect();
    let (a_host, b_host) = (&a[..], &b[..]);
    let outcomes = alternate(rigs, cfg.rounds, &|rig| {
        let k = built(rig, SGEMM_CL, "sgemm")?;
        let ab = rig.upload(a_host)?;
        let bb = rig.upload(b_host)?;
        let c = rig.buffer(4 * n * n)?;
        k.k.mem(0, &ab)?;
        k.k.mem(1, &bb)?;
        k.k.mem(2, &c)?;
        k.k.val(3, n as u32)?;
        Ok(Box::new(Sgemm {
            rig,
            b: k,
            c,
            _in: [ab, bb],
            n,
            a_host,
            b_host,
        }))
    });
    Row {
        name: "sgemm",
        size: format!("{n}^3, 16x16 tiles (2048 checked)"),
        metric: Metric::Rate {
            work: 2.0 * (n * n * n) as f64 / 1e9,
            unit: "GFLOP/s",
        },
        outcomes,
        extra: vec![],
    }
}

// ------------------------------------------------------------- conv5x5

struct Conv<'a> {
    rig: &'a Rig,
    b: Built<'a>,
    out: Mem<'a>,
    _in: [Mem<'a>; 2],
    w: usize,
    h: usize,
    want: &'a [(f64, f64)],
}

fn conv_host(img: &[f32], filt: &[f32], w: usize, h: usize) -> Vec<(f64, f64)> {
    let mut out = Vec::with_capacity(w * h);
    for y in 0..h as i64 {
        for x in 0..w as i64 {
            let (mut s, mut scale) = (0.0f64, 0.0f64);
            for dy in -2..=2i64 {
                let yy = (y + dy).clamp(0, h as i64 - 1) as usize;
                for dx in -2..=2i64 {
                    let xx = (x + dx).clamp(0, w as i64 - 1) as usize;
                    let t = filt[((dy + 2) * 5 + dx + 2) as usize] as f64 * img[yy * w + xx] as f64;
                    s += t;
                    scale += t.abs();
                }
            }
            out.push((s, scale));
        }
    }
    out
}

impl Instance for Conv<'_> {
    fn run(&mut self) -> Result<(), String> {
        self.rig.launch(&self.b.k, &[self.w, self.h], None)?;
        self.rig.finish()
    }
    fn verify(&mut self) -> Result<String, String> {
        let got: Vec<f32> = self.rig.read(&self.out, self.w * self.h)?;
        let want: Vec<f64> = self.want.iter().map(|p| p.0).collect();
        match mismatch_f32(&got, &want, |i| 1e-6 * self.want[i].1 + 1e-7) {
            Some(m) => Err(m),
            None => Ok(String::new()),
        }
    }
}

pub fn conv5x5(rigs: &[Rig], cfg: &Cfg) -> Row {
    let (w, h) = if cfg.quick {
        (1024, 1024)
    } else {
        (4096, 4096)
    };
    let mut rng = Rng::new(5);
    let img: Vec<f32> = (0..w * h).map(|_| rng.f32_in(0.0, 1.0)).collect();
    let filt: Vec<f32> = (0..25).map(|_| rng.f32_in(-1.0, 1.0)).collect();
    let want = conv_host(&img, &filt, w, h);
    let (img, filt, want) = (&img[..], &filt[..], &want[..]);
    let outcomes = alternate(rigs, cfg.rounds, &|rig| {
        let b = built(rig, CONV_CL, "conv5x5")?;
        let ib = rig.upload(img)?;
        let fb = rig.upload(filt)?;
        let out = rig.buffer(4 * w * h)?;
        b.k.mem(0, &ib)?;
        b.k.mem(1, &out)?;
        b.k.mem(2, &fb)?;
        Ok(Box::new(Conv {
            rig,
            b,
            out,
            _in: [ib, fb],
            w,
            h,
            want,
        }))
    });
    Row {
        name: "conv5x5",
        size: format!("{w}x{h}, constant filter"),
        metric: Metric::Rate {
            work: (w * h) as f64 / 1e6,
            unit: "Mpixel/s",
        },
        outcomes,
        extra: vec![],
    }
}
