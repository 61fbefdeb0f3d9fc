//! The front-end benchmark of issue 3 ("Measure"), and the full build time of
//! issue 4: `cargo run --release -p cranecl-jit --bin bench_frontend [-- --reps N] [--no-pocl]`.
//!
//! It measures, each figure the median of `reps` runs (after one warm-up):
//! 1. `frontend::compile` on a generated 10,000-line program (see `generate`),
//!    in ms and lines/s, and per phase (preprocess, parse, sema, called as
//!    `frontend.rs` calls them); then Cranelift code generation of its HIR;
//! 2. the same on a generated ~200-line program (one unit: six kernels);
//! 3. every corpus program (`tests/corpus/<category>/*.cl`, built with its
//!    `// RUN:` options): front-end time, and front end + `codegen::compile`
//!    where the front end accepts the program; median, p90 and max;
//! 4. pocl's `clBuildProgram` on the realistic kernels (`corpus/kernels/`) and
//!    the ~200-line program, with its kernel cache off and warm (see `pocl`),
//!    beside cranecl's full build time, with the ratio.
//!
//! The `--pocl-child <jobs> <reps>` form is the child process of step 4.

mod generate;
mod pocl;

use cranecl_jit::codegen::{self, CodegenOptions};
use cranecl_jit::diag::Diagnostics;
use cranecl_jit::frontend;
use cranecl_jit::options::BuildOptions;
use cranecl_jit::parse::{self, ParseOptions};
use cranecl_jit::preprocess::{self, PreprocessOptions};
use cranecl_jit::sema::{self, SemaOptions};
use cranecl_jit::source::SourceMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, jobs, reps] = args.as_slice() {
        if flag == "--pocl-child" {
            let reps = reps.parse().unwrap_or(3);
            return match pocl::child_main(Path::new(jobs), reps) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("{e}");
                    ExitCode::FAILURE
                }
            };
        }
    }
    let mut reps = 5usize;
    let mut with_pocl = true;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--reps" => {
                reps = it
                    .next()
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(reps)
                    .max(1)
            }
            "--no-pocl" => with_pocl = false,
            _ => {
                eprintln!("usage: bench_frontend [--reps N] [--no-pocl]");
                return ExitCode::FAILURE;
            }
        }
    }
    match run(reps, with_pocl) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bench_frontend: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(reps: usize, with_pocl: bool) -> Result<(), String> {
    println!("bench_frontend: median of {reps} runs each (after one warm-up)");
    let big = generate::program(10_000);
    bench_generated("generated 10k-line program", &big, reps)?;
    let typical = generate::program(200);
    let typical_full = bench_generated("generated ~200-line program", &typical, reps * 10)?;
    let corpus = load_corpus()?;
    let full_times = bench_corpus(&corpus, reps);
    if with_pocl {
        compare_with_pocl(&corpus, &full_times, &typical, typical_full, reps)?;
    }
    Ok(())
}

/// Wall time of `f` in ms.
fn time_ms<T>(f: impl FnOnce() -> T) -> (f64, T) {
    let start = Instant::now();
    let value = f();
    (start.elapsed().as_secs_f64() * 1e3, value)
}

/// The median and the minimum of `runs` timings.
#[derive(Clone, Copy)]
struct Sample {
    median: f64,
    min: f64,
}

/// `runs` calls of `f` (after one warm-up call), each returning ms.
fn sample(runs: usize, mut f: impl FnMut() -> f64) -> Sample {
    f();
    let mut v: Vec<f64> = (0..runs).map(|_| f()).collect();
    Sample {
        median: percentile(&mut v, 50.0),
        min: percentile(&mut v, 0.0),
    }
}

/// Nearest-rank percentile `p` of `v` (sorts it); 0 for an empty slice.
fn percentile(v: &mut [f64], p: f64) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    let rank = ((p / 100.0) * v.len() as f64).ceil() as usize;
    v[rank.clamp(1, v.len()) - 1]
}

