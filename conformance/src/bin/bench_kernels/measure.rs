//! How a kernel is measured: each platform prepares an [`Instance`] (program
//! built, buffers uploaded), runs it once to warm up, then the instances run
//! in alternation for a number of rounds (so a busy machine slows both
//! alike) and the best round counts; finally each instance reads its results
//! back and compares them with the host reference. A wrong result is reported
//! as wrong, never as a figure.

use crate::rig::Rig;
use std::time::{Duration, Instant};

/// One platform's prepared copy of a benchmark.
pub trait Instance {
    /// The timed part: enqueue the benchmark's commands and wait for them.
    fn run(&mut self) -> Result<(), String>;
    /// Reads the results back and compares them with the host reference:
    /// `Ok(note)` (a remark for the table, often empty) or `Err(first mismatch)`.
    fn verify(&mut self) -> Result<String, String>;
}

/// A platform's outcome: the best time and the verification verdict.
pub struct Measured {
    pub best: Duration,
    /// `Ok(note)` or `Err(why the result is wrong)`.
    pub verdict: Result<String, String>,
}

/// A prepared instance and its best time so far.
type Live<'a> = Result<(Box<dyn Instance + 'a>, Duration), String>;

/// Per platform (label, outcome): `Err` when it could not run at all.
pub type Outcomes = Vec<(&'static str, Result<Measured, String>)>;

/// Prepares the benchmark on every rig, warms up, times `rounds`
/// alternating rounds and verifies.
pub fn alternate<'a>(
    rigs: &'a [Rig],
    rounds: usize,
    prepare: &dyn Fn(&'a Rig) -> Result<Box<dyn Instance + 'a>, String>,
) -> Outcomes {
    let mut live: Vec<(&'static str, Live<'a>)> = rigs
        .iter()
        .map(|rig| {
            let inst = prepare(rig).and_then(|mut i| {
                i.run().map_err(|e| format!("warm-up run: {e}"))?;
                Ok((i, Duration::MAX))
            });
            (rig.label, inst)
        })
        .collect();
    for _ in 0..rounds {
        for (_, slot) in live.iter_mut() {
            let Ok((inst, best)) = slot else { continue };
            let start = Instant::now();
            match inst.run() {
                Ok(()) => *best = (*best).min(start.elapsed()),
                Err(e) => *slot = Err(e),
            }
        }
    }
    live.into_iter()
        .map(|(label, slot)| {
            (
                label,
                slot.map(|(mut inst, best)| Measured {
                    best,
                    verdict: inst.verify(),
                }),
            )
        })
        .collect()
}

/// The first index where `got` and `want` differ by more than `tol(i)`, as a
/// message; `None` when all agree (and the lengths match).
pub fn mismatch_f32(got: &[f32], want: &[f64], tol: impl Fn(usize) -> f64) -> Option<String> {
    if got.len() != want.len() {
        return Some(format!("{} results, expected {}", got.len(), want.len()));
    }
    let bad = (0..got.len())
        .filter(|&i| {
            let d = (got[i] as f64 - want[i]).abs();
            d.is_nan() || d > tol(i)
        })
        .collect::<Vec<_>>();
    let &first = bad.first()?;
    Some(format!(
        "{} of {} wrong; first at index {first}: got {}, expected {} (tolerance {:.3e})",
        bad.len(),
        got.len(),
        got[first],
        want[first],
        tol(first)
    ))
}

/// The first index where two integer slices differ, as a message.
pub fn mismatch_exact<T: PartialEq + std::fmt::Debug>(got: &[T], want: &[T]) -> Option<String> {
    if got.len() != want.len() {
        return Some(format!("{} results, expected {}", got.len(), want.len()));
    }
    let bad = got.iter().zip(want).filter(|(g, w)| g != w).count();
    let first = got.iter().zip(want).position(|(g, w)| g != w)?;
    Some(format!(
        "{bad} of {} wrong; first at index {first}: got {:?}, expected {:?}",
        got.len(),
        got[first],
        want[first]
    ))
}

/// A small deterministic generator (splitmix64) for the inputs.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }

    /// Uniform in [lo, hi).
    pub fn f32_in(&mut self, lo: f32, hi: f32) -> f32 {
        let u = (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        lo + (hi - lo) * u
    }

    pub fn below(&mut self, n: u32) -> u32 {
        ((self.next_u32() as u64 * n as u64) >> 32) as u32
    }
}
