//! Device profiles (`CRANECL_PROFILE`) and the device type
//! (`CRANECL_DEVICE_TYPE`) through ocl-icd: under a profile the device
//! reports the figures of the profile's file (clinfo shows them, for every
//! shipped profile and for a profile given by path) and enforces them with
//! the errors a real device gives — local memory and constant memory above
//! the profile's at enqueue (`CL_OUT_OF_RESOURCES`), a work-group above its
//! limits (`CL_INVALID_WORK_GROUP_SIZE`, `CL_INVALID_WORK_ITEM_SIZE`),
//! `double` without fp64 (a build error with clang's words); the same
//! kernels run without a profile. `CRANECL_DEVICE_TYPE=gpu` makes the
//! device a GPU; a bad value prints one line on stderr and leaves no device.
//!
//! The variables are read once per process, at the first device query, so
//! each check runs in a child process: the parent test starts this test
//! binary again with the variables set and `--exact <child> --ignored`; the
//! child asserts, and prints a line the parent looks for. The expected
//! figures are read from the profile files themselves (`icd/profiles/`).

use cranecl_conformance::{
    assert_code, call, cl, info_string, null, vendors_cranecl, workspace_root, Cl,
};
use opencl_sys::*;
use std::collections::BTreeMap;
use std::ffi::{c_void, CString};
use std::path::PathBuf;
use std::process::Command;

// ---------------------------------------------------------------------------
// The profile files, read independently of the ICD's own parser.

/// A profile's `key = value` lines (comments and blank lines skipped).
fn profile_file(path: &std::path::Path) -> BTreeMap<String, String> {
    let text =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    text.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(|l| {
            let (k, v) = l.split_once('=').expect("a key = value line");
            (k.trim().to_string(), v.trim().to_string())
        })
        .collect()
}

fn profiles_dir() -> PathBuf {
    workspace_root().join("icd/profiles")
}

/// Every shipped profile: name and file.
fn shipped() -> Vec<(String, PathBuf)> {
    let mut v: Vec<_> = std::fs::read_dir(profiles_dir())
        .expect("icd/profiles exists")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "profile"))
        .map(|p| (p.file_stem().unwrap().to_string_lossy().into_owned(), p))
        .collect();
    v.sort();
    v
}

/// The profile the child runs under (`CRANECL_PROFILE`, a shipped name), if any.
fn current_profile() -> Option<BTreeMap<String, String>> {
    let name = std::env::var("CRANECL_PROFILE").ok()?;
    Some(profile_file(
        &profiles_dir().join(format!("{name}.profile")),
    ))
}

fn number(p: &BTreeMap<String, String>, key: &str) -> u64 {
    p[key]
        .parse()
        .unwrap_or_else(|_| panic!("{key} = {} is a number", p[key]))
}

fn sizes(p: &BTreeMap<String, String>) -> Vec<u64> {
    p["max_work_item_sizes"]
        .split_whitespace()
        .map(|s| s.parse().expect("a number"))
        .collect()
}

// ---------------------------------------------------------------------------
// Child processes.