/// Per-phase front-end times in ms (preprocess, parse, sema), as `frontend::compile` runs them.
fn phase_times(source: &str, file_name: &str, options: &BuildOptions) -> [f64; 3] {
    let std = options.cl_std.unwrap_or_default();
    let mut sm = SourceMap::new();
    let main = sm.add(file_name, source);
    let mut diags = Diagnostics::new();
    let pp = PreprocessOptions {
        defines: options.defines.clone(),
        include_dirs: options.include_dirs.clone(),
        embedded_headers: Vec::new(),
        cl_std: std,
        fast_relaxed_math: options.fast_relaxed_math,
        single_precision_constant: options.single_precision_constant,
    };
    let (t_pp, tokens) = time_ms(|| preprocess::preprocess(&mut sm, main, &pp, &mut diags));
    let popts = ParseOptions {
        opencl_c_version: std.version(),
    };
    let (t_parse, tu) = time_ms(|| parse::parse_with(&tokens, popts, &mut diags));
    let mut so = SemaOptions::for_std(std);
    so.single_precision_constant = options.single_precision_constant;
    let (t_sema, _program) = time_ms(|| sema::check_with_sources(&tu, &so, &mut diags, Some(&sm)));
    [t_pp, t_parse, t_sema]
}

/// Code generation of a checked program in ms (`Err`: its message or panic).
fn codegen_ms(program: &sema::hir::Program, options: &BuildOptions) -> Result<f64, String> {
    let copts = CodegenOptions {
        optimize: !options.opt_disable,
        ..CodegenOptions::default()
    };
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        time_ms(|| codegen::compile(program, &copts))
    }));
    match outcome {
        Ok((ms, Ok(code))) => {
            drop(code);
            Ok(ms)
        }
        Ok((_, Err(e))) => Err(e),
        Err(_) => Err("code generation panicked".into()),
    }
}

/// Benchmarks one generated program; returns its full build time (front end + codegen).
fn bench_generated(title: &str, source: &str, reps: usize) -> Result<f64, String> {
    let options = BuildOptions::parse("-cl-std=CL1.2").map_err(|e| e.to_string())?;
    let lines = source.lines().count();
    let out = frontend::compile(source, "generated.cl", &options, &[]);
    let program = out
        .program
        .filter(|_| out.success)
        .ok_or_else(|| format!("{title} does not compile:\n{}", out.log))?;
    let fe = sample(reps, || {
        time_ms(|| frontend::compile(source, "generated.cl", &options, &[])).0
    });
    let mut per_phase = [Vec::new(), Vec::new(), Vec::new()];
    phase_times(source, "generated.cl", &options);
    for _ in 0..reps {
        for (v, t) in per_phase
            .iter_mut()
            .zip(phase_times(source, "generated.cl", &options))
        {
            v.push(t);
        }
    }
    let phases = per_phase.map(|mut v| Sample {
        median: percentile(&mut v, 50.0),
        min: percentile(&mut v, 0.0),
    });
    let mut cg_err = None;
    let cg = sample(reps, || match codegen_ms(&program, &options) {
        Ok(ms) => ms,
        Err(e) => {
            cg_err = Some(e);
            0.0
        }
    });
    let full = Sample {
        median: fe.median + cg.median,
        min: fe.min + cg.min,
    };
    println!(
        "\n== {title}: {lines} lines, {} kernels, {} bytes (median of {reps}; min in brackets)",
        generate::kernel_count(source),
        source.len()
    );
    let show = |name: &str, t: Sample, rate: bool| {
        let per_s = |ms: f64| lines as f64 / (ms / 1e3);
        if rate {
            println!(
                "{name:<12} {:9.3} ms [{:9.3}]  {:.0} lines/s [{:.0}]",
                t.median,
                t.min,
                per_s(t.median),
                per_s(t.min)
            );
        } else {
            println!("{name:<12} {:9.3} ms [{:9.3}]", t.median, t.min);
        }
    };
    show("front end", fe, true);
    for (name, t) in ["  preprocess", "  parse", "  sema"].iter().zip(phases) {
        show(name, t, false);
    }
    match cg_err {
        Some(e) => println!("codegen:    failed: {e}"),
        None => {
            show("codegen", cg, false);
            show("full build", full, true);
        }
    }
    Ok(full.median)
}

/// A corpus program: its path relative to the corpus root, text and options.
struct CorpusProgram {
    display: String,
    file_name: String,
    source: String,
    options: String,
}

