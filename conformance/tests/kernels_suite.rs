//! The kernel suite: every `.cl` file of `conformance/kernels/` is built and
//! run on cranecl through the OpenCL loader, and the buffers it names are
//! compared with a reference computed here in Rust (`kernels_ref/`).
//!
//! Each file opens with directives, one per line, `// @<name> ...`:
//!
//! | directive | meaning |
//! |-----------|---------|
//! | `@options <text>` | build options |
//! | `@buf <name> <type> <count> <init>` | a buffer of `count` scalars (`char` … `double`); init `zero`, `iota`, `rand`, `rand(lo,hi)`, `randbits`, `const(v)`, `list(v,…)` |
//! | `@run <kernel> g=<x[,y[,z]]> [l=…] [o=…] : <args>` | one launch; args: a buffer name, `null`, `local(bytes)`, `<type>(v,…)` (values of one type packed), `pack(type:v,…)` (mixed, packed as written) |
//! | `@check <buf> <reference> [tol=<t>]` | after the runs, `buf` must equal the reference (floats within `t` relative, absolute below 1) |
//! | `@xfail <reason>` | known to fail until the compiler or the built-ins catch up: a failure is listed, not fatal; a pass is reported so the mark is removed |
//! | `@xfail-checked <reason>` | as `@xfail`, only under checked mode (`CRANECL_CHECK` set): a known false report of the checks, listed until they learn better |
//!
//! An unknown directive fails the suite. Runs happen in order on one in-order
//! queue (program-scope variables persist between them). The suite runs every
//! file and reports every failure at once. `KERNELS_FILTER=<text>` runs only
//! the files whose name contains it; `KERNELS_DIR=<folder>` reads the cases
//! from another folder; `KERNELS_DIRECT=1` calls the ICD's own exports (no
//! loader; with `CRANECL_SO=<path>` on a machine without the source tree).

mod kernels_ref;

use cranecl_conformance::{call, cl, code_name, direct, Cl};
use kernels_ref::{reference, Inputs, Ty};
use opencl_sys::*;
use std::collections::HashMap;
use std::ffi::{c_void, CString};
use std::path::{Path, PathBuf};

#[derive(Clone, Debug)]
enum Init {
    Zero,
    Iota,
    Rand(Option<(f64, f64)>),
    RandBits,
    Const(f64),
    List(Vec<f64>),
}

#[derive(Clone, Debug)]
struct BufSpec {
    name: String,
    ty: Ty,
    count: usize,
    init: Init,
}

#[derive(Clone, Debug)]
enum Arg {
    Buf(String),
    Null,
    Local(usize),
    Bytes(Vec<u8>),
}

#[derive(Clone, Debug)]
struct Run {
    kernel: String,
    global: Vec<usize>,
    local: Option<Vec<usize>>,
    offset: Option<Vec<usize>>,
    args: Vec<Arg>,
}

#[derive(Clone, Debug)]
struct Check {
    buf: String,
    reference: String,
    tol: f64,
}

#[derive(Clone, Debug, Default)]
struct Case {
    name: String,
    source: String,
    options: String,
    bufs: Vec<BufSpec>,
    runs: Vec<Run>,
    checks: Vec<Check>,
    xfail: Option<String>,
    xfail_checked: Option<String>,
}

fn parse_list(s: &str) -> Result<Vec<usize>, String> {
    s.split(',')
        .map(|v| {
            v.trim()
                .parse::<usize>()
                .map_err(|_| format!("bad size '{v}'"))
        })
        .collect()
}

/// `name(a,b,…)` → (name, [a, b, …]).
fn call_form(s: &str) -> Option<(&str, Vec<&str>)> {
    let open = s.find('(')?;
    let inner = s[open + 1..].strip_suffix(')')?;
    let args = if inner.trim().is_empty() {
        Vec::new()
    } else {
        inner.split(',').map(str::trim).collect()
    };
    Some((&s[..open], args))
}

fn parse_num(s: &str) -> Result<f64, String> {
    let t = s.trim();
    if let Some(h) = t.strip_prefix("0x") {
        return u64::from_str_radix(h, 16)
            .map(|v| v as f64)
            .map_err(|_| format!("bad number '{t}'"));
    }
    t.parse::<f64>().map_err(|_| format!("bad number '{t}'"))
}

