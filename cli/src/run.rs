//! `cranecl run` and `cranecl build`: read the launch (a simulation file, or
//! the source and the command line's `--kernel`/`--global`/`--arg`), build
//! the program, set the arguments, run the kernel once, then print the
//! buffers marked `dump` and compare the expectations.
//!
//! A simulation file is Oclgrind's format: the kernel's source file
//! (relative to the simulation file's folder, else to the current folder,
//! where Oclgrind looks), the kernel's name, three global sizes, three
//! local sizes (the launch has three dimensions, as Oclgrind's does;
//! `0 0 0` leaves the local size to the device), then one argument per
//! kernel parameter (`args.rs`), and nothing else.
//!
//! The outcome is an exit status ([`Status`]): 0 the kernel ran with no
//! report and every expectation held, 1 the command failed (a checked-mode
//! report, a fault) or an expectation did not hold, 2 the input was bad or
//! the program did not build.

use crate::args::{self, Arg, ArgValue};
use crate::cl::{self, ArgInfo, Cl, ClFail};
use crate::diag::{Diag, Loc};
use crate::dump::{self, Buffer, Expectations};
use crate::scan::Scanner;
use crate::short;
use opencl_sys::*;
use std::ffi::c_void;
use std::path::{Path, PathBuf};

/// The command's exit status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Ok = 0,
    Failed = 1,
    BadInput = 2,
}

/// Build options and what to do with the results.
#[derive(Default)]
pub struct Options {
    pub defines: Vec<String>,
    pub includes: Vec<PathBuf>,
    pub build_options: Option<String>,
    pub werror: bool,
    pub expect: Option<PathBuf>,
    pub tolerance: f64,
    pub dump_stdout: bool,
    pub dump_dir: Option<PathBuf>,
}

impl Options {
    /// The build options string: `-D`s, `-I`s (then the source's own
    /// folder, for `#include "..."`), the user's text, and
    /// `-cl-kernel-arg-info` (the arguments are read by name and type).
    fn build_string(&self, source: &Path) -> String {
        let mut o = Vec::new();
        for d in &self.defines {
            o.push(format!("-D {d}"));
        }
        let own = args::folder_of(source);
        for dir in self.includes.iter().chain([&own]) {
            let d = dir.display().to_string();
            if !d.contains(char::is_whitespace) {
                o.push(format!("-I {d}"));
            }
        }
        if let Some(b) = &self.build_options {
            o.push(b.clone());
        }
        if self.werror {
            o.push("-Werror".into());
        }
        o.push("-cl-kernel-arg-info".into());
        o.join(" ")
    }
}

/// Where the launch's arguments come from.
pub enum ArgSource {
    /// The rest of a simulation file (and its folder, for `file=`).
    Sim(Scanner, PathBuf),
    /// `--arg` values.
    Cli(Vec<String>),
}

/// One launch, before the program is built.
pub struct Launch {
    pub source: PathBuf,
    /// Where the source was named (the simulation file's word).
    pub source_at: Option<Loc>,
    pub kernel: String,
    pub kernel_at: Option<Loc>,
    pub global: Vec<usize>,
    pub local: Option<Vec<usize>>,
    pub args: ArgSource,
}

fn read_text(path: &Path, at: Option<&Loc>) -> Result<String, Diag> {
    let fail = |m: String| match at {
        Some(l) => Diag::at(l, m),
        None => Diag::new(m),
    };
    let bytes =
        std::fs::read(path).map_err(|e| fail(format!("cannot read {}: {e}", path.display())))?;
    // Oclgrind also takes LLVM bitcode (SPIR); cranecl compiles OpenCL C only.
    if bytes.starts_with(b"BC") {
        return Err(fail(format!(
            "{} is LLVM bitcode (SPIR): cranecl reads OpenCL C source only",
            path.display()
        )));
    }
    String::from_utf8(bytes).map_err(|_| fail(format!("{} is not UTF-8 text", path.display())))
}

/// Reads a simulation file up to its first argument.
pub fn launch_from_sim(path: &Path) -> Result<Launch, Diag> {
    let text = read_text(path, None)?;
    let label = path.display().to_string();
    let mut s = Scanner::new(&label, &text, true);
    let src = s.expect("the kernel's source file")?;
    let kernel = s.expect("the kernel's name")?;
    let mut sizes = |what: &str| -> Result<Vec<usize>, Diag> {
        (0..3)
            .map(|i| {
                let t = s.expect(&format!("{what} {}", ["x", "y", "z"][i]))?;
                t.text
                    .parse::<usize>()
                    .map_err(|_| Diag::at(&t.loc, format!("invalid {what} '{}'", t.text)))
            })
            .collect()
    };
    let global = sizes("global size")?;
    let local = sizes("local size")?;
    let folder = args::folder_of(path);
    let beside = if folder == Path::new(".") {
        PathBuf::from(&src.text)
    } else {
        folder.join(&src.text)
    };
    let source = if beside.exists() || Path::new(&src.text).is_absolute() {
        beside
    } else if Path::new(&src.text).exists() {
        PathBuf::from(&src.text)
    } else {
        beside
    };
    Ok(Launch {
        source,
        source_at: Some(src.loc),
        kernel: kernel.text,
        kernel_at: Some(kernel.loc),
        global,
        local: (local != [0, 0, 0]).then_some(local),
        args: ArgSource::Sim(s, folder),
    })
}

