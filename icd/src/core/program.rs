//! Program objects: where a program's text comes from, what its last build,
//! compile or link produced, and our binary format.
//!
//! A program is created from source (`clCreateProgramWithSource`), from one
//! of our binaries (`clCreateProgramWithBinary`) or by `clLinkProgram`. Its
//! mutable state (build status, options, log, binary type and the result) is
//! behind one mutex; a build runs without holding it (status
//! `CL_BUILD_IN_PROGRESS` keeps a second build out), so `clGetProgramBuildInfo`
//! answers while an asynchronous build runs.
//!
//! What a build produces:
//! - `clBuildProgram` and a link to an executable: an [`Executable`] — the
//!   compiled native code (`CompiledProgram`) plus the facts the kernel and
//!   NDRange layers need (whether work-groups must be uniform, whether
//!   argument info was asked for). Kernels hold it by `Arc`, so a later
//!   rebuild never pulls code out from under a running launch.
//! - `clCompileProgram` and `-create-library`: a [`Unit`] — the program's
//!   *preprocessed* text and the options it was compiled with. Linking
//!   joins the inputs' texts with [`UNIT_SEPARATOR`] and compiles them as
//!   that many translation units of one program (`frontend::compile_units`:
//!   each keeps its own file scope; external names are linked).
//!
//! Our binary format (`CL_PROGRAM_BINARIES`) is a header and a unit: the
//! magic `CRANECL\0`, a format version (u32 LE), the binary type (u32 LE), the
//! options (u32 LE length, UTF-8) and the preprocessed program text (u64 LE
//! length, UTF-8). It reloads: `clBuildProgram` on a program made from an
//! executable binary recompiles the text; compiled objects and libraries are
//! inputs to `clLinkProgram`. The preprocessed text is recompiled without the
//! `-D`/`-I` options (their effect is already in it).

use super::context::Context;
use super::device::Device;
use super::handle::Obj;
use crate::error::{err, CLResult};
use cranecl_jit::codegen::{self, CodegenOptions, CompiledProgram};
use cranecl_jit::diag::Diagnostics;
use cranecl_jit::options::{BuildOptions, ClStd};
use cranecl_jit::preprocess::{self, PreprocessOptions};
use cranecl_jit::runtime::check::Checks;
use cranecl_jit::runtime::schedule::Schedule;
use cranecl_jit::source::SourceMap;
use cranecl_jit::token::TokenKind;
use opencl_sys::*;
use parking_lot::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// The file name diagnostics give the program's source.
pub const SOURCE_NAME: &str = "<source>";

/// Between the translation units of a linked program's text (a pragma
/// other compilers ignore): each unit keeps its own file scope.
pub const UNIT_SEPARATOR: &str = "\n#pragma cranecl translation_unit\n";
/// First bytes of every binary of ours.
pub const BINARY_MAGIC: &[u8; 8] = b"CRANECL\0";
/// Version of the binary format.
pub const BINARY_VERSION: u32 = 1;

/// How the program object was created.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// `clCreateProgramWithSource`: the concatenated strings.
    Source(String),
    /// `clCreateProgramWithBinary`: the unit the binary held, and its type.
    Binary(Unit, cl_program_binary_type),
    /// `clLinkProgram`.
    Linked,
}

/// A compiled object or library: preprocessed text and the options it was
/// compiled with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    pub options: String,
    pub text: String,
}

/// A program executable.
pub struct Executable {
    pub code: CompiledProgram,
    /// Work-groups must be uniform (built for OpenCL C below 2.0, or with
    /// `-cl-uniform-work-group-size`).
    pub uniform_work_groups: bool,
    /// Built with `-cl-kernel-arg-info`.
    pub kernel_arg_info: bool,
    /// Per kernel: the work-items and duration of its latest launch
    /// (`exec::ndrange` uses them to run launches too small to hand off).
    pub last_run: Vec<LastRun>,
}