/// Runs the ignored test `child` of this binary in a process with `env`
/// set (and both variables removed first); returns whether it passed and
/// its stdout and stderr.
fn run_child(child: &str, env: &[(&str, &str)]) -> (bool, String) {
    let exe = std::env::current_exe().expect("the test binary");
    let mut cmd = Command::new(exe);
    cmd.args([
        "--exact",
        child,
        "--ignored",
        "--nocapture",
        "--test-threads=1",
    ])
    .env_remove("CRANECL_PROFILE")
    .env_remove("CRANECL_DEVICE_TYPE");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run the child");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

/// Runs `child` and asserts it passed and printed `said`.
#[track_caller]
fn child_passes(child: &str, env: &[(&str, &str)], said: &str) {
    let (ok, text) = run_child(child, env);
    assert!(ok, "{child} with {env:?} failed:\n{text}");
    assert!(
        text.contains(said),
        "{child} with {env:?} did not print '{said}':\n{text}"
    );
}

// ---------------------------------------------------------------------------
// Helpers of the children: one context, queue, program.

struct Setup {
    t: &'static Cl,
    dev: cl_device_id,
    ctx: cl_context,
    queue: cl_command_queue,
}

fn setup() -> Setup {
    let t = cl();
    let dev = t.device();
    let ctx = t.context();
    let queue = t.queue(ctx, 0);
    Setup { t, dev, ctx, queue }
}

impl Setup {
    /// Builds `source` with `options`: the program, the build's code and its log.
    fn build(&self, source: &str, options: &str) -> (cl_program, cl_int, String) {
        let t = self.t;
        let src = CString::new(source).unwrap();
        let mut ptr = src.as_ptr();
        let mut e = 0;
        let p = call!(t; clCreateProgramWithSource(self.ctx, 1, &mut ptr, null(), &mut e));
        assert_code!(e, CL_SUCCESS, "clCreateProgramWithSource");
        let opts = CString::new(options).unwrap();
        let rc = call!(t; clBuildProgram(p, 1, &self.dev, opts.as_ptr(), None, null()));
        let log = info_string(
            |s, v, r| call!(t; clGetProgramBuildInfo(p, self.dev, CL_PROGRAM_BUILD_LOG, s, v, r)),
        )
        .unwrap_or_default();
        (p, rc, log)
    }

    /// Builds `source` (which must build) and creates kernel `name`.
    #[track_caller]
    fn kernel(&self, source: &str, name: &str) -> cl_kernel {
        let (p, rc, log) = self.build(source, "");
        assert_code!(rc, CL_SUCCESS, "build log:\n{log}");
        let n = CString::new(name).unwrap();
        let mut e = 0;
        let k = call!(self.t; clCreateKernel(p, n.as_ptr(), &mut e));
        assert_code!(e, CL_SUCCESS, "clCreateKernel({name})");
        k
    }

    fn set_mem(&self, k: cl_kernel, i: u32, m: cl_mem) {
        let r =
            call!(self.t; clSetKernelArg(k, i, size_of::<cl_mem>(), (&m as *const cl_mem).cast()));
        assert_code!(r, CL_SUCCESS, "clSetKernelArg({i})");
    }

    fn set_local(&self, k: cl_kernel, i: u32, bytes: usize) {
        assert_code!(
            call!(self.t; clSetKernelArg(k, i, bytes, null())),
            CL_SUCCESS,
            "clSetKernelArg({i}, local {bytes})"
        );
    }

    /// Enqueues a 1-D launch (local size `None`: NULL) and returns the code.
    fn launch(&self, k: cl_kernel, global: usize, local: Option<usize>) -> cl_int {
        let l = local.unwrap_or(0);
        let lp = if local.is_some() {
            &l as *const usize
        } else {
            null()
        };
        call!(self.t; clEnqueueNDRangeKernel(self.queue, k, 1, null(), &global, lp, 0, null(), null_mut()))
    }

    fn launch_3d(&self, k: cl_kernel, global: [usize; 3], local: [usize; 3]) -> cl_int {
        call!(self.t; clEnqueueNDRangeKernel(self.queue, k, 3, null(), global.as_ptr(), local.as_ptr(), 0, null(), null_mut()))
    }

    fn read_f32(&self, m: cl_mem, n: usize) -> Vec<f32> {
        let mut v = vec![0f32; n];
        assert_code!(
            call!(self.t; clEnqueueReadBuffer(self.queue, m, CL_TRUE, 0, n * 4, v.as_mut_ptr().cast(), 0, null(), null_mut())),
            CL_SUCCESS
        );
        v
    }

    fn device_ulong(&self, param: cl_device_info) -> u64 {
        let mut v = 0u64;
        let mut size = 0usize;
        assert_code!(
            call!(self.t; clGetDeviceInfo(self.dev, param, 8, (&mut v as *mut u64).cast(), &mut size)),
            CL_SUCCESS
        );
        v
    }

    fn work_group_info(&self, k: cl_kernel, param: cl_kernel_work_group_info) -> u64 {
        let mut v = 0u64;
        assert_code!(
            call!(self.t; clGetKernelWorkGroupInfo(k, self.dev, param, 8, (&mut v as *mut u64).cast(), null_mut())),
            CL_SUCCESS
        );
        v
    }
}

fn null_mut<T>() -> *mut T {
    std::ptr::null_mut()
}

fn size_of<T>() -> usize {
    std::mem::size_of::<T>()
}

// ---------------------------------------------------------------------------
// Local memory.

/// 64 KiB of `local` variables: more than a 48 KiB profile's local memory.
const BIG_TILE: &str = r#"
kernel void big_tile(global float *out) {
    local float tile[16384];
    size_t l = get_local_id(0), n = get_local_size(0);
    for (size_t i = l; i < 16384; i += n)
        tile[i] = (float)i;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tile[16383 - l * 7];
}
kernel void scratch(global float *out, local float *s) {
    size_t l = get_local_id(0);
    s[l] = (float)(l * 2);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = s[get_local_size(0) - 1 - l];
}
"#;

#[test]
#[ignore = "run by local_memory_above_the_profile_fails_and_runs_without_one"]
fn child_local_memory() {
    let s = setup();
    let profile = current_profile();
    let local_mem = profile.as_ref().map(|p| number(p, "local_mem_size"));
    if let Some(limit) = local_mem {
        assert_eq!(
            s.device_ulong(CL_DEVICE_LOCAL_MEM_SIZE),
            limit,
            "CL_DEVICE_LOCAL_MEM_SIZE"
        );
    }
    let out = s.t.buffer(s.ctx, CL_MEM_READ_WRITE, 64 * 4);
    let k = s.kernel(BIG_TILE, "big_tile");
    s.set_mem(k, 0, out);
    assert_eq!(s.work_group_info(k, CL_KERNEL_LOCAL_MEM_SIZE), 65536);
    let rc = s.launch(k, 64, Some(64));
    // A local argument counts too: 64 KiB of it.
    let k2 = s.kernel(BIG_TILE, "scratch");
    let out2 = s.t.buffer(s.ctx, CL_MEM_READ_WRITE, 64 * 4);
    s.set_mem(k2, 0, out2);
    s.set_local(k2, 1, 65536);
    assert_eq!(s.work_group_info(k2, CL_KERNEL_LOCAL_MEM_SIZE), 65536);
    let rc2 = s.launch(k2, 64, Some(64));
    match local_mem {
        Some(limit) if limit < 65536 => {
            assert_code!(rc, CL_OUT_OF_RESOURCES, "64 KiB of local variables");
            assert_code!(rc2, CL_OUT_OF_RESOURCES, "a 64 KiB local argument");
            // Within the limit the same kernel runs.
            s.set_local(k2, 1, 64 * 4);
            assert_code!(s.launch(k2, 64, Some(64)), CL_SUCCESS);
            let got = s.read_f32(out2, 64);
            for (i, v) in got.iter().enumerate() {
                assert_eq!(*v, ((63 - i) * 2) as f32, "scratch out[{i}]");
            }
            println!("local memory: refused above {limit}");
        }
        _ => {
            assert_code!(rc, CL_SUCCESS, "64 KiB of local variables");
            assert_code!(call!(s.t; clFinish(s.queue)), CL_SUCCESS);
            let got = s.read_f32(out, 64);
            for (i, v) in got.iter().enumerate() {
                assert_eq!(*v, (16383 - i * 7) as f32, "big_tile out[{i}]");
            }
            assert_code!(rc2, CL_SUCCESS, "a 64 KiB local argument");
            let got = s.read_f32(out2, 64);
            for (i, v) in got.iter().enumerate() {
                assert_eq!(*v, ((63 - i) * 2) as f32, "scratch out[{i}]");
            }
            println!("local memory: 64 KiB ran");
        }
    }
}

#[test]
fn local_memory_above_the_profile_fails_and_runs_without_one() {
    let nvidia = profile_file(&profiles_dir().join("nvidia-rtx4090.profile"));
    assert_eq!(
        number(&nvidia, "local_mem_size"),
        48 << 10,
        "a 48 KiB profile"
    );
    child_passes(
        "child_local_memory",
        &[("CRANECL_PROFILE", "nvidia-rtx4090")],
        "local memory: refused above 49152",
    );
    child_passes("child_local_memory", &[], "local memory: 64 KiB ran");
}

// ---------------------------------------------------------------------------
// Device type.

#[test]
#[ignore = "run by gpu_type_only_when_asked"]
fn child_device_type() {
    let t = cl();
    let platform = t.platform();
    let gpu = std::env::var("CRANECL_DEVICE_TYPE").is_ok_and(|v| v == "gpu");
    let find = |ty: cl_device_type| {
        let mut d = null_mut();
        let rc = call!(t; clGetDeviceIDs(platform, ty, 1, &mut d, null_mut()));
        (rc, d)
    };
    let (want, other) = if gpu {
        (CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_CPU)
    } else {
        (CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_GPU)
    };
    assert_code!(find(want).0, CL_SUCCESS, "the asked type finds cranecl");
    assert_code!(
        find(other).0,
        CL_DEVICE_NOT_FOUND,
        "the other type does not"
    );
    assert_code!(find(CL_DEVICE_TYPE_ACCELERATOR).0, CL_DEVICE_NOT_FOUND);
    for ty in [CL_DEVICE_TYPE_DEFAULT, CL_DEVICE_TYPE_ALL] {
        assert_code!(find(ty).0, CL_SUCCESS, "DEFAULT and ALL find it either way");
    }
    let (_, d) = find(want);
    let mut ty: cl_device_type = 0;
    assert_code!(
        call!(t; clGetDeviceInfo(d, CL_DEVICE_TYPE, 8, (&mut ty as *mut u64).cast(), null_mut())),
        CL_SUCCESS
    );
    assert_eq!(ty, want, "CL_DEVICE_TYPE");
    let mut e = 0;
    let props = [
        CL_CONTEXT_PLATFORM as cl_context_properties,
        platform as _,
        0,
    ];
    let ctx = call!(t; clCreateContextFromType(props.as_ptr(), other, None, null_mut(), &mut e));
    assert!(ctx.is_null());
    assert_code!(
        e,
        CL_DEVICE_NOT_FOUND,
        "clCreateContextFromType(other type)"
    );
    println!("device type: {}", if gpu { "GPU" } else { "CPU" });
}

#[test]
fn gpu_type_only_when_asked() {
    child_passes(
        "child_device_type",
        &[("CRANECL_DEVICE_TYPE", "gpu")],
        "device type: GPU",
    );
    child_passes("child_device_type", &[], "device type: CPU");
}

// ---------------------------------------------------------------------------
// Work-group limits.

const ITEMS: &str = r#"
kernel void sizes(global uint *out) {
    out[get_global_id(0)] = get_local_size(0);
}
kernel void sizes3(global uint *out) {
    out[get_global_id(2)] = get_local_size(2);
}
kernel __attribute__((reqd_work_group_size(512, 1, 1)))
void fixed(global uint *out) {
    out[get_global_id(0)] = get_local_size(0);
}
"#;

#[test]
#[ignore = "run by work_groups_above_the_profile_fail"]
fn child_work_group_limits() {
    let s = setup();
    let p = current_profile().expect("run under a profile");
    let max = number(&p, "max_work_group_size");
    let items = sizes(&p);
    let out = s.t.buffer(s.ctx, CL_MEM_READ_WRITE, 4096 * 4);
    let k = s.kernel(ITEMS, "sizes");
    s.set_mem(k, 0, out);
    assert_eq!(
        s.work_group_info(k, CL_KERNEL_WORK_GROUP_SIZE),
        max,
        "CL_KERNEL_WORK_GROUP_SIZE"
    );
    assert_eq!(
        s.work_group_info(k, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE),
        number(&p, "preferred_work_group_size_multiple")
    );
    assert_code!(
        s.launch(k, 4096, Some(2 * max as usize)),
        CL_INVALID_WORK_GROUP_SIZE,
        "a group of twice the profile's max"
    );
    assert_code!(s.launch(k, 4096, Some(max as usize)), CL_SUCCESS);
    // A NULL local size picks a group within the profile's limits.
    assert_code!(s.launch(k, 4096, None), CL_SUCCESS);
    let mut got = vec![0u32; 4096];
    assert_code!(
        call!(s.t; clEnqueueReadBuffer(s.queue, out, CL_TRUE, 0, 4096 * 4, got.as_mut_ptr().cast(), 0, null(), null_mut())),
        CL_SUCCESS
    );
    assert!(
        got.iter()
            .all(|&l| l >= 1 && u64::from(l) <= max.min(items[0])),
        "chosen local sizes {:?}",
        &got[..8]
    );
    // A kernel that requires a group larger than the profile allows, with a
    // NULL local size.
    let fixed = s.kernel(ITEMS, "fixed");
    s.set_mem(fixed, 0, out);
    let rc = s.launch(fixed, 1024, None);
    if max < 512 {
        assert_code!(
            rc,
            CL_INVALID_WORK_GROUP_SIZE,
            "reqd_work_group_size(512) above {max}"
        );
    } else {
        assert_code!(rc, CL_SUCCESS, "reqd_work_group_size(512) within {max}");
    }
    // A dimension above CL_DEVICE_MAX_WORK_ITEM_SIZES, the group within the max.
    if items[2] < max {
        let k3 = s.kernel(ITEMS, "sizes3");
        s.set_mem(k3, 0, out);
        let z = (items[2] * 2) as usize;
        assert_code!(
            s.launch_3d(k3, [1, 1, z], [1, 1, z]),
            CL_INVALID_WORK_ITEM_SIZE,
            "local z of {z}"
        );
        assert_code!(s.launch_3d(k3, [1, 1, z], [1, 1, z / 2]), CL_SUCCESS);
        println!("work-item sizes: z above {} refused", items[2]);
    }
    println!("work-groups: above {max} refused");
}

#[test]
fn work_groups_above_the_profile_fail() {
    // AMD's 256-item groups; NVIDIA's 1024 with 64 in the third dimension.
    child_passes(
        "child_work_group_limits",
        &[("CRANECL_PROFILE", "amd-rx7900xt")],
        "work-groups: above 256 refused",
    );
    child_passes(
        "child_work_group_limits",
        &[("CRANECL_PROFILE", "nvidia-rtx4090")],
        "work-item sizes: z above 64 refused",
    );
}

// ---------------------------------------------------------------------------
// Constant memory.

#[test]
#[ignore = "run by constant_memory_above_the_profile_fails"]
fn child_constant_limits() {
    let s = setup();
    let p = current_profile();
    let max_args = p.as_ref().map_or(8, |p| number(p, "max_constant_args"));
    let n = max_args + 1;
    let params: Vec<String> = (0..n).map(|i| format!("constant float *c{i}")).collect();
    let sum: Vec<String> = (0..n).map(|i| format!("c{i}[0]")).collect();
    let source = format!(
        "kernel void many(global float *out, {}) {{ out[0] = {}; }}\n\
         kernel void one(global float *out, constant float *c) {{ out[get_global_id(0)] = c[get_global_id(0)]; }}\n",
        params.join(", "),
        sum.join(" + ")
    );
    let out = s.t.buffer(s.ctx, CL_MEM_READ_WRITE, 4);
    let small = s.t.buffer(s.ctx, CL_MEM_READ_ONLY, 4);
    let k = s.kernel(&source, "many");
    s.set_mem(k, 0, out);
    for i in 1..=n as u32 {
        s.set_mem(k, i, small);
    }
    let rc = s.launch(k, 1, Some(1));
    let k1 = s.kernel(&source, "one");
    let limit = p.as_ref().map(|p| number(p, "max_constant_buffer_size"));
    match limit {
        Some(limit) => {
            assert_code!(rc, CL_OUT_OF_RESOURCES, "{n} constant arguments");
            let too_big = s.t.buffer(s.ctx, CL_MEM_READ_ONLY, limit as usize * 2);
            let fits = s.t.buffer(s.ctx, CL_MEM_READ_ONLY, limit as usize);
            s.set_mem(k1, 0, fits);
            s.set_mem(k1, 1, too_big);
            assert_code!(
                s.launch(k1, 1, Some(1)),
                CL_OUT_OF_RESOURCES,
                "a constant buffer of {}",
                limit * 2
            );
            s.set_mem(k1, 1, fits);
            assert_code!(
                s.launch(k1, 1, Some(1)),
                CL_SUCCESS,
                "a constant buffer of {limit}"
            );
            println!(
                "constant memory: {n} arguments and {} bytes refused",
                limit * 2
            );
        }
        None => {
            assert_code!(rc, CL_SUCCESS, "{n} constant arguments without a profile");
            println!("constant memory: {n} arguments ran");
        }
    }
    assert_code!(call!(s.t; clFinish(s.queue)), CL_SUCCESS);
}

#[test]
fn constant_memory_above_the_profile_fails() {
    child_passes(
        "child_constant_limits",
        &[("CRANECL_PROFILE", "nvidia-rtx4090")],
        "constant memory: 10 arguments and 131072 bytes refused",
    );
    child_passes(
        "child_constant_limits",
        &[],
        "constant memory: 9 arguments ran",
    );
}

// ---------------------------------------------------------------------------
// Double precision.

const DOUBLE: &str = "kernel void k(global double *o) { double x = 1.5; o[0] = x * 2.0; }\n";
const ASKS_FP64: &str = r#"
kernel void k(global int *o) {
#ifdef cl_khr_fp64
    o[0] = 1;
#else
    o[0] = 0;
#endif
}
"#;

#[test]
#[ignore = "run by double_needs_fp64_in_the_profile"]
fn child_fp64() {
    let s = setup();
    let fp64 = current_profile().is_none_or(|p| p["fp64"] == "yes");
    let extensions =
        info_string(|sz, v, r| call!(s.t; clGetDeviceInfo(s.dev, CL_DEVICE_EXTENSIONS, sz, v, r)))
            .unwrap();
    assert_eq!(
        extensions.split(' ').any(|e| e == "cl_khr_fp64"),
        fp64,
        "{extensions}"
    );
    assert_eq!(s.device_ulong(CL_DEVICE_DOUBLE_FP_CONFIG) != 0, fp64);
    // A work-item's vectors are computed one component at a time, so every
    // type's preferred and native width is 1 (double's 0 without fp64).
    let widths = [
        (CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, 1),
        (CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, 1),
        (CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, 1),
        (CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT, 1),
        (CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, 1),
        (CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, 1),
        (CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, 1),
        (CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG, 1),
        (CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, 1),
        (CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, 1),
        (CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, u32::from(fp64)),
        (CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, u32::from(fp64)),
    ];
    for (param, want) in widths {
        let mut w: cl_uint = 99;
        assert_code!(
            call!(s.t; clGetDeviceInfo(s.dev, param, 4, (&mut w as *mut cl_uint).cast(), null())),
            CL_SUCCESS
        );
        assert_eq!(w, want, "vector width {param:#x}");
    }
    let (_, rc, log) = s.build(DOUBLE, "");
    let (_, rc30, log30) = s.build(DOUBLE, "-cl-std=CL3.0");
    // The preprocessor agrees with the extension list.
    let out = s.t.buffer(s.ctx, CL_MEM_READ_WRITE, 4);
    let k = s.kernel(ASKS_FP64, "k");
    s.set_mem(k, 0, out);
    assert_code!(s.launch(k, 1, Some(1)), CL_SUCCESS);
    let mut macro_defined = -1i32;
    assert_code!(
        call!(s.t; clEnqueueReadBuffer(s.queue, out, CL_TRUE, 0, 4, (&mut macro_defined as *mut i32).cast::<c_void>(), 0, null(), null_mut())),
        CL_SUCCESS
    );
    assert_eq!(macro_defined, i32::from(fp64), "cl_khr_fp64 is defined");
    if fp64 {
        assert_code!(rc, CL_SUCCESS, "{log}");
        assert_code!(rc30, CL_SUCCESS, "{log30}");
        println!("fp64: double builds");
    } else {
        assert_code!(rc, CL_BUILD_PROGRAM_FAILURE);
        assert!(
            log.contains("error: use of type 'double' requires cl_khr_fp64 support"),
            "{log}"
        );
        assert_code!(rc30, CL_BUILD_PROGRAM_FAILURE);
        assert!(
            log30.contains(
                "error: use of type 'double' requires cl_khr_fp64 and __opencl_c_fp64 support"
            ),
            "{log30}"
        );
        println!("fp64: double refused");
    }
}

#[test]
fn double_needs_fp64_in_the_profile() {
    let intel = profile_file(&profiles_dir().join("intel-arc-a770.profile"));
    assert_eq!(intel["fp64"], "no");
    child_passes(
        "child_fp64",
        &[("CRANECL_PROFILE", "intel-arc-a770")],
        "fp64: double refused",
    );
    child_passes(
        "child_fp64",
        &[("CRANECL_PROFILE", "nvidia-rtx4090")],
        "fp64: double builds",
    );
    child_passes("child_fp64", &[], "fp64: double builds");
}

// ---------------------------------------------------------------------------
// Half precision.

const HALF: &str = r#"
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void k(global half *h, global float *o) {
    half x = h[0] * 3.0h;  // 1.5 * 3 = 4.5
    o[0] = x + HALF_EPSILON;
}
"#;

#[test]
#[ignore = "run by half_needs_fp16_in_the_profile"]
fn child_fp16() {
    let s = setup();
    let fp16 = current_profile().is_none_or(|p| p["fp16"] == "yes");
    let extensions =
        info_string(|sz, v, r| call!(s.t; clGetDeviceInfo(s.dev, CL_DEVICE_EXTENSIONS, sz, v, r)))
            .unwrap();
    assert_eq!(
        extensions.split(' ').any(|e| e == "cl_khr_fp16"),
        fp16,
        "{extensions}"
    );
    // Exactly the true bits: denormals, INF/NaN, round to nearest, fma, and
    // emulated (no half instructions on the CPU).
    let config =
        CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_FMA | CL_FP_SOFT_FLOAT;
    let want = if fp16 { config } else { 0 };
    assert_eq!(
        s.device_ulong(CL_DEVICE_HALF_FP_CONFIG),
        want,
        "CL_DEVICE_HALF_FP_CONFIG"
    );
    for param in [
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF,
        CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF,
    ] {
        let mut w: cl_uint = 99;
        assert_code!(
            call!(s.t; clGetDeviceInfo(s.dev, param, 4, (&mut w as *mut cl_uint).cast(), null())),
            CL_SUCCESS
        );
        // 1: half is computed one value at a time.
        assert_eq!(w, u32::from(fp16), "half vector width {param:#x}");
    }
    for std in ["", "-cl-std=CL3.0"] {
        let (_, rc, log) = s.build(HALF, std);
        if !fp16 {
            assert_code!(rc, CL_BUILD_PROGRAM_FAILURE, "{std}");
            assert!(
                log.contains("unsupported OpenCL extension 'cl_khr_fp16'"),
                "{std}:
{log}"
            );
            continue;
        }
        assert_code!(rc, CL_SUCCESS, "{std}: {log}");
    }
    if !fp16 {
        println!("fp16: half refused");
        return;
    }
    let h = s.t.buffer(s.ctx, CL_MEM_READ_WRITE, 2);
    let out = s.t.buffer(s.ctx, CL_MEM_READ_WRITE, 4);
    let one_and_a_half: u16 = 0x3e00;
    assert_code!(
        call!(s.t; clEnqueueWriteBuffer(s.queue, h, CL_TRUE, 0, 2, (&one_and_a_half as *const u16).cast::<c_void>(), 0, null(), null_mut())),
        CL_SUCCESS
    );
    let k = s.kernel(HALF, "k");
    s.set_mem(k, 0, h);
    s.set_mem(k, 1, out);
    assert_code!(s.launch(k, 1, Some(1)), CL_SUCCESS);
    let mut got = 0f32;
    assert_code!(
        call!(s.t; clEnqueueReadBuffer(s.queue, out, CL_TRUE, 0, 4, (&mut got as *mut f32).cast::<c_void>(), 0, null(), null_mut())),
        CL_SUCCESS
    );
    // 4.5 + 2^-10 is not a half; in half it rounds to 4.5 (ulp 2^-8).
    assert_eq!(got, 4.5, "(half)1.5 * 3.0h + HALF_EPSILON");
    println!("fp16: half computes");
}

#[test]
fn half_needs_fp16_in_the_profile() {
    let nvidia = profile_file(&profiles_dir().join("nvidia-rtx4090.profile"));
    assert_eq!(nvidia["fp16"], "no");
    child_passes(
        "child_fp16",
        &[("CRANECL_PROFILE", "nvidia-rtx4090")],
        "fp16: half refused",
    );
    child_passes(
        "child_fp16",
        &[("CRANECL_PROFILE", "intel-arc-a770")],
        "fp16: half computes",
    );
    child_passes("child_fp16", &[], "fp16: half computes");
}

// ---------------------------------------------------------------------------
// clinfo under each profile, and bad values.

/// clinfo with only cranecl visible and `env` set; its stdout and stderr.
fn clinfo(args: &[&str], env: &[(&str, &str)]) -> (String, String) {
    let mut cmd = Command::new("clinfo");
    cmd.args(args)
        .env("OCL_ICD_VENDORS", vendors_cranecl())
        .env_remove("CRANECL_PROFILE")
        .env_remove("CRANECL_DEVICE_TYPE");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("clinfo is installed");
    assert!(
        out.status.success(),
        "clinfo {args:?} exited with {}",
        out.status
    );
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The value column of the first line labelled `label`.
fn row<'a>(text: &'a str, label: &str) -> &'a str {
    text.lines()
        .find_map(|l| {
            l.trim_start()
                .strip_prefix(label)
                .filter(|rest| rest.starts_with("  "))
                .map(str::trim)
        })
        .unwrap_or_else(|| panic!("clinfo prints '{label}':\n{text}"))
}

