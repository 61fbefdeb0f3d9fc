//! The benchmarks built on local memory, barriers, atomics and indirect
//! access: the tree reduction, the scan, the 256-bin histogram, CSR SpMV, and
//! the launch-overhead figures (10,000 tiny launches; launch then wait).

use crate::dense::{built, Built};
use crate::measure::{alternate, mismatch_exact, mismatch_f32, Instance, Rng};
use crate::rig::{Kernel, Mem, Rig};
use crate::{Cfg, Metric, Row};

const REDUCE_CL: &str = include_str!("../../../bench/reduce.cl");
const SCAN_CL: &str = include_str!("../../../bench/scan.cl");
const HISTOGRAM_CL: &str = include_str!("../../../bench/histogram.cl");
const SPMV_CL: &str = include_str!("../../../bench/spmv.cl");
const TINY_CL: &str = include_str!("../../../bench/tiny.cl");
const GROUPS1_CL: &str = include_str!("../../../bench/groups1.cl");

/// Work-group size of the reduction and the scan; each group covers twice
/// as many elements.
const LOCAL: usize = 256;
const BLOCK: usize = 2 * LOCAL;

// ------------------------------------------------------------ reduction

struct Reduce<'a> {
    rig: &'a Rig,
    _b: Built<'a>,
    /// One kernel per level, its arguments set once: (kernel, groups).
    levels: Vec<(Kernel<'a>, usize)>,
    /// Partial sums per level (level 0's input is `_input`).
    partials: Vec<Mem<'a>>,
    _input: Mem<'a>,
    host: &'a [f32],
}

impl Instance for Reduce<'_> {
    fn run(&mut self) -> Result<(), String> {
        for (k, groups) in &self.levels {
            self.rig.launch(k, &[groups * LOCAL], Some(&[LOCAL]))?;
        }
        self.rig.finish()
    }
    fn verify(&mut self) -> Result<String, String> {
        // Every first-level partial against the host's sum of its block.
        let groups = self.host.len() / BLOCK;
        let got: Vec<f32> = self.rig.read(&self.partials[0], groups)?;
        let want: Vec<f64> = self
            .host
            .chunks(BLOCK)
            .map(|c| c.iter().map(|&v| v as f64).sum())
            .collect();
        if let Some(m) = mismatch_f32(&got, &want, |i| 1e-5 * want[i].abs() + 1e-6) {
            return Err(format!("first-level partial sums: {m}"));
        }
        let (last, count) = (
            self.partials.len() - 1,
            self.levels[self.levels.len() - 1].1,
        );
        let top: Vec<f32> = self.rig.read(&self.partials[last], count)?;
        let total: f64 = top.iter().map(|&v| v as f64).sum();
        let want: f64 = self.host.iter().map(|&v| v as f64).sum();
        if (total - want).abs() > 1e-5 * want.abs() {
            return Err(format!("total: got {total}, expected {want}"));
        }
        Ok(String::new())
    }
}

pub fn reduce(rigs: &[Rig], cfg: &Cfg) -> Row {
    let n = if cfg.quick { 1 << 20 } else { 16 << 20 };
    let mut rng = Rng::new(6);
    let host: Vec<f32> = (0..n).map(|_| rng.f32_in(0.0, 1.0)).collect();
    let host = &host[..];
    // Level sizes: n -> n/512 -> ... while a level still fills whole blocks.
    let mut groups = vec![n / BLOCK];
    while let Some(&g) = groups.last() {
        if g < BLOCK || g % BLOCK != 0 {
            break;
        }
        groups.push(g / BLOCK);
    }
    let groups = &groups[..];
    let outcomes = alternate(rigs, cfg.rounds, &|rig| {
        let b = built(rig, REDUCE_CL, "reduce_sum")?;
        let input = rig.upload(host)?;
        let partials = groups
            .iter()
            .map(|&g| rig.buffer(4 * g))
            .collect::<Result<Vec<_>, _>>()?;
        let mut levels = Vec::new();
        for (l, &g) in groups.iter().enumerate() {
            let k = b.p.kernel("reduce_sum")?;
            k.mem(0, if l == 0 { &input } else { &partials[l - 1] })?;
            k.mem(1, &partials[l])?;
            k.local(2, 4 * LOCAL)?;
            levels.push((k, g));
        }
        Ok(Box::new(Reduce {
            rig,
            _b: b,
            levels,
            partials,
            _input: input,
            host,
        }))
    });
    Row {
        name: "reduce",
        size: format!("{}M floats, {} launches", n >> 20, groups.len()),
        metric: Metric::Rate {
            work: 4.0 * n as f64 / 1e9,
            unit: "GB/s",
        },
        outcomes,
        extra: vec![],
    }
}

