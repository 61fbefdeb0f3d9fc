//! The `cranecl` command: test one OpenCL kernel without writing a host
//! program. `run` executes a kernel described by an Oclgrind simulation
//! file or by the command line, `build` compiles a program and prints its
//! build log (a kernel linter for CI), `info` describes the device.
//!
//! The ICD is linked in (no loader); the options that set `CRANECL_CHECK`,
//! `CRANECL_SCHEDULE` and `CRANECL_PROFILE` do so before the first OpenCL
//! call, since the ICD reads them when the device or a context is made.
//! Exit status: 0 success, 1 the kernel failed (a checked-mode report) or
//! an expectation did not hold, 2 bad input or a build error.

mod args;
mod cl;
mod diag;
mod dump;
mod elem;
mod info;
mod run;
mod scan;
mod short;

use clap::{Args, Parser, Subcommand};
use run::{Launch, Options, Status};
use std::path::PathBuf;

const ARG_HELP: &str = "\
One kernel argument, in order (give one --arg per parameter). Forms:
  buffer:TYPE:COUNT[:WORD]...  a buffer of COUNT elements of TYPE, zero-filled unless a
                               WORD initialises it: fill=V, range=START,INC[,END],
                               file=PATH (raw bytes), noinit; other WORDs: dump (print it
                               after the run), hex, ro, wo, sub=ORIGIN,SIZE (pass a
                               sub-buffer of SIZE bytes at byte ORIGIN)
  TYPE:V                       a scalar: --arg int:42, --arg float:0.5
  TYPEn:V,V,...                a vector (n = 2, 3, 4, 8, 16): --arg float4:1,2,3,4
  local:BYTES                  a local memory argument of BYTES bytes
  null                         a NULL buffer
  '<HEADER> [VALUES]'          an argument exactly as a simulation file writes it:
                               --arg '<size=16 float range=0:1:3 dump>', --arg '<size=4> 7'
TYPE is char, uchar, short, ushort, int, uint, long, ulong, float or double.";

const RUN_AFTER: &str = "\
A simulation file (Oclgrind's format) holds the source file, the kernel's name, three
global sizes, three local sizes, then one argument per parameter, e.g.:
    vecadd.cl
    vecadd
    1024 1 1
    64 1 1
    <size=4096 float range=0:1:1023>
    <size=4096 float fill=2>
    <size=4096 float noinit dump>
Header words: size=BYTES, a TYPE, fill=V, range=START:INC:END, noinit, null, dump, hex,
ro, wo (Oclgrind's); file=PATH and sub=ORIGIN:SIZE (cranecl's). A buffer or scalar
with no initialiser takes its values from the words after the header; # starts a
comment.

Exit status: 0 the kernel ran with no report and every expectation held; 1 the
command failed (a checked-mode report) or an expectation did not hold; 2 a build
error or bad input (simulation syntax, a missing file, an unknown kernel, wrong
arguments, an OpenCL error while setting up).";

#[derive(Parser)]
#[command(
    name = "cranecl",
    version,
    about = "Run, build and check OpenCL kernels on cranecl, without a host program"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run one kernel: from a simulation file (FILE.sim), or from OpenCL C
    /// source with --kernel, --global and --arg.
    #[command(after_help = RUN_AFTER)]
    Run(RunArgs),
    /// Compile a program and print its build log (exit 2 on errors, or on
    /// warnings with -Werror).
    Build(BuildArgs),
    /// Describe the platform and device (a short clinfo).
    Info {
        #[command(flatten)]
        env: EnvArgs,
    },
}

/// The options every command that reaches the device shares.
#[derive(Args)]
struct EnvArgs {
    /// Checked mode: a comma list of bounds, barriers, races, races-strict,
    /// uninit, api, or all (sets CRANECL_CHECK).
    #[arg(long, value_name = "LIST")]
    check: Option<String>,
    /// Schedule fuzzing, e.g. shuffle or shuffle:SEED (sets CRANECL_SCHEDULE).
    #[arg(long, value_name = "SPEC")]
    schedule: Option<String>,
    /// A device profile by name (sets CRANECL_PROFILE).
    #[arg(long, value_name = "NAME")]
    profile: Option<String>,
}

#[derive(Args)]
struct CompileArgs {
    /// Define a macro for the program (-D NAME or -D NAME=VALUE).
    #[arg(short = 'D', value_name = "NAME[=V]")]
    define: Vec<String>,
    /// Add a folder to the #include search path.
    #[arg(short = 'I', value_name = "DIR")]
    include: Vec<PathBuf>,
    /// More build options, passed as they are (e.g. '-cl-std=CL3.0').
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    build_options: Option<String>,
}

#[derive(Args)]
struct BuildArgs {
    /// The OpenCL C source file.
    file: PathBuf,
    #[command(flatten)]
    compile: CompileArgs,
    /// Treat warnings as errors (also spelled -Werror).
    #[arg(long = "Werror")]
    werror: bool,
    #[command(flatten)]
    env: EnvArgs,
}