/// Every `tests/corpus/<category>/*.cl`, sorted, with `%S` in its RUN options expanded.
fn load_corpus() -> Result<Vec<CorpusProgram>, String> {
    // Where it was built, or (a copy run elsewhere) below the working folder.
    let mut root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    if !root.is_dir() {
        root = PathBuf::from("jit/tests/corpus");
    }
    let mut paths: Vec<PathBuf> = Vec::new();
    let categories = std::fs::read_dir(&root).map_err(|e| format!("{}: {e}", root.display()))?;
    for category in categories
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
    {
        let files = std::fs::read_dir(&category).map_err(|e| e.to_string())?;
        paths.extend(
            files
                .flatten()
                .map(|f| f.path())
                .filter(|p| p.extension().is_some_and(|e| e == "cl")),
        );
    }
    paths.sort();
    let mut programs = Vec::new();
    for path in paths {
        let source =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        // The directives are the leading `//` lines; `// RUN: <options>` among them.
        let run = source
            .lines()
            .map_while(|l| l.strip_prefix("//"))
            .find_map(|c| c.trim_start().strip_prefix("RUN:"))
            .unwrap_or("")
            .trim();
        let dir = path.parent().unwrap_or(&root).display().to_string();
        programs.push(CorpusProgram {
            display: path
                .strip_prefix(&root)
                .unwrap_or(&path)
                .display()
                .to_string(),
            file_name: path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            options: run.replace("%S", &dir),
            source,
        });
    }
    Ok(programs)
}