/// `X[,Y[,Z]]`.
pub fn parse_sizes(option: &str, text: &str) -> Result<Vec<usize>, Diag> {
    let v: Option<Vec<usize>> = text.split(',').map(|t| t.trim().parse().ok()).collect();
    match v {
        Some(v) if (1..=3).contains(&v.len()) => Ok(v),
        _ => Err(Diag::new(format!(
            "{option} '{text}': expected X[,Y[,Z]] (one to three sizes)"
        ))),
    }
}

/// The build log as printed: the program's `<source>` named by its path.
fn log_with_path(log: &str, path: &Path) -> String {
    let name = format!("{}:", path.display());
    log.lines()
        .map(|l| match l.strip_prefix("<source>:") {
            Some(rest) => format!("{name}{rest}\n"),
            None => format!("{l}\n"),
        })
        .collect()
}

/// A failed call at setup as an error: the ICD's reason follows.
fn setup_error(f: ClFail, at: Option<&Loc>, what: &str) -> Diag {
    let m = format!("{what}: {f}");
    let mut d = match at {
        Some(l) => Diag::at(l, m),
        None => Diag::new(m),
    };
    for n in cl::take_notes() {
        d = d.note(n);
    }
    d
}

/// Builds the source: the program (the log printed on stderr), or the
/// status to exit with.
fn build(
    cl: &Cl,
    ctx: cl_context,
    source: &Path,
    at: Option<&Loc>,
    opts: &Options,
) -> Result<cl_program, Status> {
    let text = read_text(source, at).map_err(report)?;
    match cl.build(ctx, &text, &opts.build_string(source)) {
        Ok((p, log)) => {
            eprint!("{}", log_with_path(&log, source));
            Ok(p)
        }
        Err((f, log)) => {
            eprint!("{}", log_with_path(&log, source));
            if f.code != CL_BUILD_PROGRAM_FAILURE {
                report(setup_error(f, None, "the build"));
            }
            eprintln!("cranecl: error: {} did not build", source.display());
            Err(Status::BadInput)
        }
    }
}

/// Prints an error; the status is 2 (bad input).
pub fn report(d: Diag) -> Status {
    eprint!("{}", d.render("error"));
    Status::BadInput
}

/// `cranecl build`: 0 when the program builds (warnings are printed), 2
/// when it does not (or has warnings under `-Werror`).
pub fn build_only(source: &Path, opts: &Options) -> Status {
    let go = || -> Result<Status, Status> {
        let cl = Cl::open().map_err(|f| report(setup_error(f, None, "no device")))?;
        let ctx = cl
            .context()
            .map_err(|f| report(setup_error(f, None, "no context")))?;
        build(&cl, ctx, source, None, opts)?;
        Ok(Status::Ok)
    };
    go().unwrap_or_else(|s| s)
}

/// "1 argument", "3 arguments".
fn arguments_word(n: usize) -> String {
    format!("{n} argument{}", if n == 1 { "" } else { "s" })
}

