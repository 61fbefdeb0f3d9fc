//! Build times: the wall time of `clBuildProgram` for every benchmark
//! program, on fresh program objects. cranecl: the first build in the
//! process and the best of the next few. pocl: with its kernel cache warm
//! (the program built once first), and cold, `POCL_KERNEL_CACHE=0`, which
//! pocl reads once per process, so a child process of this binary (see
//! [`pocl_cold_child`]) measures it through a loader that sees pocl alone.

use crate::rig::Rig;
use std::time::Duration;

/// Every program the benchmark builds, by file name.
pub const PROGRAMS: &[(&str, &str)] = &[
    ("triad.cl", include_str!("../../../bench/triad.cl")),
    (
        "mandelbrot.cl",
        include_str!("../../../bench/mandelbrot.cl"),
    ),
    ("nbody.cl", include_str!("../../../bench/nbody.cl")),
    ("sgemm.cl", include_str!("../../../bench/sgemm.cl")),
    ("reduce.cl", include_str!("../../../bench/reduce.cl")),
    ("scan.cl", include_str!("../../../bench/scan.cl")),
    ("histogram.cl", include_str!("../../../bench/histogram.cl")),
    ("spmv.cl", include_str!("../../../bench/spmv.cl")),
    ("conv5x5.cl", include_str!("../../../bench/conv5x5.cl")),
    ("resample.cl", include_str!("../../../bench/resample.cl")),
    ("tiny.cl", include_str!("../../../bench/tiny.cl")),
];

/// The builds after the first that count (best of).
const REPEATS: usize = 3;

/// (first build, best of the next [`REPEATS`]) of `src` on `rig`.
fn times(rig: &Rig, src: &str) -> Result<(Duration, Duration), String> {
    let (_, first) = rig.build(src, "")?;
    let mut best = Duration::MAX;
    for _ in 0..REPEATS {
        best = best.min(rig.build(src, "")?.1);
    }
    Ok((first, best))
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1e3)
}

/// The build table's lines: one per program, then the notes (build
/// failures with their logs).
pub fn table(
    rigs: &[Rig],
    cold: &[(String, Result<Duration, String>)],
) -> (Vec<String>, Vec<String>) {
    let mut lines = vec![format!(
        "{:14} {:>12} {:>12} {:>12} {:>14} {:>12}",
        "program", "cranecl 1st", "cranecl", "pocl warm", "pocl cold", "cold/cranecl"
    )];
    let mut notes = Vec::new();
    for (name, src) in PROGRAMS {
        let mut cells = Vec::new();
        let mut ours = None;
        for label in ["cranecl", "pocl"] {
            let Some(rig) = rigs.iter().find(|r| r.label == label) else {
                cells.push("-".to_string());
                cells.push("-".to_string());
                continue;
            };
            match times(rig, src) {
                Ok((first, best)) => {
                    if label == "cranecl" {
                        ours = Some(best);
                        cells.push(ms(first));
                    }
                    cells.push(ms(best));
                }
                Err(e) => {
                    if label == "cranecl" {
                        cells.push("FAILED".to_string());
                    }
                    cells.push("FAILED".to_string());
                    notes.push(format!("build {name} on {label}: {e}"));
                }
            }
        }
        if rigs.iter().all(|r| r.label != "pocl") {
            cells.pop();
        }
        let cold_time = cold.iter().find(|(n, _)| n == name).map(|(_, r)| r);
        match cold_time {
            Some(Ok(d)) => cells.push(ms(*d)),
            Some(Err(e)) => {
                cells.push("FAILED".to_string());
                notes.push(format!("cold build {name} on pocl: {e}"));
            }
            None => cells.push("-".to_string()),
        }
        let ratio = match (cold_time, ours) {
            (Some(Ok(c)), Some(o)) => format!("{:.1}x", c.as_secs_f64() / o.as_secs_f64()),
            _ => "-".to_string(),
        };
        while cells.len() < 4 {
            cells.push("-".to_string());
        }
        lines.push(format!(
            "{:14} {:>12} {:>12} {:>12} {:>14} {:>12}",
            name, cells[0], cells[1], cells[2], cells[3], ratio
        ));
    }
    (lines, notes)
}

/// In the child process: builds every program on pocl (through a loader
/// that sees pocl alone, `POCL_KERNEL_CACHE=0` set by the parent) and prints
/// `COLD\t<file>\t<best ns>` or `COLD\t<file>\tERR <message>` per program.
pub fn pocl_cold_child(rig: &Rig) {
    for (name, src) in PROGRAMS {
        match times(rig, src) {
            Ok((first, best)) => println!("COLD\t{name}\t{}", first.min(best).as_nanos()),
            Err(e) => println!("COLD\t{name}\tERR {}", e.replace(['\n', '\t'], " ")),
        }
    }
}

/// Parses the child's output.
pub fn parse_cold(out: &str) -> Vec<(String, Result<Duration, String>)> {
    out.lines()
        .filter_map(|l| {
            let mut f = l.splitn(3, '\t');
            (f.next()? == "COLD").then_some(())?;
            let name = f.next()?.to_string();
            let v = f.next()?;
            Some((
                name,
                match v.strip_prefix("ERR ") {
                    Some(e) => Err(e.to_string()),
                    None => v
                        .parse::<u64>()
                        .map(Duration::from_nanos)
                        .map_err(|e| format!("{v}: {e}")),
                },
            ))
        })
        .collect()
}
