//! Kernel benchmark (not a test): the same OpenCL C kernels on cranecl and
//! pocl in one process, through one loader that sees both, platforms chosen
//! by name; every result checked against a host reference. Run it as a
//! release build:
//!
//! ```text
//! cargo run --release -p cranecl-conformance --bin bench_kernels [-- --quick] [-- --only sgemm,scan]
//! ```
//!
//! Kernels (`conformance/bench/*.cl`): triad on 64M floats (GB/s, and as a
//! share of this machine's memcpy), mandelbrot 2048², n-body 16384 (float4,
//! local tiles), SGEMM 1024³ with 16x16 local tiles, a tree reduction of 16M
//! floats, a scan of 16M uints, a 256-bin histogram with local atomics, CSR
//! SpMV, a 5x5 convolution with a constant filter, a bilinear resample of a
//! 4096² RGBA8 image through a sampler (image reads), 10,000 tiny launches
//! (and launch-then-wait latency), 2M work-groups of one work-item (the
//! cost of a work-group), and the build time of each program.
//!
//! How it measures (`measure.rs`): each platform builds and uploads once,
//! runs once to warm up, then the platforms run in alternation and the best
//! of `--rounds` (default 5, 3 with `--quick`) counts; the time is wall time
//! from the first enqueue to the end of `clFinish`. A result that disagrees
//! with the host reference is shown as WRONG with its first mismatch.
//!
//! Without `--only`, each benchmark runs in a child process of this binary
//! (still both platforms in one process), so a crash or a hang in one is
//! reported and the others still run. Flags: `--quick` (smaller sizes),
//! `--only a,b` (these benchmarks, in this process), `--rounds N`,
//! `--list`, `--checks bounds;all` (also cranecl under each of these
//! `CRANECL_CHECK` values, with its cost against unchecked cranecl in the
//! last column; a checked run that reports fails, so a false positive shows),
//! `--oclgrind` (also Oclgrind, from the `oclgrind` package, likewise),
//! `--cranecl-only` (cranecl alone, its library loaded directly from
//! `CRANECL_SO` with no loader: for machines without pocl or ocl-icd, such
//! as a many-core machine where only thread scaling is compared).
//! `BENCH_CASE_TIMEOUT` (seconds, default 900) bounds each child.

mod builds;
mod dense;
mod image;
mod irregular;
mod measure;
mod rig;

use cranecl_conformance::{cranecl_so, setup_both, setup_with_oclgrind, vendors_pocl};
use measure::Outcomes;
use rig::Rig;
use std::io::Read;
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

const POCL: &str = "Portable Computing Language";

/// Run settings.
pub struct Cfg {
    pub quick: bool,
    pub rounds: usize,
    /// `--checks`: `CRANECL_CHECK` values, each measured as one more
    /// cranecl platform (`cranecl[VALUE]`) against unchecked cranecl.
    pub checks: Vec<String>,
    /// `--oclgrind`: Oclgrind as one more platform (its time against
    /// unchecked cranecl in the last column).
    pub oclgrind: bool,
    /// `--cranecl-only`: no loader, no pocl.
    pub cranecl_only: bool,
}

