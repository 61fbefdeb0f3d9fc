//! Helpers for the run tests: build OpenCL C source to native code and run an
//! NDRange of it work-group by work-group, with no OpenCL API involved.
#![allow(dead_code)]

use cranecl_jit::codegen::{self, CodegenOptions, CompiledProgram};
use cranecl_jit::launch::{ArgKind, WorkGroupCtx};
use cranecl_jit::options::BuildOptions;
use cranecl_jit::runtime::schedule::{GroupOrder, Schedule};

/// Build `src` (OpenCL C 3.0 unless it says otherwise) or fail with the log.
pub fn build(src: &str) -> CompiledProgram {
    build_with(src, "-cl-std=CL3.0")
}

pub fn build_with(src: &str, options: &str) -> CompiledProgram {
    let opts = BuildOptions::parse(options).expect("build options");
    let out = cranecl_jit::frontend::compile(src, "test.cl", &opts, &[]);
    let Some(prog) = out.program else {
        panic!("front end failed:\n{}", out.log)
    };
    match codegen::compile(&prog, &CodegenOptions::default()) {
        Ok(p) => p,
        Err(e) => panic!("codegen failed: {e}"),
    }
}

/// Build `src` as OpenCL C 3.0 with the optional features codegen supports
/// turned on (fp64, program-scope globals, generic address space), whether
/// or not `features.rs` advertises them yet.
pub fn build_full(src: &str) -> CompiledProgram {
    use cranecl_jit::{
        diag::Diagnostics, options::ClStd, parse, preprocess, sema, source::SourceMap,
    };
    let std = ClStd::Cl30;
    let mut sm = SourceMap::new();
    let main = sm.add("test.cl", src);
    let mut diags = Diagnostics::new();
    let pp = preprocess::PreprocessOptions {
        defines: vec![
            ("cl_khr_fp64".into(), Some("1".into())),
            ("__opencl_c_fp64".into(), Some("1".into())),
        ],
        include_dirs: vec![],
        embedded_headers: vec![],
        cl_std: std,
        fast_relaxed_math: false,
        single_precision_constant: false,
    };
    let tokens = preprocess::preprocess(&mut sm, main, &pp, &mut diags);
    let tu = parse::parse_with(
        &tokens,
        parse::ParseOptions {
            opencl_c_version: std.version(),
        },
        &mut diags,
    );
    let mut so = sema::SemaOptions::for_std(std);
    so.fp64 = true;
    so.program_scope_globals = true;
    so.generic_address_space = true;
    let prog = sema::check(&tu, &so, &mut diags);
    assert!(
        !diags.has_errors(),
        "front end failed:\n{}",
        diags.render(&sm)
    );
    match codegen::compile(&prog, &CodegenOptions::default()) {
        Ok(p) => p,
        Err(e) => panic!("codegen failed: {e}"),
    }
}

/// Build `src` (OpenCL C 3.0) with explicit code-generation options.
pub fn build_cg(src: &str, cg: &CodegenOptions) -> CompiledProgram {
    build_cg_with(src, "-cl-std=CL3.0", cg)
}

/// `src` built as usual (with the notes of `CRANECL_EXPLAIN`) and as
/// written (no optimisation, no regions: none of the HIR rewrites runs),
/// for the tests of those rewrites.
pub fn rewritten_and_written(src: &str) -> [CompiledProgram; 2] {
    let fast = CodegenOptions {
        explain: true,
        ..Default::default()
    };
    let written = CodegenOptions {
        optimize: false,
        barrier_regions: false,
        ..Default::default()
    };
    [build_cg(src, &fast), build_cg(src, &written)]
}

/// Build `src` with build options and code-generation options.
pub fn build_cg_with(src: &str, options: &str, cg: &CodegenOptions) -> CompiledProgram {
    let opts = BuildOptions::parse(options).expect("build options");
    let out = cranecl_jit::frontend::compile(src, "test.cl", &opts, &[]);
    let Some(prog) = out.program else {
        panic!("front end failed:\n{}", out.log)
    };
    codegen::compile(&prog, cg).unwrap_or_else(|e| panic!("codegen failed: {e}"))
}