/// One value of type `ty` as bytes (integers from their exact text, so
/// 64-bit values survive).
fn value_bytes(ty: Ty, s: &str) -> Result<Vec<u8>, String> {
    let t = s.trim();
    let int = || -> Result<i128, String> {
        if let Some(h) = t.strip_prefix("0x") {
            i128::from_str_radix(h, 16).map_err(|_| format!("bad integer '{t}'"))
        } else {
            t.parse::<i128>().map_err(|_| format!("bad integer '{t}'"))
        }
    };
    Ok(match ty {
        Ty::F32 => (parse_num(t)? as f32).to_le_bytes().to_vec(),
        Ty::F64 => parse_num(t)?.to_le_bytes().to_vec(),
        _ => {
            let v = int()?;
            v.to_le_bytes()[..ty.size()].to_vec()
        }
    })
}

fn parse_arg(s: &str) -> Result<Arg, String> {
    if s == "null" {
        return Ok(Arg::Null);
    }
    let Some((head, vals)) = call_form(s) else {
        return Ok(Arg::Buf(s.to_string()));
    };
    if head == "local" {
        let n = vals.first().ok_or("local() needs a size")?;
        return Ok(Arg::Local(
            n.parse().map_err(|_| format!("bad local size '{n}'"))?,
        ));
    }
    let mut bytes = Vec::new();
    if head == "pack" {
        for v in vals {
            let (ty, val) = v
                .split_once(':')
                .ok_or(format!("pack item '{v}' needs type:value"))?;
            bytes.extend(value_bytes(Ty::parse(ty)?, val)?);
        }
    } else {
        let ty = Ty::parse(head)?;
        for v in vals {
            bytes.extend(value_bytes(ty, v)?);
        }
    }
    Ok(Arg::Bytes(bytes))
}

fn parse_init(s: &str) -> Result<Init, String> {
    match s {
        "zero" => return Ok(Init::Zero),
        "iota" => return Ok(Init::Iota),
        "rand" => return Ok(Init::Rand(None)),
        "randbits" => return Ok(Init::RandBits),
        _ => {}
    }
    let (head, vals) = call_form(s).ok_or(format!("bad init '{s}'"))?;
    let nums: Vec<f64> = vals
        .iter()
        .map(|v| parse_num(v))
        .collect::<Result<_, _>>()?;
    match (head, nums.as_slice()) {
        ("rand", [lo, hi]) => Ok(Init::Rand(Some((*lo, *hi)))),
        ("const", [v]) => Ok(Init::Const(*v)),
        ("list", _) => Ok(Init::List(nums)),
        _ => Err(format!("bad init '{s}'")),
    }
}

fn parse_case(name: &str, source: &str) -> Result<Case, String> {
    let mut c = Case {
        name: name.to_string(),
        source: source.to_string(),
        ..Case::default()
    };
    for line in source.lines() {
        let Some(d) = line.trim().strip_prefix("// @") else {
            continue;
        };
        let (word, rest) = d.split_once(char::is_whitespace).unwrap_or((d, ""));
        let rest = rest.trim();
        match word {
            "options" => c.options = rest.to_string(),
            "xfail" => c.xfail = Some(rest.to_string()),
            "xfail-checked" => c.xfail_checked = Some(rest.to_string()),
            "buf" => {
                let w: Vec<&str> = rest.split_whitespace().collect();
                let [n, ty, count, init] = w.as_slice() else {
                    return Err(format!("@buf needs name type count init: '{rest}'"));
                };
                c.bufs.push(BufSpec {
                    name: n.to_string(),
                    ty: Ty::parse(ty)?,
                    count: count.parse().map_err(|_| format!("bad count '{count}'"))?,
                    init: parse_init(init)?,
                });
            }
            "run" => {
                let (head, args) = rest.split_once(" : ").unwrap_or((rest, ""));
                let mut w = head.split_whitespace();
                let kernel = w.next().ok_or("@run needs a kernel")?.to_string();
                let mut run = Run {
                    kernel,
                    global: Vec::new(),
                    local: None,
                    offset: None,
                    args: args
                        .split_whitespace()
                        .map(parse_arg)
                        .collect::<Result<_, _>>()?,
                };
                for kv in w {
                    match kv.split_once('=') {
                        Some(("g", v)) => run.global = parse_list(v)?,
                        Some(("l", v)) => run.local = Some(parse_list(v)?),
                        Some(("o", v)) => run.offset = Some(parse_list(v)?),
                        _ => return Err(format!("@run: unknown '{kv}'")),
                    }
                }
                if run.global.is_empty() {
                    return Err("@run needs g=".into());
                }
                c.runs.push(run);
            }
            "check" => {
                let w: Vec<&str> = rest.split_whitespace().collect();
                let (buf, r) = match w.as_slice() {
                    [b, r, ..] => (b.to_string(), r.to_string()),
                    _ => return Err(format!("@check needs buffer and reference: '{rest}'")),
                };
                let mut tol = 0.0;
                for extra in &w[2..] {
                    match extra.strip_prefix("tol=") {
                        Some(t) => tol = parse_num(t)?,
                        None => return Err(format!("@check: unknown '{extra}'")),
                    }
                }
                if reference(&r).is_none() {
                    return Err(format!("@check: no reference named '{r}'"));
                }
                c.checks.push(Check {
                    buf,
                    reference: r,
                    tol,
                });
            }
            _ => return Err(format!("unknown directive '@{word}'")),
        }
    }
    if c.runs.is_empty() || c.checks.is_empty() {
        return Err("a case needs at least one @run and one @check".into());
    }
    Ok(c)
}