/// Reads the launch's arguments against the kernel's parameters.
fn arguments(launch: &mut Launch, infos: &[ArgInfo]) -> Result<Vec<Arg>, Diag> {
    match &mut launch.args {
        ArgSource::Sim(s, folder) => {
            let mut out = Vec::new();
            for (i, info) in infos.iter().enumerate() {
                let Some((open, words)) = s.header()? else {
                    return Err(Diag::at(
                        &s.end(),
                        format!(
                            "unexpected end of file: expected argument {i} '{}' of kernel '{}' ({})",
                            info.name,
                            launch.kernel,
                            arguments_word(infos.len())
                        ),
                    ));
                };
                out.push(args::resolve(&open, &words, info, s, folder)?);
            }
            if let Some(t) = s.next() {
                return Err(Diag::at(
                    &t.loc,
                    format!(
                        "unexpected '{}' after the last argument (kernel '{}' has {})",
                        t.text,
                        launch.kernel,
                        arguments_word(infos.len())
                    ),
                ));
            }
            Ok(out)
        }
        ArgSource::Cli(texts) => {
            if texts.len() != infos.len() {
                let names: Vec<String> = infos.iter().map(short::declaration).collect();
                return Err(Diag::new(format!(
                    "kernel '{}' has {}, {} --arg given",
                    launch.kernel,
                    arguments_word(infos.len()),
                    texts.len()
                ))
                .note(format!("{}({})", launch.kernel, names.join(", "))));
            }
            let cwd = PathBuf::from(".");
            texts
                .iter()
                .zip(infos)
                .enumerate()
                .map(|(i, (t, info))| {
                    let mut a = short::cli_arg(i + 1, t)?;
                    if let Some(kind) = a.kind.filter(|&k| k != short::Kind::of(info)) {
                        return Err(Diag::at(
                            &a.open.loc,
                            format!(
                                "this is {}, but parameter {i} of kernel '{}' is '{}': {} goes there",
                                kind.word(),
                                launch.kernel,
                                short::declaration(info),
                                short::Kind::of(info).word()
                            ),
                        ));
                    }
                    let arg = args::resolve(&a.open, &a.words, info, &mut a.values, &cwd)?;
                    if let Some(extra) = a.values.0.next() {
                        return Err(Diag::at(
                            &extra.loc,
                            format!("unexpected value '{}'", extra.text),
                        ));
                    }
                    Ok(arg)
                })
                .collect()
        }
    }
}

/// The memory object passed for one argument (and the object read back).
fn set_argument(
    cl: &Cl,
    ctx: cl_context,
    k: cl_kernel,
    index: u32,
    arg: &Arg,
) -> Result<Option<cl_mem>, Diag> {
    let fail = |f: ClFail| {
        setup_error(
            f,
            Some(&arg.at),
            &format!("argument {index} '{}'", arg.name),
        )
    };
    let mut passed = None;
    match &arg.value {
        ArgValue::Buffer {
            size,
            data,
            flags,
            sub,
        } => {
            // OpenCL has no empty buffer; Oclgrind's format allows size=0.
            let one = [0u8];
            let data = match data.as_deref() {
                Some([]) => Some(&one[..]),
                d => d,
            };
            let m = cl.buffer(ctx, *flags, (*size).max(1), data).map_err(fail)?;
            let m = match sub {
                Some((o, s)) => cl.sub_buffer(m, *o, *s).map_err(fail)?,
                None => m,
            };
            passed = Some(m);
            cl.set_arg(k, index, size_of::<cl_mem>(), (&m as *const cl_mem).cast())
                .map_err(fail)?;
        }
        ArgValue::Local(n) => cl.set_arg(k, index, *n, std::ptr::null()).map_err(fail)?,
        ArgValue::Scalar(b) => cl
            .set_arg(k, index, b.len(), b.as_ptr().cast::<c_void>())
            .map_err(fail)?,
        ArgValue::Null => {
            let m: cl_mem = std::ptr::null_mut();
            cl.set_arg(k, index, size_of::<cl_mem>(), (&m as *const cl_mem).cast())
                .map_err(fail)?
        }
    }
    Ok(passed)
}

/// `cranecl run`.
pub fn run(mut launch: Launch, opts: &Options) -> Status {
    match run_inner(&mut launch, opts) {
        Ok(s) => s,
        Err(s) => s,
    }
}

/// The launch as set up: the queue, the kernel and each argument with the
/// memory object passed for it (buffers only).
struct Ready<'a> {
    cl: Cl,
    queue: cl_command_queue,
    kernel: cl_kernel,
    args: Vec<(Arg, Option<cl_mem>)>,
    launch: &'a Launch,
}

/// Context, queue, program, kernel and arguments; any failure is exit 2.
fn set_up<'a>(launch: &'a mut Launch, opts: &Options) -> Result<Ready<'a>, Status> {
    if let Some(l) = &launch.local {
        if l.len() != launch.global.len() {
            return Err(report(Diag::new(format!(
                "the local size has {} dimensions, the global size {}",
                l.len(),
                launch.global.len()
            ))));
        }
    }
    let fail = |what: &'static str| move |f| report(setup_error(f, None, what));
    let cl = Cl::open().map_err(fail("no device"))?;
    let ctx = cl.context().map_err(fail("no context"))?;
    let queue = cl.queue(ctx).map_err(fail("no queue"))?;
    let program = build(&cl, ctx, &launch.source, launch.source_at.as_ref(), opts)?;
    let kernel = cl.kernel(program, &launch.kernel).map_err(|f| {
        let names = cl.kernel_names(program).unwrap_or_default();
        let m = format!(
            "no kernel '{}' in {} ({f})",
            launch.kernel,
            launch.source.display()
        );
        let d = match &launch.kernel_at {
            Some(l) => Diag::at(l, m),
            None => Diag::new(m),
        };
        report(d.note(format!("kernels: {}", names.join(", "))))
    })?;
    let infos = cl.kernel_args(kernel).map_err(fail("kernel arguments"))?;
    let mut args = Vec::new();
    for (i, a) in arguments(launch, &infos)
        .map_err(report)?
        .into_iter()
        .enumerate()
    {
        let mem = set_argument(&cl, ctx, kernel, i as u32, &a).map_err(report)?;
        args.push((a, mem));
    }
    Ok(Ready {
        cl,
        queue,
        kernel,
        args,
        launch,
    })
}