/// Build `src` twice: barriers as regions (where they apply) and as coroutines.
pub fn build_both(src: &str) -> [CompiledProgram; 2] {
    let regions = CodegenOptions {
        barrier_regions: true,
        ..Default::default()
    };
    let coroutines = CodegenOptions {
        barrier_regions: false,
        ..Default::default()
    };
    [build_cg(src, &regions), build_cg(src, &coroutines)]
}

/// Whether the host has fused multiply-add instructions, so that kernels
/// compute `a * b + c` in one expression with one rounding
/// (`lower/contract.rs`).
pub fn host_fma() -> bool {
    codegen::host_has_fma()
}

/// `a * b + c` as a kernel computes it in one expression.
pub fn contracted(a: f32, b: f32, c: f32) -> f32 {
    if host_fma() {
        a.mul_add(b, c)
    } else {
        a * b + c
    }
}

/// A kernel argument.
pub enum Arg<'a> {
    /// A global (or constant) buffer: its host address is passed.
    Buf(&'a mut [u8]),
    /// A value passed by copy.
    Val(Vec<u8>),
    /// A `local` pointer argument with this many bytes.
    Local(u64),
}

pub fn buf<T: Copy>(v: &mut [T]) -> Arg<'_> {
    // SAFETY: plain-old-data slices viewed as bytes for the kernel.
    Arg::Buf(unsafe {
        std::slice::from_raw_parts_mut(v.as_mut_ptr() as *mut u8, std::mem::size_of_val(v))
    })
}

pub fn val<T: Copy>(v: T) -> Arg<'static> {
    // SAFETY: a plain-old-data value viewed as bytes.
    let b = unsafe {
        std::slice::from_raw_parts(&v as *const T as *const u8, std::mem::size_of::<T>())
    };
    Arg::Val(b.to_vec())
}