/// A small deterministic generator (splitmix64), seeded per buffer.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn seed(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

/// The initial contents of a buffer.
fn fill(case: &str, b: &BufSpec) -> Vec<u8> {
    let mut rng = Rng(seed(&format!("{case}/{}", b.name)));
    let mut out = Vec::with_capacity(b.count * b.ty.size());
    for i in 0..b.count {
        let v: Vec<u8> = match &b.init {
            Init::RandBits => rng.next().to_le_bytes()[..b.ty.size()].to_vec(),
            init => {
                let x = match init {
                    Init::Zero => 0.0,
                    Init::Iota => i as f64,
                    Init::Const(v) => *v,
                    Init::List(l) => l.get(i % l.len().max(1)).copied().unwrap_or(0.0),
                    Init::Rand(range) => {
                        let (lo, hi) = range.unwrap_or(if b.ty.is_float() {
                            (-1.0, 1.0)
                        } else if b.ty.is_signed() {
                            (-1000.0, 1000.0)
                        } else {
                            (0.0, 1000.0)
                        });
                        if b.ty.is_float() {
                            lo + (hi - lo) * rng.unit()
                        } else {
                            (lo + ((hi - lo + 1.0) * rng.unit()).floor()).min(hi)
                        }
                    }
                    Init::RandBits => 0.0,
                };
                b.ty.encode(x)
            }
        };
        out.extend(v);
    }
    out
}

/// Run one case; `Err` describes the first thing that went wrong in it.
fn run_case(t: &Cl, ctx: cl_context, q: cl_command_queue, c: &Case) -> Result<(), String> {
    let dev = t.device();
    let src = CString::new(c.source.clone()).map_err(|_| "source has a NUL")?;
    let mut e = 0;
    let mut sp = src.as_ptr();
    let p = call!(t; clCreateProgramWithSource(ctx, 1, &mut sp, std::ptr::null(), &mut e));
    if e != CL_SUCCESS {
        return Err(format!("clCreateProgramWithSource: {}", code_name(e)));
    }
    let opts = CString::new(c.options.clone()).map_err(|_| "options have a NUL")?;
    let r = call!(t; clBuildProgram(p, 1, &dev, opts.as_ptr(), None, std::ptr::null_mut()));
    let result = if r != CL_SUCCESS {
        let log = cranecl_conformance::info_string(
            |s, v, rr| call!(t; clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, s, v, rr)),
        )
        .unwrap_or_default();
        Err(format!("build: {}\n{}", code_name(r), log.trim_end()))
    } else {
        run_built(t, ctx, q, p, c)
    };
    call!(t; clReleaseProgram(p));
    result
}