/// The first number of a row (`49152 (48KiB)` → 49152).
fn first_number(text: &str, label: &str) -> u64 {
    let v = row(text, label);
    v.split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("'{label}' starts with a number: {v}"))
}

/// Asserts clinfo's output shows the figures of profile `p` named `name`.
fn assert_clinfo_shows(out: &str, name: &str, p: &BTreeMap<String, String>) {
    let device = row(out, "Device Name");
    assert!(device.contains(&format!("profile {name}")), "{device}");
    if let Some(real) = p.get("device_name") {
        assert!(device.contains(real.as_str()), "{device}");
    }
    let checks = [
        ("max_work_group_size", "Max work group size"),
        ("local_mem_size", "Local memory size"),
        ("max_constant_buffer_size", "Max constant buffer size"),
        ("max_constant_args", "Max number of constant args"),
        ("max_parameter_size", "Max size of kernel argument"),
        (
            "preferred_work_group_size_multiple",
            "Preferred work group size multiple (device)",
        ),
    ];
    for (key, label) in checks {
        if p.contains_key(key) {
            assert_eq!(first_number(out, label), number(p, key), "{name}: {label}");
        }
    }
    if p.contains_key("max_work_item_sizes") {
        let want: Vec<String> = sizes(p).iter().map(u64::to_string).collect();
        assert_eq!(row(out, "Max work item sizes"), want.join("x"), "{name}");
    }
    // Memory caps: the profile's figure, or the host's when smaller.
    for (key, label) in [
        ("max_mem_alloc_size", "Max memory allocation"),
        ("global_mem_size", "Global memory size"),
    ] {
        if p.contains_key(key) {
            assert!(
                first_number(out, label) <= number(p, key),
                "{name}: {label}"
            );
        }
    }
    if let Some(fp64) = p.get("fp64") {
        let shown = row(out, "Double-precision Floating-point support");
        assert_eq!(shown != "(n/a)", fp64 == "yes", "{name}: double: {shown}");
    }
    // Images are the device's own, with its own limits, whatever the
    // profile says.
    assert_eq!(row(out, "Image support"), "Yes", "{name}");
}

