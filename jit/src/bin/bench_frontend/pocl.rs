//! pocl's `clBuildProgram` time, for comparison with cranecl's build.
//!
//! The parent ([`measure`]) writes a vendors folder under `target/` holding
//! only pocl's ICD file and runs this same binary as a child with
//! `OCL_ICD_VENDORS` pointing there, once with `POCL_KERNEL_CACHE=0` (every
//! build compiles) and once with pocl's default cache (the build measured is
//! the second of the same source, served from the cache). The child
//! ([`child_main`]) loads `libOpenCL.so.1` with libloading, takes the first
//! device of the first platform, builds each program `reps + 1` times in a
//! fresh `cl_program` and prints one line per program: its name, the median of
//! the last `reps` builds in milliseconds, and `ok` or the build status.
//! Only the API calls this needs are declared (types as in the C headers).

use std::ffi::{c_char, c_void, CString};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

type ClInt = i32;
type ClUint = u32;
type Handle = *mut c_void;

type GetPlatformIds = unsafe extern "C" fn(ClUint, *mut Handle, *mut ClUint) -> ClInt;
type GetDeviceIds = unsafe extern "C" fn(Handle, u64, ClUint, *mut Handle, *mut ClUint) -> ClInt;
type CreateContext = unsafe extern "C" fn(
    *const isize,
    ClUint,
    *const Handle,
    *const c_void,
    *mut c_void,
    *mut ClInt,
) -> Handle;
type CreateProgramWithSource =
    unsafe extern "C" fn(Handle, ClUint, *const *const c_char, *const usize, *mut ClInt) -> Handle;
type BuildProgram = unsafe extern "C" fn(
    Handle,
    ClUint,
    *const Handle,
    *const c_char,
    *const c_void,
    *mut c_void,
) -> ClInt;
type Release = unsafe extern "C" fn(Handle) -> ClInt;
type GetDeviceInfo = unsafe extern "C" fn(Handle, ClUint, usize, *mut c_void, *mut usize) -> ClInt;

const CL_DEVICE_TYPE_ALL: u64 = 0xFFFF_FFFF;
type GetProgramBuildInfo =
    unsafe extern "C" fn(Handle, Handle, ClUint, usize, *mut c_void, *mut usize) -> ClInt;

const CL_DEVICE_NAME: ClUint = 0x102B;
const CL_PROGRAM_BUILD_LOG: ClUint = 0x1183;

/// One program for pocl: a name, the source, the build options.
pub struct Job {
    pub name: String,
    pub source: String,
    pub options: String,
}

/// pocl's median build time per job, in ms (`Err`: the failed build's status).
pub struct Timings {
    pub device: String,
    pub ms: Vec<(String, Result<f64, String>)>,
}