// ----------------------------------------------------------------- scan

struct Scan<'a> {
    rig: &'a Rig,
    _b: Built<'a>,
    /// The launches in order: (kernel with its arguments set, groups).
    steps: Vec<(Kernel<'a>, usize)>,
    out: Mem<'a>,
    _bufs: Vec<Mem<'a>>,
    want: &'a [u32],
}

impl Instance for Scan<'_> {
    fn run(&mut self) -> Result<(), String> {
        for (k, groups) in &self.steps {
            self.rig.launch(k, &[groups * LOCAL], Some(&[LOCAL]))?;
        }
        self.rig.finish()
    }
    fn verify(&mut self) -> Result<String, String> {
        let got: Vec<u32> = self.rig.read(&self.out, self.want.len())?;
        match mismatch_exact(&got, self.want) {
            Some(m) => Err(m),
            None => Ok(String::new()),
        }
    }
}

pub fn scan(rigs: &[Rig], cfg: &Cfg) -> Row {
    let n = if cfg.quick { 1 << 20 } else { 16 << 20 };
    let mut rng = Rng::new(7);
    let input: Vec<u32> = (0..n).map(|_| rng.next_u32()).collect();
    let want: Vec<u32> = input
        .iter()
        .scan(0u32, |acc, &v| {
            *acc = acc.wrapping_add(v);
            Some(*acc)
        })
        .collect();
    // Level lengths, each a whole number of blocks: n, then the block sums
    // of the level below padded to a block, until one block holds a level.
    let mut counts = vec![n];
    while let Some(&c) = counts.last() {
        if c <= BLOCK {
            break;
        }
        counts.push((c / BLOCK).div_ceil(BLOCK) * BLOCK);
    }
    let (input, want, counts) = (&input[..], &want[..], &counts[..]);
    let outcomes = alternate(rigs, cfg.rounds, &|rig| {
        let b = built(rig, SCAN_CL, "scan_blocks")?;
        let inb = rig.upload(input)?;
        // bufs[0] = out, bufs[l] = level l's sums, last = the top's total.
        let mut bufs = counts
            .iter()
            .map(|&c| rig.buffer(4 * c))
            .collect::<Result<Vec<_>, _>>()?;
        bufs.push(rig.buffer(4)?);
        let mut steps = Vec::new();
        for (l, &c) in counts.iter().enumerate() {
            let k = b.p.kernel("scan_blocks")?;
            k.mem(0, if l == 0 { &inb } else { &bufs[l] })?;
            k.mem(1, &bufs[l])?;
            k.mem(2, &bufs[l + 1])?;
            k.local(3, 4 * BLOCK)?;
            steps.push((k, c / BLOCK));
        }
        for l in (0..counts.len() - 1).rev() {
            let k = b.p.kernel("add_offsets")?;
            k.mem(0, &bufs[l])?;
            k.mem(1, &bufs[l + 1])?;
            steps.push((k, counts[l] / BLOCK));
        }
        let out = bufs.remove(0);
        bufs.push(inb);
        Ok(Box::new(Scan {
            rig,
            _b: b,
            steps,
            out,
            _bufs: bufs,
            want,
        }))
    });
    Row {
        name: "scan",
        size: format!("{}M uints, {} launches", n >> 20, 2 * counts.len() - 1),
        metric: Metric::Rate {
            work: n as f64 / 1e6,
            unit: "Melem/s",
        },
        outcomes,
        extra: vec![],
    }
}

// ------------------------------------------------------------ histogram

struct Histogram<'a> {
    rig: &'a Rig,
    b: Built<'a>,
    hist: Mem<'a>,
    _data: Mem<'a>,
    groups: usize,
    want: &'a [u32],
}

impl Instance for Histogram<'_> {
    fn run(&mut self) -> Result<(), String> {
        self.rig.zero(&self.hist)?;
        self.rig
            .launch(&self.b.k, &[self.groups * LOCAL], Some(&[LOCAL]))?;
        self.rig.finish()
    }
    fn verify(&mut self) -> Result<String, String> {
        let got: Vec<u32> = self.rig.read(&self.hist, 256)?;
        match mismatch_exact(&got, self.want) {
            Some(m) => Err(format!("bins: {m}")),
            None => Ok(String::new()),
        }
    }
}