/// The work-items and durations (ns; `u64::MAX` before any launch) of a
/// kernel's latest launches: what says whether the next one is short enough
/// to run on the thread that finds it ready (`exec::ndrange::Launch`).
#[derive(Debug)]
pub struct LastRun {
    pub items: std::sync::atomic::AtomicU64,
    /// The latest launch's duration.
    latest: std::sync::atomic::AtomicU64,
    /// The shorter of the latest two launches' durations: one launch slowed
    /// by something else (an interrupt, a page fault, a descheduled vCPU)
    /// does not make the next look long.
    nanos: std::sync::atomic::AtomicU64,
    /// Short launches run since the latest timed one (`due`).
    untimed: std::sync::atomic::AtomicU32,
}

/// A kernel's short launches are timed one in this many (`LastRun::due`).
pub const TIMED_EVERY: u32 = 8;

impl Default for LastRun {
    fn default() -> Self {
        LastRun {
            items: 0.into(),
            latest: u64::MAX.into(),
            nanos: u64::MAX.into(),
            untimed: 0.into(),
        }
    }
}

impl LastRun {
    /// Records a launch of `items` work-items that took `nanos`.
    pub fn record(&self, items: u64, nanos: u64) {
        use std::sync::atomic::Ordering::Relaxed;
        let before = self.latest.swap(nanos, Relaxed);
        self.items.store(items, Relaxed);
        self.nanos.store(nanos.min(before), Relaxed);
    }

    /// Whether a launch of `items` work-items should be timed: always,
    /// unless it is expected to take at most `limit_ns` (`short`); then one
    /// in [`TIMED_EVERY`], so that a kernel whose launches grow longer with
    /// the same size is still seen to (reading the clock twice was a
    /// twentieth of a short launch's cost). Counted with plain loads and
    /// stores: threads launching the same kernel at once may time one
    /// launch more or less.
    pub fn due(&self, items: u64, limit_ns: u64) -> bool {
        use std::sync::atomic::Ordering::Relaxed;
        let n = self.untimed.load(Relaxed);
        if n + 1 < TIMED_EVERY && self.short(items, limit_ns) {
            self.untimed.store(n + 1, Relaxed);
            false
        } else {
            self.untimed.store(0, Relaxed);
            true
        }
    }

    /// Whether a launch of `items` work-items is expected to take at most
    /// `limit_ns`: no more items than the latest launch, and one of the
    /// latest two took at most that.
    pub fn short(&self, items: u64, limit_ns: u64) -> bool {
        use std::sync::atomic::Ordering::Relaxed;
        self.nanos.load(Relaxed) <= limit_ns && items <= self.items.load(Relaxed)
    }
}

impl Executable {
    /// `CL_PROGRAM_KERNEL_NAMES`: semicolon-separated.
    pub fn kernel_names(&self) -> String {
        let names: Vec<&str> = self
            .code
            .kernels()
            .iter()
            .map(|k| k.name.as_str())
            .collect();
        names.join(";")
    }
}

/// What the last build, compile or link left.
#[derive(Clone, Default)]
pub enum Output {
    #[default]
    None,
    /// An executable, and what its binary is made from (computed on first
    /// query of `CL_PROGRAM_BINARIES`).
    Executable(Arc<Executable>, BinarySource),
    /// A compiled object or a library.
    Unit(Unit, cl_program_binary_type),
}

/// How to produce an executable's binary: its unit directly, or the source
/// to preprocess (on demand: most programs are never asked for binaries).
#[derive(Clone)]
pub enum BinarySource {
    Unit(Unit),
    Source {
        source: String,
        options: String,
        cached: Option<Arc<Vec<u8>>>,
    },
}

struct State {
    status: cl_build_status,
    options: String,
    log: String,
    output: Output,
}