/// Runs the child twice (cache off, cache warm); `Err` says why pocl could not be measured.
pub fn measure(jobs_file: &Path, reps: usize) -> Result<(Timings, Timings), String> {
    let vendors = vendors_dir()?;
    let run = |cache_off: bool| -> Result<Timings, String> {
        let exe = std::env::current_exe().map_err(|e| format!("current_exe: {e}"))?;
        let mut cmd = Command::new(exe);
        cmd.arg("--pocl-child")
            .arg(jobs_file)
            .arg(reps.to_string())
            .env("OCL_ICD_VENDORS", &vendors);
        if cache_off {
            cmd.env("POCL_KERNEL_CACHE", "0");
        } else {
            cmd.env_remove("POCL_KERNEL_CACHE");
        }
        let out = cmd.output().map_err(|e| format!("cannot run child: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "pocl child failed ({}): {}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        Ok(parse_child_output(&String::from_utf8_lossy(&out.stdout)))
    };
    Ok((run(true)?, run(false)?))
}

/// `target/bench_frontend/vendors/` holding a copy of pocl's ICD file only.
fn vendors_dir() -> Result<PathBuf, String> {
    let icd = Path::new("/etc/OpenCL/vendors/pocl.icd");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bench_frontend/vendors");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    std::fs::copy(icd, dir.join("pocl.icd")).map_err(|e| format!("{}: {e}", icd.display()))?;
    Ok(dir)
}

fn parse_child_output(text: &str) -> Timings {
    let mut device = String::new();
    let mut ms = Vec::new();
    for line in text.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        match fields.as_slice() {
            ["device", name] => device = name.to_string(),
            ["job", name, t, "ok"] => {
                ms.push((name.to_string(), t.parse().map_err(|_| t.to_string())))
            }
            ["job", name, _, status] => ms.push((name.to_string(), Err(status.to_string()))),
            _ => {}
        }
    }
    Timings { device, ms }
}

/// Jobs travel to the child in a file: `name \x1f options \x1f source \x1e` records.
pub fn write_jobs(path: &Path, jobs: &[Job]) -> std::io::Result<()> {
    let mut text = String::new();
    for j in jobs {
        text.push_str(&format!("{}\x1f{}\x1f{}\x1e", j.name, j.options, j.source));
    }
    std::fs::write(path, text)
}

fn read_jobs(path: &Path) -> Result<Vec<Job>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    text.split('\x1e')
        .filter(|r| !r.is_empty())
        .map(|r| {
            let mut f = r.splitn(3, '\x1f');
            match (f.next(), f.next(), f.next()) {
                (Some(name), Some(options), Some(source)) => Ok(Job {
                    name: name.into(),
                    options: options.into(),
                    source: source.into(),
                }),
                _ => Err("malformed jobs file".to_string()),
            }
        })
        .collect()
}

/// The OpenCL entry points the child uses, resolved from the loader.
struct Api {
    _lib: libloading::Library,
    get_platform_ids: GetPlatformIds,
    get_device_ids: GetDeviceIds,
    get_device_info: GetDeviceInfo,
    create_context: CreateContext,
    create_program_with_source: CreateProgramWithSource,
    build_program: BuildProgram,
    release_program: Release,
    get_program_build_info: GetProgramBuildInfo,
}

impl Api {
    fn load() -> Result<Api, String> {
        // SAFETY: libOpenCL.so.1 is the Khronos ICD loader; its initialisers
        // only read the vendors folder.
        let lib = unsafe { libloading::Library::new("libOpenCL.so.1") }
            .map_err(|e| format!("libOpenCL.so.1: {e}"))?;
        // SAFETY (each symbol): the declared types match the OpenCL 1.2 C
        // prototypes of these entry points; the pointers stay valid while
        // `_lib` is alive (it lives in the same struct).
        unsafe {
            let sym = |name: &[u8]| -> Result<*const c_void, String> {
                lib.get::<*const c_void>(name)
                    .map(|s| *s)
                    .map_err(|e| format!("{}: {e}", String::from_utf8_lossy(name)))
            };
            Ok(Api {
                get_platform_ids: std::mem::transmute::<*const c_void, GetPlatformIds>(sym(
                    b"clGetPlatformIDs\0",
                )?),
                get_device_ids: std::mem::transmute::<*const c_void, GetDeviceIds>(sym(
                    b"clGetDeviceIDs\0",
                )?),
                get_device_info: std::mem::transmute::<*const c_void, GetDeviceInfo>(sym(
                    b"clGetDeviceInfo\0",
                )?),
                create_context: std::mem::transmute::<*const c_void, CreateContext>(sym(
                    b"clCreateContext\0",
                )?),
                create_program_with_source: std::mem::transmute::<
                    *const c_void,
                    CreateProgramWithSource,
                >(sym(b"clCreateProgramWithSource\0")?),
                build_program: std::mem::transmute::<*const c_void, BuildProgram>(sym(
                    b"clBuildProgram\0",
                )?),
                release_program: std::mem::transmute::<*const c_void, Release>(sym(
                    b"clReleaseProgram\0",
                )?),
                get_program_build_info: std::mem::transmute::<*const c_void, GetProgramBuildInfo>(
                    sym(b"clGetProgramBuildInfo\0")?,
                ),
                _lib: lib,
            })
        }
    }
}