fn run_built(
    t: &Cl,
    ctx: cl_context,
    q: cl_command_queue,
    p: cl_program,
    c: &Case,
) -> Result<(), String> {
    let mut inputs = HashMap::new();
    let mut mems: HashMap<String, (cl_mem, Ty, usize)> = HashMap::new();
    let release = |mems: &HashMap<String, (cl_mem, Ty, usize)>| {
        for (m, _, _) in mems.values() {
            call!(t; clReleaseMemObject(*m));
        }
    };
    for b in &c.bufs {
        let mut data = fill(&c.name, b);
        let mut e = 0;
        let m = call!(t; clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, data.len().max(1), data.as_mut_ptr().cast(), &mut e));
        if e != CL_SUCCESS {
            release(&mems);
            return Err(format!("clCreateBuffer({}): {}", b.name, code_name(e)));
        }
        mems.insert(b.name.clone(), (m, b.ty, b.count));
        inputs.insert(b.name.clone(), (b.ty, data));
    }
    let result = (|| {
        for (ri, run) in c.runs.iter().enumerate() {
            let kname = CString::new(run.kernel.clone()).map_err(|_| "bad kernel name")?;
            let mut e = 0;
            let k = call!(t; clCreateKernel(p, kname.as_ptr(), &mut e));
            if e != CL_SUCCESS {
                return Err(format!("clCreateKernel({}): {}", run.kernel, code_name(e)));
            }
            let r =
                launch(t, q, k, run, &mems).map_err(|m| format!("run {ri} ({}): {m}", run.kernel));
            call!(t; clReleaseKernel(k));
            r?;
        }
        let inputs = Inputs::new(inputs);
        for ch in &c.checks {
            let (m, ty, count) = *mems
                .get(&ch.buf)
                .ok_or(format!("@check names no buffer '{}'", ch.buf))?;
            let mut got = vec![0u8; count * ty.size()];
            let r = call!(t; clEnqueueReadBuffer(q, m, CL_TRUE, 0, got.len(), got.as_mut_ptr().cast(), 0, std::ptr::null(), std::ptr::null_mut()));
            if r != CL_SUCCESS {
                return Err(format!("read {}: {}", ch.buf, code_name(r)));
            }
            let f = reference(&ch.reference).ok_or("no reference")?;
            let want = f(&inputs);
            kernels_ref::compare(ty, &got, &want, ch.tol)
                .map_err(|m| format!("{} vs {}: {m}", ch.buf, ch.reference))?;
        }
        Ok(())
    })();
    release(&mems);
    result
}

fn launch(
    t: &Cl,
    q: cl_command_queue,
    k: cl_kernel,
    run: &Run,
    mems: &HashMap<String, (cl_mem, Ty, usize)>,
) -> Result<(), String> {
    for (i, a) in run.args.iter().enumerate() {
        let i = i as cl_uint;
        let r = match a {
            Arg::Buf(name) => {
                let (m, _, _) = mems.get(name).ok_or(format!("no buffer '{name}'"))?;
                call!(t; clSetKernelArg(k, i, std::mem::size_of::<cl_mem>(), (m as *const cl_mem).cast()))
            }
            Arg::Null => {
                call!(t; clSetKernelArg(k, i, std::mem::size_of::<cl_mem>(), std::ptr::null()))
            }
            Arg::Local(n) => call!(t; clSetKernelArg(k, i, *n, std::ptr::null())),
            Arg::Bytes(b) => call!(t; clSetKernelArg(k, i, b.len(), b.as_ptr() as *const c_void)),
        };
        if r != CL_SUCCESS {
            return Err(format!("clSetKernelArg({i}): {}", code_name(r)));
        }
    }
    let dim = run.global.len() as cl_uint;
    let lp = run.local.as_ref().map_or(std::ptr::null(), |l| l.as_ptr());
    let op = run.offset.as_ref().map_or(std::ptr::null(), |o| o.as_ptr());
    let mut ev = std::ptr::null_mut();
    let r = call!(t; clEnqueueNDRangeKernel(q, k, dim, op, run.global.as_ptr(), lp, 0, std::ptr::null(), &mut ev));
    if r != CL_SUCCESS {
        return Err(format!("clEnqueueNDRangeKernel: {}", code_name(r)));
    }
    call!(t; clWaitForEvents(1, &ev));
    let mut status: cl_int = 0;
    call!(t; clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, 4, (&mut status as *mut cl_int).cast(), std::ptr::null_mut()));
    call!(t; clReleaseEvent(ev));
    if status != CL_COMPLETE {
        return Err(format!("the launch failed: {}", code_name(status)));
    }
    Ok(())
}

fn kernel_files() -> Vec<PathBuf> {
    let dir = std::env::var_os("KERNELS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels"));
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("conformance/kernels exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cl"))
        .collect();
    files.sort();
    files
}