pub struct Program {
    context: Arc<Obj<Context>>,
    devices: Vec<Arc<Obj<Device>>>,
    origin: Origin,
    state: Mutex<State>,
    /// Kernel objects alive that were created from this program.
    kernels: AtomicUsize,
}
crate::cl_object!(Program, cl_program, CL_INVALID_PROGRAM, "program", true);

impl Program {
    pub fn new(
        context: Arc<Obj<Context>>,
        devices: Vec<Arc<Obj<Device>>>,
        origin: Origin,
    ) -> Arc<Obj<Program>> {
        Obj::new(Program {
            context,
            devices,
            origin,
            state: Mutex::new(State {
                status: CL_BUILD_NONE,
                options: String::new(),
                log: String::new(),
                output: Output::None,
            }),
            kernels: AtomicUsize::new(0),
        })
    }

    pub fn context(&self) -> &Arc<Obj<Context>> {
        &self.context
    }

    pub fn devices(&self) -> &[Arc<Obj<Device>>] {
        &self.devices
    }

    pub fn has_device(&self, d: &Arc<Obj<Device>>) -> bool {
        self.devices.iter().any(|x| Arc::ptr_eq(x, d))
    }

    pub fn origin(&self) -> &Origin {
        &self.origin
    }

    /// `CL_PROGRAM_SOURCE`: the source, or for a program made from one of
    /// our binaries its (preprocessed) text; empty for a linked program.
    pub fn source(&self) -> &str {
        match &self.origin {
            Origin::Source(s) => s,
            Origin::Binary(u, _) => &u.text,
            Origin::Linked => "",
        }
    }

    /// Kernel objects attached (`clBuildProgram` refuses to rebuild then).
    pub fn kernel_count(&self) -> usize {
        self.kernels.load(Ordering::Acquire)
    }
    pub fn attach_kernel(&self) {
        self.kernels.fetch_add(1, Ordering::AcqRel);
    }
    pub fn detach_kernel(&self) {
        self.kernels.fetch_sub(1, Ordering::AcqRel);
    }

    /// The executable, if the last build or link made one.
    pub fn executable(&self) -> Option<Arc<Executable>> {
        match &self.state.lock().output {
            Output::Executable(e, _) => Some(e.clone()),
            _ => None,
        }
    }

    /// The compiled object or library, if the last compile or link (or the
    /// binary the program was made from) left one.
    pub fn unit(&self) -> Option<(Unit, cl_program_binary_type)> {
        match &self.state.lock().output {
            Output::Unit(u, t) => Some((u.clone(), *t)),
            _ => match &self.origin {
                Origin::Binary(u, t) if *t != CL_PROGRAM_BINARY_TYPE_EXECUTABLE => {
                    Some((u.clone(), *t))
                }
                _ => None,
            },
        }
    }

    pub fn status(&self) -> cl_build_status {
        self.state.lock().status
    }
    pub fn build_options(&self) -> String {
        self.state.lock().options.clone()
    }
    pub fn build_log(&self) -> String {
        self.state.lock().log.clone()
    }

    /// `CL_PROGRAM_BINARY_TYPE`.
    pub fn binary_type(&self) -> cl_program_binary_type {
        match &self.state.lock().output {
            Output::Executable(..) => CL_PROGRAM_BINARY_TYPE_EXECUTABLE,
            Output::Unit(_, t) => *t,
            Output::None => match &self.origin {
                Origin::Binary(_, t) => *t,
                _ => CL_PROGRAM_BINARY_TYPE_NONE,
            },
        }
    }

    /// `CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE`.
    pub fn global_variable_total_size(&self) -> usize {
        self.executable()
            .map_or(0, |e| e.code.global_variable_total_size() as usize)
    }