pub fn histogram(rigs: &[Rig], cfg: &Cfg) -> Row {
    let n = if cfg.quick { 4 << 20 } else { 64 << 20 };
    let per_group = 1usize << 16;
    let mut rng = Rng::new(8);
    // Skewed bytes (the product of two uniform ones' high bits), so some
    // bins are hot and the atomics contend.
    let data: Vec<u8> = (0..n)
        .map(|_| {
            let v = rng.next_u32();
            (((v & 0xffff) * (v >> 16)) >> 24) as u8
        })
        .collect();
    let mut want = vec![0u32; 256];
    data.iter().for_each(|&b| want[b as usize] += 1);
    let (data, want) = (&data[..], &want[..]);
    let outcomes = alternate(rigs, cfg.rounds, &|rig| {
        let b = built(rig, HISTOGRAM_CL, "histogram256")?;
        let db = rig.upload(data)?;
        let hist = rig.buffer(4 * 256)?;
        b.k.mem(0, &db)?;
        b.k.val(1, per_group as u32)?;
        b.k.mem(2, &hist)?;
        Ok(Box::new(Histogram {
            rig,
            b,
            hist,
            _data: db,
            groups: n / per_group,
            want,
        }))
    });
    Row {
        name: "histogram",
        size: format!("{}M bytes, 256 bins", n >> 20),
        metric: Metric::Rate {
            work: n as f64 / 1e9,
            unit: "GB/s",
        },
        outcomes,
        extra: vec![],
    }
}

// ----------------------------------------------------------------- spmv

struct Spmv<'a> {
    rig: &'a Rig,
    b: Built<'a>,
    y: Mem<'a>,
    _in: Vec<Mem<'a>>,
    rows: usize,
    want: &'a [(f64, f64)],
}

impl Instance for Spmv<'_> {
    fn run(&mut self) -> Result<(), String> {
        self.rig.launch(&self.b.k, &[self.rows], None)?;
        self.rig.finish()
    }
    fn verify(&mut self) -> Result<String, String> {
        let got: Vec<f32> = self.rig.read(&self.y, self.rows)?;
        let want: Vec<f64> = self.want.iter().map(|w| w.0).collect();
        match mismatch_f32(&got, &want, |i| 1e-6 * self.want[i].1 + 1e-7) {
            Some(m) => Err(m),
            None => Ok(String::new()),
        }
    }
}

pub fn spmv(rigs: &[Rig], cfg: &Cfg) -> Row {
    let rows = if cfg.quick { 1 << 16 } else { 1 << 20 };
    let mut rng = Rng::new(9);
    let mut row_ptr = vec![0u32];
    let (mut col, mut val) = (Vec::new(), Vec::new());
    for _ in 0..rows {
        // 8 to 24 entries a row (16 on average) in random columns.
        let k = 8 + rng.below(17);
        for _ in 0..k {
            col.push(rng.below(rows as u32));
            val.push(rng.f32_in(-1.0, 1.0));
        }
        row_ptr.push(col.len() as u32);
    }
    let x: Vec<f32> = (0..rows).map(|_| rng.f32_in(-1.0, 1.0)).collect();
    let want: Vec<(f64, f64)> = (0..rows)
        .map(|r| {
            (row_ptr[r]..row_ptr[r + 1]).fold((0.0, 0.0), |(s, a), k| {
                let t = val[k as usize] as f64 * x[col[k as usize] as usize] as f64;
                (s + t, a + t.abs())
            })
        })
        .collect();
    let nnz = col.len();
    let (row_ptr, col, val, x, want) = (&row_ptr[..], &col[..], &val[..], &x[..], &want[..]);
    let outcomes = alternate(rigs, cfg.rounds, &|rig| {
        let b = built(rig, SPMV_CL, "spmv_csr")?;
        let rp = rig.upload(row_ptr)?;
        let cb = rig.upload(col)?;
        let vb = rig.upload(val)?;
        let xb = rig.upload(x)?;
        let y = rig.buffer(4 * rows)?;
        b.k.val(0, rows as u32)?;
        b.k.mem(1, &rp)?;
        b.k.mem(2, &cb)?;
        b.k.mem(3, &vb)?;
        b.k.mem(4, &xb)?;
        b.k.mem(5, &y)?;
        Ok(Box::new(Spmv {
            rig,
            b,
            y,
            _in: vec![rp, cb, vb, xb],
            rows,
            want,
        }))
    });
    Row {
        name: "spmv",
        size: format!("{}K rows, {}M nnz", rows >> 10, nnz >> 20),
        metric: Metric::Rate {
            work: 2.0 * nnz as f64 / 1e9,
            unit: "GFLOP/s",
        },
        outcomes,
        extra: vec![],
    }
}