/// Run `kernel` over `global` work-items in groups of `local` (1–3 dimensions,
/// unused dimensions 1), every group in order on this thread.
pub fn run(p: &CompiledProgram, kernel: &str, args: &mut [Arg<'_>], global: &[u64], local: &[u64]) {
    try_run(p, kernel, args, global, local, &[0, 0, 0]).expect("kernel fault")
}

pub fn try_run(
    p: &CompiledProgram,
    kernel: &str,
    args: &mut [Arg<'_>],
    global: &[u64],
    local: &[u64],
    offset: &[u64; 3],
) -> Result<(), String> {
    try_run_in(p, kernel, args, global, local, offset, None)
}

/// [`run`] with each group's work-items in the orders of `schedule` (the
/// groups themselves still in order), as launch number 0.
pub fn run_scheduled(
    p: &CompiledProgram,
    kernel: &str,
    args: &mut [Arg<'_>],
    global: &[u64],
    local: &[u64],
    schedule: Schedule,
) {
    try_run_in(p, kernel, args, global, local, &[0, 0, 0], Some(schedule)).expect("kernel fault")
}

fn try_run_in(
    p: &CompiledProgram,
    kernel: &str,
    args: &mut [Arg<'_>],
    global: &[u64],
    local: &[u64],
    offset: &[u64; 3],
    schedule: Option<Schedule>,
) -> Result<(), String> {
    let k = p
        .kernel_index(kernel)
        .ok_or_else(|| format!("no kernel {kernel}"))?;
    let (block, local_size_total) = arg_block(p, k, args);
    let mut local_mem = vec![0u128; (local_size_total as usize).div_ceil(16).max(1)];
    let (dims, g, l) = padded(global, local);
    let groups: Vec<u64> = (0..3).map(|d| g[d].div_ceil(l[d])).collect();
    for gz in 0..groups[2] {
        for gy in 0..groups[1] {
            for gx in 0..groups[0] {
                let gid = [gx, gy, gz];
                let mut ls = [1u64; 3];
                for d in 0..3 {
                    ls[d] = (g[d] - gid[d] * l[d]).min(l[d]);
                }
                let ctx = WorkGroupCtx {
                    work_dim: dims as u32,
                    global_size: g,
                    global_offset: *offset,
                    local_size: ls,
                    enqueued_local_size: l,
                    num_groups: [groups[0], groups[1], groups[2]],
                    group_id: gid,
                    local_mem: local_mem.as_mut_ptr() as usize,
                    local_mem_size: local_size_total,
                };
                let linear = (gz * groups[1] + gy) * groups[0] + gx;
                let order = schedule.map(|s| GroupOrder::new(s, 0, linear));
                p.run_work_group_checked(k, &block, &ctx, None, linear, order.as_ref())
                    .map_err(|f| f.message)?;
            }
        }
    }
    Ok(())
}

/// The argument block of kernel `k` for `args`, and the bytes of local
/// memory it needs (its `local` variables, then each `local` argument).
fn arg_block(p: &CompiledProgram, k: usize, args: &mut [Arg<'_>]) -> (Vec<u8>, u64) {
    let info = &p.kernels()[k];
    assert_eq!(
        info.args.len(),
        args.len(),
        "argument count of {}",
        info.name
    );
    let mut block = vec![0u8; info.args_size as usize];
    let mut local_size_total = info.local_mem_size.next_multiple_of(128);
    for (a, ai) in args.iter_mut().zip(&info.args) {
        let at = ai.offset as usize;
        match (a, ai.kind) {
            (Arg::Buf(b), ArgKind::GlobalPtr | ArgKind::ConstantPtr) => {
                block[at..at + 8].copy_from_slice(&(b.as_mut_ptr() as u64).to_le_bytes())
            }
            (Arg::Val(v), ArgKind::Value { size, .. }) => {
                assert_eq!(v.len(), size as usize, "size of argument {}", ai.name);
                block[at..at + v.len()].copy_from_slice(v)
            }
            (Arg::Local(n), ArgKind::LocalPtr) => {
                block[at..at + 8].copy_from_slice(&local_size_total.to_le_bytes());
                local_size_total += n.next_multiple_of(128);
            }
            (_, kind) => panic!("argument {} does not fit {kind:?}", ai.name),
        }
    }
    (block, local_size_total)
}

/// The dimension count, and `global` and `local` with unused dimensions 1.
fn padded(global: &[u64], local: &[u64]) -> (usize, [u64; 3], [u64; 3]) {
    let dims = global.len();
    let mut g = [1u64; 3];
    let mut l = [1u64; 3];
    g[..dims].copy_from_slice(global);
    l[..dims].copy_from_slice(local);
    (dims, g, l)
}

/// Run `kernel` as the executor does: the launch's groups in runs of `run`
/// linear ids, each run by one `run_work_groups` call (which runs a row of
/// work-groups of one work-item four per step where the kernel allows it).
/// A fault comes back with the group it names.
pub fn run_in_runs(
    p: &CompiledProgram,
    kernel: &str,
    args: &mut [Arg<'_>],
    global: &[u64],
    local: &[u64],
    offset: &[u64; 3],
    run: u64,
) -> Result<(), ([u64; 3], String)> {
    let k = p.kernel_index(kernel).expect("kernel");
    let (block, local_size_total) = arg_block(p, k, args);
    let mut local_mem = vec![0u128; (local_size_total as usize).div_ceil(16).max(1)];
    let (dims, g, l) = padded(global, local);
    let groups: [u64; 3] = std::array::from_fn(|d| g[d].div_ceil(l[d]));
    let ctx = WorkGroupCtx {
        work_dim: dims as u32,
        global_size: g,
        global_offset: *offset,
        local_size: l,
        enqueued_local_size: l,
        num_groups: groups,
        group_id: [0; 3],
        local_mem: local_mem.as_mut_ptr() as usize,
        local_mem_size: local_size_total,
    };
    let total: u64 = groups.iter().product();
    for start in (0..total).step_by(run.max(1) as usize) {
        let end = (start + run.max(1)).min(total);
        p.run_work_groups(k, &block, &ctx, start..end, None)
            .map_err(|(id, f)| (id, f.message))?;
    }
    Ok(())
}

/// Run this test binary's test `test` alone in a child process with the
/// environment variable `case` set to its name (the test then does what
/// would stop the process); the child's stderr and exit status.
pub fn run_child(test: &str, case: &str) -> (String, std::process::ExitStatus) {
    let exe = std::env::current_exe().expect("test binary path");
    let out = std::process::Command::new(exe)
        .args([test, "--exact", "--nocapture", "--test-threads=1"])
        .env(case, test)
        .output()
        .expect("spawn the child test");
    (
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status,
    )
}