    /// The binary for `CL_PROGRAM_BINARIES` (empty if there is none).
    pub fn binary(&self) -> Arc<Vec<u8>> {
        let mut st = self.state.lock();
        let bin = match &mut st.output {
            Output::Executable(_, BinarySource::Unit(u)) => {
                encode_binary(CL_PROGRAM_BINARY_TYPE_EXECUTABLE, u)
            }
            Output::Executable(
                _,
                BinarySource::Source {
                    source,
                    options,
                    cached,
                },
            ) => {
                if let Some(c) = cached {
                    return c.clone();
                }
                let opts = BuildOptions::parse(options).unwrap_or_default();
                // It built, so it preprocesses (unless an -I header changed
                // since: then the binary holds what preprocessing gives now).
                let text = preprocess_text(source, &opts, &[]).unwrap_or_default();
                let unit = Unit {
                    options: options.clone(),
                    text,
                };
                let bin = Arc::new(encode_binary(CL_PROGRAM_BINARY_TYPE_EXECUTABLE, &unit));
                *cached = Some(bin.clone());
                return bin;
            }
            Output::Unit(u, t) => encode_binary(*t, u),
            Output::None => match &self.origin {
                Origin::Binary(u, t) => encode_binary(*t, u),
                _ => Vec::new(),
            },
        };
        Arc::new(bin)
    }

    /// Claim the program for a build/compile: `CL_INVALID_OPERATION` if one
    /// is in progress or kernels are attached. Records the options and sets
    /// the status to in-progress.
    pub fn begin_build(&self, options: &str) -> CLResult<()> {
        let mut st = self.state.lock();
        // CL_INVALID_OPERATION if the build of a program executable for any
        // of the devices listed in device_list by a previous call to
        // clBuildProgram for program has not completed.
        if st.status == CL_BUILD_IN_PROGRESS {
            return err(
                CL_INVALID_OPERATION,
                "a build of this program has not completed",
            );
        }
        // CL_INVALID_OPERATION if there are kernel objects attached to program.
        if self.kernel_count() > 0 {
            return err(
                CL_INVALID_OPERATION,
                "kernel objects are attached to this program",
            );
        }
        st.status = CL_BUILD_IN_PROGRESS;
        st.options = options.to_string();
        st.log.clear();
        Ok(())
    }

    /// Record a finished build: `Ok(output)` or `Err(log)`.
    pub fn finish_build(&self, result: Result<(Output, String), String>) -> bool {
        let mut st = self.state.lock();
        match result {
            Ok((output, log)) => {
                st.status = CL_BUILD_SUCCESS;
                st.log = log;
                st.output = output;
                true
            }
            Err(log) => {
                st.status = CL_BUILD_ERROR;
                st.log = log;
                st.output = Output::None;
                false
            }
        }
    }

    /// Set the log without building (invalid options).
    pub fn set_log(&self, options: &str, log: String) {
        let mut st = self.state.lock();
        if st.status != CL_BUILD_IN_PROGRESS {
            st.options = options.to_string();
            st.log = log;
        }
    }
}

/// Parse an options string; the `Err` is the message for the build log.
pub fn parse_options(options: &str) -> Result<BuildOptions, String> {
    BuildOptions::parse(options).map_err(|e| format!("invalid options '{options}': {e}"))
}

/// Whether a program built with `opts` must run in uniform work-groups.
pub fn needs_uniform(opts: &BuildOptions) -> bool {
    opts.uniform_work_group_size || opts.cl_std.unwrap_or_default() < ClStd::Cl20
}

/// `CRANECL_EXPLAIN` (set and not `0`, read once): each build prints, and
/// adds to its log, each kernel's work-group strategy and step and why a
/// faster one was refused.
fn explain() -> bool {
    static EXPLAIN: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *EXPLAIN.get_or_init(|| std::env::var_os("CRANECL_EXPLAIN").is_some_and(|v| v != "0"))
}