#[test]
fn kernel_suite() {
    let t = if std::env::var_os("KERNELS_DIRECT").is_some() {
        direct()
    } else {
        cl()
    };
    let ctx = t.context();
    let q = t.queue(ctx, 0);
    let filter = std::env::var("KERNELS_FILTER").unwrap_or_default();
    let (mut passed, mut failed, mut xfailed, mut xpassed, mut kernels) =
        (0, Vec::new(), Vec::new(), Vec::new(), 0);
    for path in kernel_files() {
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        if !name.contains(&filter) {
            continue;
        }
        let source = std::fs::read_to_string(&path).expect("readable kernel file");
        let case = match parse_case(&name, &source) {
            Ok(c) => c,
            Err(m) => {
                failed.push(format!("{name}: bad directives: {m}"));
                continue;
            }
        };
        kernels += source.matches("kernel void").count();
        let r = run_case(t, ctx, q, &case);
        let checked = std::env::var_os("CRANECL_CHECK").is_some_and(|v| !v.is_empty());
        let xfail = match &case.xfail_checked {
            Some(why) if checked && case.xfail.is_none() => Some(format!("checked mode: {why}")),
            _ => case.xfail.clone(),
        };
        match (r, &xfail) {
            (Ok(()), None) => passed += 1,
            (Ok(()), Some(why)) => xpassed.push(format!("{name} (marked: {why})")),
            (Err(m), None) => failed.push(format!("{name}: {m}")),
            (Err(m), Some(why)) => xfailed.push(format!(
                "{name} ({why}): {}",
                m.lines()
                    .find(|l| l.contains("error"))
                    .or(m.lines().next())
                    .unwrap_or("")
                    .trim()
            )),
        }
    }
    call!(t; clReleaseCommandQueue(q));
    call!(t; clReleaseContext(ctx));
    println!("kernel suite: {passed} passed, {} failed, {} expected failures, {} unexpected passes; {kernels} kernels", failed.len(), xfailed.len(), xpassed.len());
    for x in &xfailed {
        println!("  XFAIL {x}");
    }
    for x in &xpassed {
        println!("  XPASS {x}: remove the @xfail mark");
    }
    for f in &failed {
        println!("  FAIL {f}");
    }
    assert!(
        failed.is_empty() && xpassed.is_empty(),
        "{} kernel cases failed, {} passed unexpectedly (see the list above)",
        failed.len(),
        xpassed.len()
    );
}

#[test]
fn directives_are_validated() {
    assert!(parse_case("x", "// @bogus 1\n").is_err());
    assert!(
        parse_case("x", "// @buf a float 4 zero\n// @check a vadd\n").is_err(),
        "no @run"
    );
    assert!(parse_case(
        "x",
        "// @buf a float 4 zero\n// @run k g=4 : a\n// @check a no_such_reference\n"
    )
    .is_err());
    let c = parse_case("x", "// @buf a int 4 list(1,2)\n// @run k g=4 l=2 o=1 : a int(3) local(64) pack(int:1,float:2.5) null\n// @check a vadd_f tol=1e-6\n").expect("valid");
    assert_eq!(c.runs[0].local, Some(vec![2]));
    assert_eq!(c.runs[0].args.len(), 5);
    assert_eq!(
        fill("x", &c.bufs[0]),
        [1i32, 2, 1, 2]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect::<Vec<u8>>()
    );
    match &c.runs[0].args[3] {
        Arg::Bytes(b) => assert_eq!(b.len(), 8),
        a => panic!("{a:?}"),
    }
}

/// No false positives: the whole suite again, every result checked, under
/// `CRANECL_CHECK=all` (in a child process of this test binary, so that the
/// variable reaches only its contexts).
#[test]
fn kernel_suite_runs_clean_under_checked_mode() {
    suite_runs_clean_under("all");
}

/// The same under `bounds` alone, whose code differs from `all`'s: its
/// accesses need no shadow, so loop conditions' loads are tested once before
/// their loops, subscripts proven inside are not tested, and a loop's `p[k]`
/// accesses are tested together before it (`CRANECL_CHECK=bounds`).
#[test]
fn kernel_suite_runs_clean_under_bounds_alone() {
    suite_runs_clean_under("bounds");
}