/// How a run's time turns into the table's figure.
pub enum Metric {
    /// `work` units per run: figure = work / seconds (e.g. GB per run, GB/s).
    Rate { work: f64, unit: &'static str },
    /// `ops` operations per run: figure = microseconds per operation.
    PerOp { ops: f64, unit: &'static str },
}

impl Metric {
    fn figure(&self, d: Duration) -> String {
        match self {
            Metric::Rate { work, unit } => format!("{:.2} {unit}", work / d.as_secs_f64()),
            Metric::PerOp { ops, unit } => format!("{:.2} {unit}", d.as_secs_f64() * 1e6 / ops),
        }
    }
}

/// One benchmark's line of the table, and notes printed under the table.
pub struct Row {
    pub name: &'static str,
    pub size: String,
    pub metric: Metric,
    pub outcomes: Outcomes,
    pub extra: Vec<String>,
}

type CaseFn = fn(&[Rig], &Cfg) -> Row;

const CASES: &[(&str, CaseFn)] = &[
    ("triad", dense::triad),
    ("mandelbrot", dense::mandelbrot),
    ("nbody", dense::nbody),
    ("sgemm", dense::sgemm),
    ("reduce", irregular::reduce),
    ("scan", irregular::scan),
    ("histogram", irregular::histogram),
    ("spmv", irregular::spmv),
    ("conv5x5", dense::conv5x5),
    ("resample", image::resample),
    ("launch", irregular::launch),
    ("launch+wait", irregular::launch_wait),
    ("groups1", irregular::groups1),
];

/// The pseudo-benchmark that measures build times.
const BUILD: &str = "build";

fn header() -> String {
    format!(
        "{:12} {:34} {:>11} {:>11} {:>9}  {:>16} {:>16}  {}",
        "kernel", "size", "cranecl ms", "pocl ms", "cl/pocl", "cranecl", "pocl", "check"
    )
}

/// The row's table line and its notes (failures in full).
fn format_row(row: &Row) -> (String, Vec<String>) {
    let mut notes = row.extra.clone();
    let mut times = Vec::new();
    let mut figures = Vec::new();
    let mut checks = Vec::new();
    for label in ["cranecl", "pocl"] {
        let Some((_, o)) = row.outcomes.iter().find(|(l, _)| *l == label) else {
            times.push(("-".to_string(), None));
            figures.push("-".to_string());
            continue;
        };
        match o {
            Ok(m) => {
                let t = format!("{:.3}", m.best.as_secs_f64() * 1e3);
                match &m.verdict {
                    Ok(note) => {
                        times.push((t, Some(m.best)));
                        figures.push(row.metric.figure(m.best));
                        if !note.is_empty() {
                            checks.push(format!("{label}: {note}"));
                        }
                    }
                    Err(e) => {
                        times.push((format!("({t})"), None));
                        figures.push("WRONG".to_string());
                        checks.push(format!("{label} WRONG"));
                        notes.push(format!("{} on {label}: WRONG result: {e}", row.name));
                    }
                }
            }
            Err(e) => {
                times.push(("FAILED".to_string(), None));
                figures.push("FAILED".to_string());
                checks.push(format!("{label} FAILED"));
                notes.push(format!("{} on {label}: {e}", row.name));
            }
        }
    }
    let ratio = match (times[0].1, times[1].1) {
        (Some(a), Some(b)) => format!("{:.2}x", a.as_secs_f64() / b.as_secs_f64()),
        _ => "-".to_string(),
    };
    // Checked mode's cost: each `cranecl[CHECKS]` against unchecked cranecl.
    let mut costs = Vec::new();
    for (label, o) in row
        .outcomes
        .iter()
        .filter(|(l, _)| l.starts_with("cranecl[") || *l == "oclgrind")
    {
        let cost = match o {
            Ok(m) if m.verdict.is_ok() => match times[0].1 {
                Some(base) => format!(
                    "{label} {:.3} ms {:.2}x",
                    m.best.as_secs_f64() * 1e3,
                    m.best.as_secs_f64() / base.as_secs_f64()
                ),
                None => format!("{label} {:.3} ms", m.best.as_secs_f64() * 1e3),
            },
            Ok(m) => {
                notes.push(format!(
                    "{} on {label}: WRONG result: {:?}",
                    row.name, m.verdict
                ));
                format!("{label} WRONG")
            }
            Err(e) => {
                notes.push(format!("{} on {label}: {e}", row.name));
                format!("{label} FAILED")
            }
        };
        costs.push(cost);
    }
    if !costs.is_empty() {
        checks.push(costs.join(", "));
    }
    let check = if checks.is_empty() {
        "ok".to_string()
    } else {
        checks.join("; ")
    };
    (
        format!(
            "{:12} {:34} {:>11} {:>11} {:>9}  {:>16} {:>16}  {}",
            row.name, row.size, times[0].0, times[1].0, ratio, figures[0], figures[1], check
        ),
        notes,
    )
}

/// Output lines of one process: table rows, build rows and notes. In a
/// child each is printed at once, tagged, for the parent to collect.
struct Out {
    tagged: bool,
    rows: Vec<String>,
    builds: Vec<String>,
    notes: Vec<String>,
}

impl Out {
    fn push(&mut self, tag: char, line: String) {
        if self.tagged {
            // One tagged line per line (a build log has many).
            line.lines().for_each(|l| println!("{tag}|{l}"));
            return;
        }
        match tag {
            'K' => self.rows.push(line),
            'B' => self.builds.push(line),
            _ => self.notes.push(line),
        }
    }

    fn print(&self, cfg: &Cfg) {
        println!(
            "\n== kernels ({}; best of {} alternating rounds; cl/pocl = cranecl time / pocl time, goal <= 2x)",
            if cfg.quick { "--quick sizes" } else { "full sizes" },
            cfg.rounds
        );
        println!("{}", header());
        self.rows.iter().for_each(|l| println!("{l}"));
        if !self.builds.is_empty() {
            println!("\n== clBuildProgram wall time (cranecl goal <= 10 ms)");
            self.builds.iter().for_each(|l| println!("{l}"));
        }
        if !self.notes.is_empty() {
            println!("\n== notes");
            self.notes.iter().for_each(|l| println!("{l}"));
        }
    }
}

fn rigs(cfg: &Cfg) -> Vec<Rig> {
    let t = if cfg.cranecl_only {
        cranecl_conformance::direct()
    } else {
        cranecl_conformance::cl()
    };
    let mut rigs = Vec::new();
    let checked = cfg.checks.iter().map(|c| {
        // A label lives as long as the process (a few per run).
        let label: &'static str = Box::leak(format!("cranecl[{c}]").into_boxed_str());
        ("cranecl", label, Some(c.as_str()))
    });
    let oclgrind = cfg.oclgrind.then_some(("Oclgrind", "oclgrind", None));
    let pocl = (!cfg.cranecl_only).then_some((POCL, "pocl", None));
    let all = [("cranecl", "cranecl", None)]
        .into_iter()
        .chain(pocl)
        .chain(checked)
        .chain(oclgrind);
    for (name, label, check) in all {
        // cranecl reads CRANECL_CHECK when a context is created.
        match check {
            Some(c) => std::env::set_var("CRANECL_CHECK", c),
            None => std::env::remove_var("CRANECL_CHECK"),
        }
        match Rig::new(t, name, label) {
            Some(Ok(r)) => rigs.push(r),
            Some(Err(e)) => eprintln!("bench_kernels: {label}: {e}"),
            None => eprintln!("bench_kernels: the loader lists no {label} platform"),
        }
    }
    std::env::remove_var("CRANECL_CHECK");
    rigs
}

/// Runs `names` in this process.
fn in_process(names: &[String], cfg: &Cfg, out: &mut Out) {
    if cfg.cranecl_only {
        // No loader: `rigs` loads the library directly.
    } else if cfg.oclgrind {
        setup_with_oclgrind();
    } else {
        setup_both();
    }
    let rigs = rigs(cfg);
    for name in names {
        if name == BUILD {
            let cold = if cfg.cranecl_only {
                vec![]
            } else {
                pocl_cold_builds()
            };
            let (lines, notes) = builds::table(&rigs, &cold);
            lines.into_iter().for_each(|l| out.push('B', l));
            notes.into_iter().for_each(|l| out.push('X', l));
            continue;
        }
        let Some((_, f)) = CASES.iter().find(|(n, _)| n == name) else {
            continue;
        };
        eprintln!("bench_kernels: {name}...");
        let (line, notes) = format_row(&f(&rigs, cfg));
        out.push('K', line);
        notes.into_iter().for_each(|l| out.push('X', l));
    }
}

/// Cold pocl build times from a child process with `POCL_KERNEL_CACHE=0`.
fn pocl_cold_builds() -> Vec<(String, Result<Duration, String>)> {
    let Some(pocl) = vendors_pocl() else {
        return vec![];
    };
    let run = || -> Result<String, String> {
        let exe = std::env::current_exe().map_err(|e| e.to_string())?;
        let out = Command::new(exe)
            .arg("--pocl-cold-builds")
            .env("CRANECL_CONFORMANCE_VENDORS", pocl)
            .env("POCL_KERNEL_CACHE", "0")
            .stderr(Stdio::inherit())
            .output()
            .map_err(|e| e.to_string())?;
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    };
    match run() {
        Ok(s) => builds::parse_cold(&s),
        Err(e) => {
            eprintln!("bench_kernels: cold pocl builds: {e}");
            vec![]
        }
    }
}

/// Runs one benchmark in a child process and collects its tagged lines.
fn in_child(name: &str, cfg: &Cfg, out: &mut Out, timeout: Duration) {
    let mut spawn = || -> Result<String, String> {
        let exe = std::env::current_exe().map_err(|e| e.to_string())?;
        let mut cmd = Command::new(exe);
        cmd.args([
            "--child",
            "--only",
            name,
            "--rounds",
            &cfg.rounds.to_string(),
        ]);
        if cfg.quick {
            cmd.arg("--quick");
        }
        if !cfg.checks.is_empty() {
            cmd.args(["--checks", &cfg.checks.join(";")]);
        }
        if cfg.oclgrind {
            cmd.arg("--oclgrind");
        }
        if cfg.cranecl_only {
            cmd.arg("--cranecl-only");
        }
        let mut child = cmd
            .env("CRANECL_SO", cranecl_so())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| e.to_string())?;
        let mut stdout = child.stdout.take().ok_or("no stdout")?;
        let reader = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = stdout.read_to_string(&mut s);
            s
        });
        let start = Instant::now();
        let status = loop {
            if let Some(s) = child.try_wait().map_err(|e| e.to_string())? {
                break Some(s);
            }
            if start.elapsed() > timeout {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        let text = reader.join().unwrap_or_default();
        let mut saw_row = false;
        for line in text.lines() {
            if let Some((tag, rest)) = line.split_once('|') {
                if let Some(c @ ('K' | 'B' | 'X')) = tag.chars().next().filter(|_| tag.len() == 1) {
                    saw_row |= c != 'X';
                    out.push(c, rest.to_string());
                    continue;
                }
            }
            println!("{line}");
        }
        match status {
            None => Err(format!("timed out after {} s (killed)", timeout.as_secs())),
            Some(s) if !s.success() && !saw_row => Err(format!("child process died: {s}")),
            Some(s) if !s.success() => {
                out.push('X', format!("{name}: child exited with {s} after its row"));
                Ok(text)
            }
            Some(_) => Ok(text),
        }
    };
    if let Err(e) = spawn() {
        out.push('K', format!("{name:12} CRASHED: {e}"));
        out.push(
            'X',
            format!("{name}: {e} (rerun with --only {name} to see it)"),
        );
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut cfg = Cfg {
        quick: false,
        rounds: 0,
        checks: vec![],
        oclgrind: false,
        cranecl_only: false,
    };
    let (mut only, mut child) = (None::<Vec<String>>, false);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--quick" => cfg.quick = true,
            "--child" => child = true,
            "--oclgrind" => cfg.oclgrind = true,
            "--cranecl-only" => cfg.cranecl_only = true,
            "--list" => {
                CASES.iter().for_each(|(n, _)| println!("{n}"));
                println!("{BUILD}");
                return ExitCode::SUCCESS;
            }
            "--pocl-cold-builds" => {
                let t = cranecl_conformance::cl();
                match Rig::new(t, POCL, "pocl") {
                    Some(Ok(rig)) => builds::pocl_cold_child(&rig),
                    Some(Err(e)) => eprintln!("bench_kernels: pocl: {e}"),
                    None => eprintln!("bench_kernels: no pocl platform in the child"),
                }
                return ExitCode::SUCCESS;
            }
            "--only" => {
                let Some(v) = it.next() else {
                    eprintln!("bench_kernels: --only needs a name (see --list)");
                    return ExitCode::FAILURE;
                };
                only = Some(v.split(',').map(str::to_string).collect());
            }
            "--checks" => {
                let Some(v) = it.next() else {
                    eprintln!(
                        "bench_kernels: --checks needs CRANECL_CHECK values (e.g. bounds;all)"
                    );
                    return ExitCode::FAILURE;
                };
                cfg.checks = v.split(';').map(str::to_string).collect();
            }
            "--rounds" => match it.next().and_then(|v| v.parse().ok()) {
                Some(n) => cfg.rounds = n,
                None => {
                    eprintln!("bench_kernels: --rounds needs a number");
                    return ExitCode::FAILURE;
                }
            },
            other => {
                eprintln!("bench_kernels: unknown argument {other} (flags: --quick, --only a,b, --rounds N, --checks a;b, --oclgrind, --cranecl-only, --list)");
                return ExitCode::FAILURE;
            }
        }
    }
    if cfg.rounds == 0 {
        cfg.rounds = if cfg.quick { 3 } else { 5 };
    }
    let known = |n: &String| n == BUILD || CASES.iter().any(|(c, _)| c == n);
    if let Some(bad) = only.iter().flatten().find(|n| !known(n)) {
        eprintln!("bench_kernels: no benchmark named {bad} (see --list)");
        return ExitCode::FAILURE;
    }
    let mut out = Out {
        tagged: child,
        rows: vec![],
        builds: vec![],
        notes: vec![],
    };
    if child {
        in_process(&only.unwrap_or_default(), &cfg, &mut out);
        return ExitCode::SUCCESS;
    }
    if cfg!(debug_assertions) {
        eprintln!(
            "bench_kernels: a debug build; run with --release for figures that mean anything"
        );
    }
    if cfg.cranecl_only {
        println!("cranecl only: {} (loaded directly)", cranecl_so().display());
    } else {
        let vendors = if cfg.oclgrind {
            setup_with_oclgrind()
        } else {
            setup_both()
        };
        println!("loader vendors folder: {}", vendors.display());
    }
    match only {
        Some(names) => in_process(&names, &cfg, &mut out),
        None => {
            let timeout = Duration::from_secs(
                std::env::var("BENCH_CASE_TIMEOUT")
                    .ok()
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(900),
            );
            let names = CASES
                .iter()
                .map(|(n, _)| n.to_string())
                .chain([BUILD.to_string()]);
            for name in names {
                in_child(&name, &cfg, &mut out, timeout);
            }
        }
    }
    out.print(&cfg);
    let failed = out
        .rows
        .iter()
        .any(|l| l.contains("WRONG") || l.contains("FAILED") || l.contains("CRASHED"));
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