/// Build an executable from source (or preprocessed text). Returns the
/// executable and the log (warnings), or the log.
pub fn build_executable(
    text: &str,
    opts: &BuildOptions,
    headers: &[(String, String)],
    checks: Checks,
    schedule: Option<Schedule>,
) -> Result<(Executable, String), String> {
    let units: Vec<&str> = text.split(UNIT_SEPARATOR).collect();
    let fe = cranecl_jit::frontend::compile_units(&units, SOURCE_NAME, opts, headers);
    let Some(hir) = fe.program.filter(|_| fe.success) else {
        return Err(fe.log);
    };
    let copts = CodegenOptions {
        optimize: !opts.opt_disable,
        check: checks,
        sources: (checks.any_code() || explain()).then(|| Arc::new(fe.sources)),
        explain: explain(),
        schedule,
        denorms_are_zero: opts.denorms_are_zero,
        ..CodegenOptions::default()
    };
    match codegen::compile(&hir, &copts) {
        Ok(code) => {
            let mut log = fe.log;
            if explain() {
                for e in code.explanations() {
                    let line = format!("note: {e}\n");
                    eprint!("cranecl: {line}");
                    log.push_str(&line);
                }
            }
            Ok((
                Executable {
                    last_run: code.kernels().iter().map(|_| LastRun::default()).collect(),
                    code,
                    uniform_work_groups: needs_uniform(opts),
                    kernel_arg_info: opts.kernel_arg_info,
                },
                log,
            ))
        }
        Err(e) => Err(format!("{}error: code generation failed: {e}\n", fe.log)),
    }
}

/// Check a unit (`clCompileProgram`): the front end must accept it; the
/// result is the preprocessed text.
pub fn compile_unit(
    source: &str,
    options: &str,
    opts: &BuildOptions,
    headers: &[(String, String)],
) -> Result<(Unit, String), String> {
    let fe = cranecl_jit::frontend::compile(source, SOURCE_NAME, opts, headers);
    if !fe.success {
        return Err(fe.log);
    }
    let text = preprocess_text(source, opts, headers)?;
    Ok((
        Unit {
            options: options.to_string(),
            text,
        },
        fe.log,
    ))
}

/// The options to recompile preprocessed text with: `options` without the
/// preprocessor's `-D` and `-I` (already applied).
pub fn text_options(options: &str) -> Result<BuildOptions, String> {
    let mut o = parse_options(options)?;
    o.defines.clear();
    o.include_dirs.clear();
    Ok(o)
}

/// Link units: the options of the result (for its binary and the recompile)
/// and the units' texts, each still its own translation unit (joined by
/// [`UNIT_SEPARATOR`], split again by [`build_executable`]). OpenCL C version: the highest of the inputs;
/// uniform work-groups if any input needs them; argument info if every input
/// has it.
pub fn link_units(units: &[Unit], link: &BuildOptions) -> Result<Unit, String> {
    let mut std = ClStd::Cl10;
    let mut uniform = false;
    let mut arg_info = true;
    let mut texts = Vec::new();
    for u in units {
        let o = text_options(&u.options)?;
        std = std.max(o.cl_std.unwrap_or_default());
        uniform |= needs_uniform(&o);
        arg_info &= o.kernel_arg_info;
        texts.extend(u.text.split(UNIT_SEPARATOR));
    }
    let text = texts.join(UNIT_SEPARATOR);
    let v = std.version();
    let mut options = format!("-cl-std=CL{}.{}", v / 100, (v / 10) % 10);
    if uniform {
        options.push_str(" -cl-uniform-work-group-size");
    }
    if arg_info && !units.is_empty() {
        options.push_str(" -cl-kernel-arg-info");
    }
    for (set, flag) in [
        (link.denorms_are_zero, "-cl-denorms-are-zero"),
        (link.no_signed_zeros, "-cl-no-signed-zeros"),
        (link.unsafe_math, "-cl-unsafe-math-optimizations"),
        (link.finite_math_only, "-cl-finite-math-only"),
        (link.fast_relaxed_math, "-cl-fast-relaxed-math"),
    ] {
        if set {
            options.push(' ');
            options.push_str(flag);
        }
    }
    Ok(Unit { options, text })
}