/// The child: build every job `reps + 1` times and print the timings.
pub fn child_main(jobs_file: &Path, reps: usize) -> Result<(), String> {
    let jobs = read_jobs(jobs_file)?;
    let api = Api::load()?;
    let mut platform: Handle = std::ptr::null_mut();
    let mut device: Handle = std::ptr::null_mut();
    let mut err: ClInt = 0;
    // SAFETY: every out-pointer points at a live local of the declared type;
    // handles come from the implementation and are used only while valid.
    let context = unsafe {
        let mut n = 0;
        let e = (api.get_platform_ids)(1, &mut platform, &mut n);
        if e != 0 || n == 0 {
            return Err(format!("clGetPlatformIDs: {e}, {n} platforms"));
        }
        let e = (api.get_device_ids)(platform, CL_DEVICE_TYPE_ALL, 1, &mut device, &mut n);
        if e != 0 || n == 0 {
            return Err(format!("clGetDeviceIDs: {e}"));
        }
        let mut name = [0u8; 256];
        let mut len = 0usize;
        (api.get_device_info)(
            device,
            CL_DEVICE_NAME,
            name.len(),
            name.as_mut_ptr().cast(),
            &mut len,
        );
        let name = String::from_utf8_lossy(&name[..len.min(name.len())]);
        println!("device\t{}", name.trim_end_matches('\0'));
        let context = (api.create_context)(
            std::ptr::null(),
            1,
            &device,
            std::ptr::null(),
            std::ptr::null_mut(),
            &mut err,
        );
        if context.is_null() {
            return Err(format!("clCreateContext: {err}"));
        }
        context
    };
    for job in &jobs {
        let options = CString::new(job.options.as_str()).map_err(|e| e.to_string())?;
        let mut times = Vec::new();
        let mut status = 0;
        let mut first_error = String::new();
        for _ in 0..=reps {
            let src = job.source.as_ptr().cast::<c_char>();
            let len = job.source.len();
            // SAFETY: one source string with its length; the context and
            // device are live; the program is released before the next round.
            unsafe {
                let program = (api.create_program_with_source)(context, 1, &src, &len, &mut err);
                if program.is_null() {
                    return Err(format!("clCreateProgramWithSource: {err}"));
                }
                let start = Instant::now();
                status = (api.build_program)(
                    program,
                    1,
                    &device,
                    options.as_ptr(),
                    std::ptr::null(),
                    std::ptr::null_mut(),
                );
                times.push(start.elapsed().as_secs_f64() * 1e3);
                if status != 0 {
                    first_error = first_error_line(&api, program, device);
                }
                (api.release_program)(program);
            }
            if status != 0 {
                break;
            }
        }
        // The first build fills the cache (warm) or is the same as the others (off).
        let skip = 1.min(times.len() - 1);
        let measured = &mut times[skip..];
        measured.sort_by(f64::total_cmp);
        let median = measured[measured.len() / 2];
        let verdict = if status == 0 {
            "ok".to_string()
        } else {
            format!("status {status}: {first_error}")
        };
        println!("job\t{}\t{median:.3}\t{verdict}", job.name);
    }
    Ok(())
}

/// The first line of a failed build's log that says `error` (tabs removed).
///
/// # Safety
/// `program` and `device` must be live handles of `api`'s implementation.
unsafe fn first_error_line(api: &Api, program: Handle, device: Handle) -> String {
    let mut log = vec![0u8; 1 << 16];
    let mut len = 0usize;
    // SAFETY: the buffer is `log.len()` bytes; the caller vouches for the handles.
    let e = unsafe {
        (api.get_program_build_info)(
            program,
            device,
            CL_PROGRAM_BUILD_LOG,
            log.len(),
            log.as_mut_ptr().cast(),
            &mut len,
        )
    };
    if e != 0 {
        return format!("(no build log: {e})");
    }
    let text = String::from_utf8_lossy(&log[..len.min(log.len())]);
    text.lines()
        .find(|l| l.contains("error"))
        .unwrap_or("")
        .replace('\t', " ")
}