/// Front-end and full-build times of every corpus program; returns the full
/// build time (ms) by program, `None` where the program does not build.
fn bench_corpus(programs: &[CorpusProgram], reps: usize) -> Vec<Option<f64>> {
    let mut fe_all = Vec::new();
    let mut fe_ok = Vec::new();
    let mut full = Vec::new();
    let mut full_min = Vec::new();
    let mut full_by_program = Vec::new();
    let mut cg_failures = Vec::new();
    let mut bad_options = 0;
    let mut slowest = (0.0, String::new());
    let mut by_std: std::collections::BTreeMap<String, Vec<f64>> = Default::default();
    for p in programs {
        let Ok(options) = BuildOptions::parse(&p.options) else {
            bad_options += 1;
            full_by_program.push(None);
            continue;
        };
        let fe = sample(reps, || {
            time_ms(|| frontend::compile(&p.source, &p.file_name, &options, &[])).0
        });
        let (fe, fe_min) = (fe.median, fe.min);
        fe_all.push(fe);
        let std = options.cl_std.unwrap_or_default();
        by_std
            .entry(format!("front end, {std:?}"))
            .or_default()
            .push(fe);
        if fe > slowest.0 {
            slowest = (fe, p.display.clone());
        }
        let out = frontend::compile(&p.source, &p.file_name, &options, &[]);
        let Some(hir) = out.program.filter(|_| out.success) else {
            full_by_program.push(None);
            continue;
        };
        fe_ok.push(fe);
        let mut err = None;
        let cg = sample(reps, || {
            codegen_ms(&hir, &options).unwrap_or_else(|e| {
                err = Some(e);
                0.0
            })
        });
        let (cg, cg_min) = (cg.median, cg.min);
        match err {
            Some(e) => {
                cg_failures.push(format!("{}: {}", p.display, first_line(&e)));
                full_by_program.push(None);
            }
            None => {
                full.push(fe + cg);
                full_min.push(fe_min + cg_min);
                full_by_program.push(Some(fe + cg));
            }
        }
    }
    println!(
        "\n== corpus: {} programs (per program: median of {reps} runs)",
        programs.len()
    );
    if bad_options > 0 {
        println!("({bad_options} programs with rejected RUN options: not timed)");
    }
    let row = |name: &str, v: &mut Vec<f64>| {
        let n = v.len();
        let (m, p90, max) = (
            percentile(v, 50.0),
            percentile(v, 90.0),
            percentile(v, 100.0),
        );
        println!("{name:<34} {n:>4}  median {m:7.3} ms  p90 {p90:7.3} ms  max {max:7.3} ms");
    };
    row("front end, every program", &mut fe_all);
    row("front end, programs it accepts", &mut fe_ok);
    row("front end + codegen (full build)", &mut full);
    row("full build, min of runs", &mut full_min);
    for (name, v) in &mut by_std {
        row(name, v);
    }
    println!("slowest front end: {} ({:.3} ms)", slowest.1, slowest.0);
    if !cg_failures.is_empty() {
        println!("codegen failed on {} accepted programs:", cg_failures.len());
        for f in &cg_failures {
            println!("  {f}");
        }
    }
    full_by_program
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

/// Step 4: pocl beside cranecl on `corpus/kernels/` and the ~200-line program.
fn compare_with_pocl(
    corpus: &[CorpusProgram],
    full: &[Option<f64>],
    typical: &str,
    typical_full: f64,
    reps: usize,
) -> Result<(), String> {
    let mut jobs = Vec::new();
    let mut ours = Vec::new();
    for (p, t) in corpus.iter().zip(full) {
        if let (true, Some(t)) = (p.display.starts_with("kernels/"), t) {
            jobs.push(pocl::Job {
                name: p.display.clone(),
                source: p.source.clone(),
                options: p.options.clone(),
            });
            ours.push(*t);
        }
    }
    jobs.push(pocl::Job {
        name: "generated ~200-line program".into(),
        source: typical.to_string(),
        options: "-cl-std=CL1.2".into(),
    });
    ours.push(typical_full);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bench_frontend");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let jobs_file = dir.join("pocl_jobs.bin");
    pocl::write_jobs(&jobs_file, &jobs).map_err(|e| e.to_string())?;
    let (cold, warm) = match pocl::measure(&jobs_file, reps.min(5)) {
        Ok(t) => t,
        Err(e) => {
            println!("\n== pocl: not measured: {e}");
            return Ok(());
        }
    };
    println!(
        "\n== cranecl full build vs pocl clBuildProgram ({}; cache off: POCL_KERNEL_CACHE=0; warm: second build, default cache)",
        cold.device
    );
    println!(
        "{:<44} {:>9} {:>9} {:>9} {:>8} {:>8}",
        "program", "cranecl", "pocl off", "pocl warm", "ratio off", "ratio warm"
    );
    let mut ratios = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut failures = Vec::new();
    for (i, job) in jobs.iter().enumerate() {
        let get = |t: &pocl::Timings| match t.ms.get(i) {
            Some((_, Ok(ms))) => (Some(*ms), String::new()),
            Some((_, Err(status))) => (None, status.clone()),
            None => (None, "no result".into()),
        };
        let ((c, c_err), (w, w_err)) = (get(&cold), get(&warm));
        if !c_err.is_empty() || !w_err.is_empty() {
            failures.push(format!("{}: pocl {c_err} {w_err}", job.name));
        }
        let fmt = |t: Option<f64>| t.map_or("failed".to_string(), |t| format!("{t:.2}"));
        let ratio = |t: Option<f64>| t.map_or("-".to_string(), |t| format!("{:.3}", ours[i] / t));
        println!(
            "{:<44} {:>9.2} {:>9} {:>9} {:>8} {:>8}",
            job.name,
            ours[i],
            fmt(c),
            fmt(w),
            ratio(c),
            ratio(w)
        );
        if let (Some(c), Some(w)) = (c, w) {
            ratios.0.push(ours[i]);
            ratios.1.push(c);
            ratios.2.push(w);
            ratios.3.push(ours[i] / c);
        }
    }
    let (mut o, mut c, mut w, mut r) = ratios;
    let (mo, mc, mw) = (
        percentile(&mut o, 50.0),
        percentile(&mut c, 50.0),
        percentile(&mut w, 50.0),
    );
    println!(
        "{:<44} {mo:>9.2} {mc:>9.2} {mw:>9.2} {:>8.3} {:>8.3}",
        "median of each column",
        mo / mc,
        mo / mw
    );
    println!(
        "median of the per-program ratios (off): {:.3}",
        percentile(&mut r, 50.0)
    );
    for f in &failures {
        println!("not in the medians: {f}");
    }
    Ok(())
}