/// Preprocess `source` and write the tokens back as text (one line per
/// source line that had tokens; string literals re-escaped).
pub fn preprocess_text(
    source: &str,
    opts: &BuildOptions,
    headers: &[(String, String)],
) -> Result<String, String> {
    let mut sm = SourceMap::new();
    let main = sm.add(SOURCE_NAME, source);
    let mut diags = Diagnostics::new();
    let pp = PreprocessOptions {
        defines: opts.defines.clone(),
        include_dirs: opts.include_dirs.clone(),
        embedded_headers: headers.to_vec(),
        cl_std: opts.cl_std.unwrap_or_default(),
        fast_relaxed_math: opts.fast_relaxed_math,
        single_precision_constant: opts.single_precision_constant,
    };
    let tokens = preprocess::preprocess(&mut sm, main, &pp, &mut diags);
    if diags.has_errors() {
        return Err(diags.render(&sm));
    }
    // Each token of the user's text goes back to its line and column
    // (`#line` where lines cannot be padded), so a program rebuilt from
    // this text reports the same places (build logs, checked mode).
    let mut out = String::with_capacity(source.len());
    let (mut line, mut col) = (1u32, 1u32);
    let mut name = SOURCE_NAME.to_string();
    for t in tokens.iter().filter(|t| t.kind != TokenKind::Eof) {
        let text = preprocess::token_text(t);
        let at = t.loc();
        let place = sm.get(at.file).map(|f| {
            let (_, c) = f.line_col(at.lo);
            let (n, l) = f.presumed(at.lo);
            (n.to_string(), l, c)
        });
        match place {
            Some((n, l, c))
                if n == SOURCE_NAME
                    && (t.expanded_from.is_none() || t.at_line_start || l != line) =>
            {
                if n != name || l < line || l > line + 8 {
                    if col > 1 {
                        out.push('\n');
                    }
                    out.push_str(&format!("#line {l} \"{n}\"\n"));
                    (line, col, name) = (l, 1, n);
                }
                while line < l {
                    out.push('\n');
                    (line, col) = (line + 1, 1);
                }
                if c > col {
                    out.extend(std::iter::repeat_n(' ', (c - col) as usize));
                    col = c;
                } else if c < col && col > 1 {
                    out.push(' ');
                    col += 1;
                }
            }
            // Headers' tokens as the preprocessor gave them.
            Some((n, ..)) if n != SOURCE_NAME => {
                if t.at_line_start && col > 1 {
                    out.push('\n');
                    col = 1;
                    name = String::new();
                } else if col > 1 {
                    out.push(' ');
                    col += 1;
                }
            }
            _ => {
                if col > 1 {
                    out.push(' ');
                    col += 1;
                }
            }
        }
        out.push_str(&text);
        col += text.chars().count() as u32;
    }
    out.push('\n');
    Ok(out)
}

/// Our binary: header and unit (see the module comment).
pub fn encode_binary(binary_type: cl_program_binary_type, unit: &Unit) -> Vec<u8> {
    let mut b = Vec::with_capacity(32 + unit.options.len() + unit.text.len());
    b.extend_from_slice(BINARY_MAGIC);
    b.extend_from_slice(&BINARY_VERSION.to_le_bytes());
    b.extend_from_slice(&binary_type.to_le_bytes());
    b.extend_from_slice(&(unit.options.len() as u32).to_le_bytes());
    b.extend_from_slice(unit.options.as_bytes());
    b.extend_from_slice(&(unit.text.len() as u64).to_le_bytes());
    b.extend_from_slice(unit.text.as_bytes());
    b
}