/// Every buffer argument's bytes after the run (the dumps and the
/// expectations may name any). After a failed command a buffer that cannot
/// be read is left out.
fn read_back<'r>(r: &'r Ready, failed: bool) -> Result<Vec<(&'r Arg, Vec<u8>)>, Status> {
    let mut out = Vec::new();
    for (a, m) in &r.args {
        let (ArgValue::Buffer { size, sub, .. }, Some(m)) = (&a.value, m) else {
            continue;
        };
        let n = sub.map_or(*size, |(_, s)| s);
        match r.cl.read(r.queue, *m, n) {
            Ok(bytes) => out.push((a, bytes)),
            Err(_) if failed => {}
            Err(f) => {
                return Err(report(setup_error(
                    f,
                    Some(&a.at),
                    "reading the buffer back",
                )))
            }
        }
    }
    Ok(out)
}

/// Prints the buffers marked `dump` (stdout, and/or files in `--dump-dir`).
fn write_dumps(contents: &[(&Arg, Vec<u8>)], opts: &Options) -> Result<(), Status> {
    for (a, bytes) in contents.iter().filter(|(a, _)| a.dump) {
        let text = dump::dump_text(&a.name, a.elem, a.hex, bytes);
        if opts.dump_stdout || opts.dump_dir.is_none() {
            print!("{text}");
        }
        if let Some(dir) = &opts.dump_dir {
            let write = || -> std::io::Result<()> {
                std::fs::create_dir_all(dir)?;
                std::fs::write(dir.join(format!("{}.txt", a.name)), text.trim_start())?;
                std::fs::write(dir.join(format!("{}.bin", a.name)), bytes)
            };
            write().map_err(|e| {
                report(Diag::new(format!("cannot write to {}: {e}", dir.display())))
            })?;
        }
    }
    Ok(())
}

/// Compares the expectations: each differing value printed at its place.
fn compare(
    expect: &Expectations,
    contents: &[(&Arg, Vec<u8>)],
    tolerance: f64,
) -> Result<Status, Status> {
    let buffers: Vec<Buffer> = contents
        .iter()
        .map(|(a, b)| Buffer {
            name: &a.name,
            elem: a.elem,
            hex: a.hex,
            bytes: b,
        })
        .collect();
    let mismatches = expect.check(&buffers, tolerance).map_err(report)?;
    const SHOWN: usize = 20;
    for d in mismatches.iter().take(SHOWN) {
        eprint!("{}", d.render("error"));
    }
    if mismatches.len() > SHOWN {
        eprintln!(
            "cranecl: ... and {} more mismatches",
            mismatches.len() - SHOWN
        );
    }
    if mismatches.is_empty() {
        return Ok(Status::Ok);
    }
    eprintln!(
        "cranecl: error: {} of {} expected values differ",
        mismatches.len(),
        expect.0.len()
    );
    Ok(Status::Failed)
}

fn run_inner(launch: &mut Launch, opts: &Options) -> Result<Status, Status> {
    let expect = match &opts.expect {
        Some(p) => {
            let text = read_text(p, None).map_err(report)?;
            Some(Expectations::parse(&p.display().to_string(), &text).map_err(report)?)
        }
        None => None,
    };
    let r = set_up(launch, opts)?;
    cl::take_notes();
    let name = &r.launch.kernel;
    let status =
        r.cl.run(
            r.queue,
            r.kernel,
            &r.launch.global,
            r.launch.local.as_deref(),
        )
        .map_err(|f| report(setup_error(f, None, &format!("launching kernel '{name}'"))))?;
    let failed = status < 0;
    if failed {
        eprintln!(
            "cranecl: error: kernel '{name}' failed: {} ({status})",
            cl::code_name(status)
        );
    }
    // After a failure the buffers are dumped as the kernel left them (as
    // Oclgrind does), for a look; the expectations are not compared.
    let contents = read_back(&r, failed)?;
    write_dumps(&contents, opts)?;
    match (failed, &expect) {
        (true, _) => Ok(Status::Failed),
        (false, None) => Ok(Status::Ok),
        (false, Some(e)) => compare(e, &contents, opts.tolerance),
    }
}
