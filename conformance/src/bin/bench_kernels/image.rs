//! The image benchmark: a bilinear resample of a 4096² RGBA8
//! (`CL_UNORM_INT8`) image to 3072² through a sampler (normalized
//! coordinates, `CLK_FILTER_LINEAR`, clamp to edge), written to a float4
//! image (`bench/resample.cl`); every output pixel checked against a host
//! reference computed from the spec's linear-filter formula.

use crate::measure::{alternate, mismatch_f32, Instance, Rng};
use crate::rig::{Mem, Rig};
use crate::{dense::Built, Cfg, Metric, Row};
use opencl_sys::*;

const RESAMPLE_CL: &str = include_str!("../../../bench/resample.cl");

struct Resample<'a> {
    rig: &'a Rig,
    b: Built<'a>,
    dst: Mem<'a>,
    _src: Mem<'a>,
    out: (usize, usize),
    want: &'a [f64],
}

impl Instance for Resample<'_> {
    fn run(&mut self) -> Result<(), String> {
        self.rig
            .launch(&self.b.k, &[self.out.0, self.out.1], None)?;
        self.rig.finish()
    }
    fn verify(&mut self) -> Result<String, String> {
        let (w, h) = self.out;
        let got: Vec<f32> = self.rig.read_image(&self.dst, w, h, 4)?;
        // Half an 8-bit step: far below what a misplaced sample gives on
        // this image (neighbours differ by up to ~0.1), and above the
        // weights' precision the CTS allows for linear filtering.
        match mismatch_f32(&got, self.want, |_| 2e-3) {
            Some(m) => Err(m),
            None => Ok(String::new()),
        }
    }
}

/// The source: a smooth pattern with noise, per channel.
fn source(w: usize, h: usize) -> Vec<u8> {
    let mut rng = Rng::new(12);
    let mut v = Vec::with_capacity(w * h * 4);
    for y in 0..h {
        for x in 0..w {
            for c in 0..4 {
                let wave = ((x as f32) * 0.011 + (y as f32) * 0.007 + c as f32).sin();
                let p = 128.0 + 100.0 * wave + rng.f32_in(-12.0, 12.0);
                v.push(p.round().clamp(0.0, 255.0) as u8);
            }
        }
    }
    v
}

/// The spec's bilinear sample ("Image Addressing and Filtering",
/// `CLK_FILTER_LINEAR`, clamp to edge) at output pixel (x, y), each
/// channel, from `c / 255`.
fn reference(src: &[u8], (w, h): (usize, usize), (ow, oh): (usize, usize)) -> Vec<f64> {
    let axis = |i: usize, out: usize, size: usize| {
        // The kernel's coordinate, in float as it computes it.
        let s = (i as f32 + 0.5) / out as f32;
        let u = f64::from(s * size as f32) - 0.5;
        let i0 = u.floor();
        let a = u - i0;
        let clamp = |k: f64| k.clamp(0.0, size as f64 - 1.0) as usize;
        (clamp(i0), clamp(i0 + 1.0), a)
    };
    let cols: Vec<_> = (0..ow).map(|x| axis(x, ow, w)).collect();
    let mut want = Vec::with_capacity(ow * oh * 4);
    for y in 0..oh {
        let (j0, j1, b) = axis(y, oh, h);
        for &(i0, i1, a) in &cols {
            for c in 0..4 {
                let t = |i: usize, j: usize| f64::from(src[(j * w + i) * 4 + c]) / 255.0;
                want.push(
                    (1.0 - a) * (1.0 - b) * t(i0, j0)
                        + a * (1.0 - b) * t(i1, j0)
                        + (1.0 - a) * b * t(i0, j1)
                        + a * b * t(i1, j1),
                );
            }
        }
    }
    want
}

pub fn resample(rigs: &[Rig], cfg: &Cfg) -> Row {
    let (w, h, ow, oh) = if cfg.quick {
        (1024, 1024, 768, 768)
    } else {
        (4096, 4096, 3072, 3072)
    };
    let src = source(w, h);
    let want = reference(&src, (w, h), (ow, oh));
    let (src, want) = (&src[..], &want[..]);
    let outcomes = alternate(rigs, cfg.rounds, &|rig| {
        let b = crate::dense::built(rig, RESAMPLE_CL, "resample")?;
        let s = rig.image2d(CL_UNORM_INT8, w, h, Some(src))?;
        let dst = rig.image2d(CL_FLOAT, ow, oh, None)?;
        b.k.mem(0, &s)?;
        b.k.mem(1, &dst)?;
        Ok(Box::new(Resample {
            rig,
            b,
            dst,
            _src: s,
            out: (ow, oh),
            want,
        }))
    });
    Row {
        name: "resample",
        size: format!("{w}x{h} RGBA8 -> {ow}x{oh} bilinear"),
        metric: Metric::Rate {
            work: (ow * oh) as f64 / 1e6,
            unit: "Mpixel/s",
        },
        outcomes,
        extra: vec![],
    }
}