/// Read one of our binaries; `Err` says what is wrong with it.
pub fn decode_binary(bytes: &[u8]) -> Result<(cl_program_binary_type, Unit), String> {
    let mut r = Reader(bytes);
    if r.take(8)? != BINARY_MAGIC {
        return Err("not a cranecl binary (bad magic)".into());
    }
    let version = r.u32()?;
    if version != BINARY_VERSION {
        return Err(format!(
            "binary format version {version}, expected {BINARY_VERSION}"
        ));
    }
    let ty = cl_program_binary_type::from(r.u32()?);
    if ![
        CL_PROGRAM_BINARY_TYPE_EXECUTABLE,
        CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT,
        CL_PROGRAM_BINARY_TYPE_LIBRARY,
    ]
    .contains(&ty)
    {
        return Err(format!("unknown binary type {ty}"));
    }
    let n = r.u32()? as usize;
    let options = r.string(n)?;
    let n = usize::try_from(r.u64()?).map_err(|_| "text too long".to_string())?;
    let text = r.string(n)?;
    if !r.0.is_empty() {
        return Err("trailing bytes after the program text".into());
    }
    // The options must be ones we accept.
    parse_options(&options)?;
    Ok((ty, Unit { options, text }))
}

struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        if self.0.len() < n {
            return Err("binary is truncated".into());
        }
        let (a, b) = self.0.split_at(n);
        self.0 = b;
        Ok(a)
    }
    fn u32(&mut self) -> Result<u32, String> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn u64(&mut self) -> Result<u64, String> {
        let b = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }
    fn string(&mut self, n: usize) -> Result<String, String> {
        let b = self.take(n)?;
        String::from_utf8(b.to_vec()).map_err(|_| "binary text is not UTF-8".to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_launches_are_timed_one_in_eight() {
        let last = LastRun::default();
        // Nothing known: every launch is timed.
        assert!(last.due(64, 5_000) && last.due(64, 5_000));
        last.record(64, 1_000);
        let timed = (0..8 * TIMED_EVERY).filter(|_| last.due(64, 5_000)).count();
        assert_eq!(timed, 8);
        // More items than the latest launch, or a long latest launch: timed.
        assert!((0..3).all(|_| last.due(65, 5_000)));
        last.record(64, 9_000);
        last.record(64, 9_000);
        assert!((0..3).all(|_| last.due(64, 5_000)));
    }

    #[test]
    fn binary_round_trip_and_corruption() {
        let u = Unit {
            options: "-cl-std=CL2.0".into(),
            text: "kernel void k(global int *p) { p[0] = 1; }\n".into(),
        };
        let b = encode_binary(CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT, &u);
        assert_eq!(
            decode_binary(&b),
            Ok((CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT, u.clone()))
        );
        assert!(decode_binary(&b[..b.len() - 1]).is_err());
        let mut bad = b.clone();
        bad[0] = b'X';
        assert!(decode_binary(&bad).is_err());
        let mut bad = b;
        bad[12] = 77;
        assert!(decode_binary(&bad).is_err());
    }

    #[test]
    fn preprocessed_text_reescapes_strings_and_expands_macros() {
        let opts = BuildOptions::parse("-D N=4").unwrap_or_default();
        let src = "#define TWICE(x) ((x) + (x))\nconstant char s[] = \"a\\\"b\\n\";\nint f(void) { return TWICE(N); }\n";
        let t = preprocess_text(src, &opts, &[]).unwrap_or_default();
        assert!(t.contains(r#""a\"b\n""#), "{t}");
        assert!(t.contains("( ( 4 ) + ( 4 ) )"), "{t}");
        assert!(!t.contains("TWICE"), "{t}");
    }

    #[test]
    fn one_slow_launch_does_not_make_a_kernel_long() {
        let last = LastRun::default();
        assert!(!last.short(64, 5_000), "no launch yet");
        last.record(64, 800);
        assert!(last.short(64, 5_000));
        assert!(!last.short(65, 5_000), "more items than measured");
        last.record(64, 90_000);
        assert!(last.short(64, 5_000), "one outlier");
        last.record(64, 70_000);
        assert!(!last.short(64, 5_000), "two slow launches in a row");
        last.record(64, 900);
        assert!(last.short(64, 5_000), "fast again");
    }
}