// ------------------------------------------------------------- launches

struct Launches<'a> {
    rig: &'a Rig,
    b: Built<'a>,
    counter: Mem<'a>,
    launches: usize,
    /// Wait for each launch before the next (latency) instead of one
    /// `clFinish` after all (throughput).
    wait_each: bool,
}

impl Instance for Launches<'_> {
    fn run(&mut self) -> Result<(), String> {
        self.rig.zero(&self.counter)?;
        for _ in 0..self.launches {
            self.rig.launch(&self.b.k, &[1], Some(&[1]))?;
            if self.wait_each {
                self.rig.finish()?;
            }
        }
        self.rig.finish()
    }
    fn verify(&mut self) -> Result<String, String> {
        let got: Vec<u32> = self.rig.read(&self.counter, 1)?;
        if got[0] as usize != self.launches {
            return Err(format!(
                "counter after {} launches: got {}",
                self.launches, got[0]
            ));
        }
        Ok(String::new())
    }
}

fn launches(rigs: &[Rig], cfg: &Cfg, wait_each: bool) -> Row {
    let count = match (cfg.quick, wait_each) {
        (true, _) => 1000,
        (false, false) => 10_000,
        (false, true) => 2000,
    };
    let outcomes = alternate(rigs, cfg.rounds, &|rig| {
        let b = built(rig, TINY_CL, "tiny")?;
        let counter = rig.buffer(4)?;
        b.k.mem(0, &counter)?;
        Ok(Box::new(Launches {
            rig,
            b,
            counter,
            launches: count,
            wait_each,
        }))
    });
    Row {
        name: if wait_each { "launch+wait" } else { "launch" },
        size: if wait_each {
            format!("{count} x (launch, clFinish)")
        } else {
            format!("{count} launches, 1 clFinish")
        },
        metric: Metric::PerOp {
            ops: count as f64,
            unit: "us/launch",
        },
        outcomes,
        extra: vec![],
    }
}

pub fn launch(rigs: &[Rig], cfg: &Cfg) -> Row {
    launches(rigs, cfg, false)
}

pub fn launch_wait(rigs: &[Rig], cfg: &Cfg) -> Row {
    launches(rigs, cfg, true)
}

// --------------------------------------------------- one-item work-groups

struct Groups1<'a> {
    rig: &'a Rig,
    b: Built<'a>,
    out: Mem<'a>,
    n: usize,
}

impl Instance for Groups1<'_> {
    fn run(&mut self) -> Result<(), String> {
        self.rig.launch(&self.b.k, &[self.n], Some(&[1]))?;
        self.rig.finish()
    }
    fn verify(&mut self) -> Result<String, String> {
        let got: Vec<u32> = self.rig.read(&self.out, self.n)?;
        match (0..self.n).find(|&i| got[i] != (i as u32).wrapping_mul(3).wrapping_add(1)) {
            Some(i) => Err(format!("out[{i}]: got {}", got[i])),
            None => Ok(String::new()),
        }
    }
}

/// One launch of `n` work-items in work-groups of one (a local size of 1).
pub fn groups1(rigs: &[Rig], cfg: &Cfg) -> Row {
    let n: usize = if cfg.quick { 1 << 18 } else { 1 << 21 };
    let outcomes = alternate(rigs, cfg.rounds, &|rig| {
        let b = built(rig, GROUPS1_CL, "groups1")?;
        let out = rig.buffer(4 * n)?;
        b.k.mem(0, &out)?;
        Ok(Box::new(Groups1 { rig, b, out, n }))
    });
    Row {
        name: "groups1",
        size: format!("{n} work-groups of 1"),
        metric: Metric::PerOp {
            ops: n as f64 / 1000.0,
            unit: "ns/group",
        },
        outcomes,
        extra: vec![],
    }
}