#[test]
fn clinfo_shows_each_shipped_profile() {
    let all = shipped();
    assert!(all.len() >= 4, "four shipped profiles: {all:?}");
    for (name, path) in &all {
        let (out, err) = clinfo(&[], &[("CRANECL_PROFILE", name)]);
        assert!(!err.contains("cranecl:"), "{name}: {err}");
        assert_clinfo_shows(&out, name, &profile_file(path));
        println!("clinfo under {name}: its figures");
    }
}

#[test]
fn clinfo_shows_a_profile_given_by_path() {
    let dir = std::env::temp_dir().join(format!("cranecl-profile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("tiny-gpu.profile");
    std::fs::write(
        &path,
        "# a made-up small GPU\ndevice_name = Tiny GPU\nmax_work_group_size = 128\n\
         max_work_item_sizes = 128 128 4\nlocal_mem_size = 16384\nfp64 = no\n\
         max_mem_alloc_size = 268435456\nglobal_mem_size = 1073741824\n",
    )
    .unwrap();
    let (out, err) = clinfo(&[], &[("CRANECL_PROFILE", path.to_str().unwrap())]);
    assert!(!err.contains("cranecl:"), "{err}");
    let p = profile_file(&path);
    assert_clinfo_shows(&out, "tiny-gpu", &p);
    // Caps this small fit any host: shown exactly.
    assert_eq!(
        first_number(&out, "Max memory allocation"),
        number(&p, "max_mem_alloc_size")
    );
    assert_eq!(
        first_number(&out, "Global memory size"),
        number(&p, "global_mem_size")
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_bad_profile_prints_one_line_and_leaves_no_device() {
    let (out, err) = clinfo(&["-l"], &[("CRANECL_PROFILE", "nvidia-rtx4909")]);
    let line = "cranecl: CRANECL_PROFILE: unknown profile 'nvidia-rtx4909' (shipped: ";
    assert_eq!(err.matches(line).count(), 1, "{err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.contains("the platform reports no device"), "{err}");
    assert!(!out.contains("Device #0: cranecl"), "{out}");

    let dir = std::env::temp_dir().join(format!("cranecl-bad-profile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.profile");
    std::fs::write(&path, "# too big\nmax_work_group_size = 4096\n").unwrap();
    let (out, err) = clinfo(&["-l"], &[("CRANECL_PROFILE", path.to_str().unwrap())]);
    let want = format!(
        "cranecl: CRANECL_PROFILE: {}:2: max_work_group_size: 4096 is outside 1..=1024",
        path.display()
    );
    assert!(err.starts_with(&want), "{err}");
    assert!(!out.contains("Device #0: cranecl"), "{out}");
    std::fs::remove_dir_all(&dir).ok();

    let (out, err) = clinfo(&["-l"], &[("CRANECL_DEVICE_TYPE", "fpga")]);
    assert!(
        err.starts_with("cranecl: CRANECL_DEVICE_TYPE: unknown device type 'fpga'"),
        "{err}"
    );
    assert!(!out.contains("Device #0: cranecl"), "{out}");
}