/// The suite under `CRANECL_CHECK=checks`: it passes and only the kernels
/// of cases marked `@xfail-checked` are reported.
fn suite_runs_clean_under(checks: &str) {
    let text = suite_in_child(&[("CRANECL_CHECK", checks)]);
    // Only the kernels of cases marked `@xfail-checked` may be reported.
    let marked: Vec<String> = kernel_files()
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .filter(|src| src.contains("// @xfail-checked"))
        .flat_map(|src| {
            src.split("kernel void ")
                .skip(1)
                .filter_map(|rest| rest.split('(').next().map(|n| n.trim().to_string()))
                .collect::<Vec<_>>()
        })
        .collect();
    for line in text.lines().filter(|l| l.contains("failed checked mode")) {
        assert!(
            marked
                .iter()
                .any(|k| line.contains(&format!("kernel '{k}'"))),
            "a report under {checks}:\n{text}"
        );
    }
}

/// Run `kernel_suite` in a child process of this test binary with `env`;
/// it must pass. Its stdout and stderr.
fn suite_in_child(env: &[(&str, &str)]) -> String {
    let exe = std::env::current_exe().expect("the test binary");
    let out = std::process::Command::new(exe)
        .args(["--exact", "kernel_suite", "--nocapture", "--test-threads=1"])
        .envs(env.iter().copied())
        .output()
        .expect("run the suite");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success(),
        "the suite under {env:?} failed:\n{text}"
    );
    assert!(text.contains("1 passed"), "the suite did not run:\n{text}");
    text
}

/// Every case gives the same checked results under every strategy and step
/// it is eligible for: the suite again with the lanes off (one work-item per
/// step), with every lanes entry at eight and at four work-items per step
/// (`CRANECL_LANES=8`, `=4`), and with the region strategy off
/// (coroutines), each in a child process with `CRANECL_EXPLAIN=1`, whose
/// notes show what ran: the default run uses the lanes at both widths and
/// the regions somewhere, the others only what they ask for.
#[test]
fn kernel_suite_gives_the_same_results_under_every_strategy() {
    let run = |env: &[(&str, &str)]| {
        let mut env = env.to_vec();
        env.push(("CRANECL_EXPLAIN", "1"));
        let text = suite_in_child(&env);
        // The chosen strategy and step of each kernel built.
        let chosen: Vec<String> = text
            .lines()
            .filter_map(|l| l.strip_prefix("cranecl: note: kernel "))
            .map(str::to_string)
            .collect();
        assert!(!chosen.is_empty(), "no CRANECL_EXPLAIN notes:\n{text}");
        chosen
    };
    let uses = |chosen: &[String], what: &str| chosen.iter().filter(|c| c.contains(what)).count();
    let default = run(&[]);
    assert!(uses(&default, "; 8 work-items per step") > 0);
    assert!(uses(&default, "; 4 work-items per step") > 0);
    assert!(uses(&default, ": regions (") > 0);
    let no_lanes = run(&[("CRANECL_LANES", "0")]);
    for n in [8, 4] {
        let step = format!("; {n} work-items per step");
        assert_eq!(uses(&no_lanes, &step), 0, "{no_lanes:#?}");
    }
    for (width, other) in [
        ("8", "; 4 work-items per step"),
        ("4", "; 8 work-items per step"),
    ] {
        let chosen = run(&[("CRANECL_LANES", width)]);
        let step = format!("; {width} work-items per step");
        assert!(uses(&chosen, &step) > 0, "{chosen:#?}");
        assert_eq!(uses(&chosen, other), 0, "{chosen:#?}");
    }
    let no_regions = run(&[("CRANECL_REGIONS", "0")]);
    assert_eq!(uses(&no_regions, ": regions ("), 0, "{no_regions:#?}");
    assert!(uses(&no_regions, ": coroutines (") > 0);
}

/// Schedule fuzzing changes no correct result: the suite again under five
/// `CRANECL_SCHEDULE=shuffle:SEED` seeds, with the lanes and with
/// `CRANECL_LANES=0`, each in a child process whose contexts print the
/// seed. (Kernels that depend on the order are in `schedule.rs`.)
#[test]
fn kernel_suite_gives_the_same_results_under_shuffled_schedules() {
    for seed in [1, 2, 3, 1234, 987654321] {
        let value = format!("shuffle:{seed}");
        for lanes in [None, Some("0")] {
            let mut env = vec![("CRANECL_SCHEDULE", value.as_str())];
            env.extend(lanes.map(|l| ("CRANECL_LANES", l)));
            let text = suite_in_child(&env);
            let line = format!("cranecl: CRANECL_SCHEDULE={value}");
            assert!(text.contains(&line), "no seed line under {env:?}:\n{text}");
        }
    }
}