#[derive(Args)]
struct RunArgs {
    /// A simulation file, or OpenCL C source with --kernel.
    file: PathBuf,
    /// The kernel to run (the file is then OpenCL C source).
    #[arg(long, value_name = "NAME")]
    kernel: Option<String>,
    /// The global size: X[,Y[,Z]].
    #[arg(long, value_name = "X[,Y[,Z]]")]
    global: Option<String>,
    /// The local size (left to the device when not given).
    #[arg(long, value_name = "X[,Y[,Z]]")]
    local: Option<String>,
    #[arg(long = "arg", value_name = "ARG", long_help = ARG_HELP, allow_hyphen_values = true)]
    args: Vec<String>,
    #[command(flatten)]
    compile: CompileArgs,
    #[command(flatten)]
    env: EnvArgs,
    /// Compare the buffers after the run with this file's values (the dump
    /// format: lines `NAME[I] = V`; any buffer argument may be named).
    #[arg(long, value_name = "FILE")]
    expect: Option<PathBuf>,
    /// Floating-point expectations hold within TOL × max(1, |expected|).
    #[arg(long, value_name = "TOL", default_value_t = 1e-5)]
    tolerance: f64,
    /// Print the buffers marked dump on stdout (the default; with
    /// --dump-dir, as well as writing the files).
    #[arg(long)]
    dump: bool,
    /// Write each buffer marked dump to DIR/NAME.txt (the dump text) and
    /// DIR/NAME.bin (its bytes) instead of stdout.
    #[arg(long, value_name = "DIR")]
    dump_dir: Option<PathBuf>,
}

impl EnvArgs {
    /// Sets the variables before any OpenCL call; a bad --check is bad input.
    fn apply(&self) -> Result<(), Status> {
        if let Some(c) = &self.check {
            if let Err(e) = cranecl_jit::runtime::check::Checks::parse(c) {
                return Err(run::report(diag::Diag::new(format!("--check: {e}"))));
            }
            std::env::set_var("CRANECL_CHECK", c);
        }
        if let Some(s) = &self.schedule {
            std::env::set_var("CRANECL_SCHEDULE", s);
        }
        if let Some(p) = &self.profile {
            std::env::set_var("CRANECL_PROFILE", p);
        }
        Ok(())
    }
}

impl CompileArgs {
    fn options(&self) -> Options {
        Options {
            defines: self.define.clone(),
            includes: self.include.clone(),
            build_options: self.build_options.clone(),
            ..Options::default()
        }
    }
}

fn run_command(r: RunArgs) -> Status {
    if let Err(s) = r.env.apply() {
        return s;
    }
    let mut opts = r.compile.options();
    opts.expect = r.expect;
    opts.tolerance = r.tolerance;
    opts.dump_stdout = r.dump;
    opts.dump_dir = r.dump_dir;
    let launch = match r.kernel {
        None => {
            if r.global.is_some() || r.local.is_some() || !r.args.is_empty() {
                return run::report(diag::Diag::new(format!(
                    "--global, --local and --arg go with --kernel; {} describes its own launch",
                    r.file.display()
                )));
            }
            run::launch_from_sim(&r.file)
        }
        Some(kernel) => {
            let Some(g) = r.global else {
                return run::report(diag::Diag::new("--kernel needs --global"));
            };
            run::parse_sizes("--global", &g).and_then(|global| {
                let local = r
                    .local
                    .as_deref()
                    .map(|l| run::parse_sizes("--local", l))
                    .transpose()?;
                Ok(Launch {
                    source: r.file.clone(),
                    source_at: None,
                    kernel,
                    kernel_at: None,
                    global,
                    local,
                    args: run::ArgSource::Cli(r.args),
                })
            })
        }
    };
    match launch {
        Ok(l) => run::run(l, &opts),
        Err(d) => run::report(d),
    }
}

fn main() -> std::process::ExitCode {
    // `-Werror` is the compilers' spelling; clap's long options take two
    // dashes. Not when it is the value of an option (`--build-options -Werror`).
    let mut argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    for i in 1..argv.len() {
        let value_of = ["--build-options", "--arg"]
            .iter()
            .any(|o| argv[i - 1] == *o);
        if argv[i] == "-Werror" && !value_of {
            argv[i] = "--Werror".into();
        }
    }
    let cli = Cli::parse_from(argv);
    let status = match cli.command {
        Command::Run(r) => run_command(r),
        Command::Build(b) => match b.env.apply() {
            Err(s) => s,
            Ok(()) => {
                let mut opts = b.compile.options();
                opts.werror = b.werror;
                run::build_only(&b.file, &opts)
            }
        },
        Command::Info { env } => match env.apply() {
            Err(s) => s,
            Ok(()) => match cl::Cl::open().and_then(|c| info::describe(&c)) {
                Ok(text) => {
                    print!("{text}");
                    Status::Ok
                }
                Err(f) => run::report(diag::Diag::new(f.to_string())),
            },
        },
    };
    std::process::ExitCode::from(status as u8)
}
