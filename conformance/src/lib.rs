//! cranecl's conformance suite: the helpers every test uses to reach the built
//! ICD through a real OpenCL loader.
//!
//! [`setup`] builds `libcranecl.so` (with the same profile as the running test
//! or binary, into the same target directory), writes a vendors folder under
//! the target directory holding one `cranecl.icd` that names the `.so` by its
//! absolute path, and points `OCL_ICD_VENDORS` at it before the loader is first
//! used, so the loader sees exactly our platform. [`vendors_pocl`] and
//! [`vendors_both`] write the folders for the peer (pocl) and for both.
//!
//! [`cl`] is a raw function table for API-behaviour tests: every OpenCL entry
//! point looked up by name in `libOpenCL.so.1` (the loader), typed by
//! `opencl-sys`'s `cl_icd_dispatch`, so a test can pass NULLs and bad handles
//! that a safe wrapper would refuse. `call!(clFoo(args))` calls through it.

// This crate exists to call a C API with raw handles, valid and invalid: the
// handles are opaque values the implementation under test validates, and
// `call!` is the one place that crosses into C.
#![allow(
    clippy::not_unsafe_ptr_arg_deref,
    clippy::macro_metavars_in_unsafe,
    clippy::missing_transmute_annotations
)]

use opencl_sys::cl_icd::cl_icd_dispatch;
use opencl_sys::*;
use std::ffi::{c_void, CStr};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

pub mod stress;

/// The workspace root (the folder holding the workspace `Cargo.toml`).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}

/// The profile folder of the running executable (`target/debug` or
/// `target/release`): test binaries live in `<profile>/deps`, binaries in
/// `<profile>`.
pub fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the running executable has a path");
    let dir = exe.parent().expect("an executable lives in a folder");
    if dir.file_name().is_some_and(|n| n == "deps") {
        dir.parent().expect("deps has a parent").to_path_buf()
    } else {
        dir.to_path_buf()
    }
}

/// The cargo target directory the running executable was built into.
pub fn target_dir() -> PathBuf {
    let p = profile_dir();
    p.parent().map(Path::to_path_buf).unwrap_or(p)
}

/// Builds `libcranecl.so` once per process (same profile as the caller) and
/// returns its absolute path. `CRANECL_SO=<path>` skips the build and uses
/// that library instead.
pub fn cranecl_so() -> PathBuf {
    static SO: OnceLock<PathBuf> = OnceLock::new();
    SO.get_or_init(|| {
        if let Some(p) = std::env::var_os("CRANECL_SO") {
            return PathBuf::from(p);
        }
        let profile = profile_dir();
        let release = profile.file_name().is_some_and(|n| n == "release");
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let mut cmd = Command::new(cargo);
        cmd.current_dir(workspace_root())
            .args(["build", "-q", "-p", "cranecl"])
            .env("CARGO_TARGET_DIR", target_dir());
        if release {
            cmd.arg("--release");
        }
        let status = cmd.status().expect("cargo runs");
        assert!(status.success(), "cargo build -p cranecl failed");
        let so = profile.join("libcranecl.so");
        assert!(so.exists(), "{} missing after the build", so.display());
        so.canonicalize().unwrap_or(so)
    })
    .clone()
}

/// Writes `<target>/<profile>/icd-vendors/<name>/` holding the given `.icd`
/// files (file name, content) and returns the folder. Written through a
/// rename so concurrent test processes never see a half-written file.
fn write_vendors(name: &str, files: &[(&str, String)]) -> PathBuf {
    let dir = profile_dir().join("icd-vendors").join(name);
    std::fs::create_dir_all(&dir).expect("create the vendors folder");
    for (file, content) in files {
        static SEQ: AtomicUsize = AtomicUsize::new(0);
        let seq = SEQ.fetch_add(1, Ordering::Relaxed);
        let tmp = dir.join(format!(".{file}.{}.{seq}", std::process::id()));
        std::fs::write(&tmp, content).expect("write the .icd file");
        std::fs::rename(&tmp, dir.join(file)).expect("rename the .icd file");
    }
    dir
}

/// The vendors folder naming only cranecl (built first).
pub fn vendors_cranecl() -> PathBuf {
    let so = cranecl_so();
    write_vendors("cranecl", &[("cranecl.icd", format!("{}\n", so.display()))])
}

/// The line of pocl's system `.icd` file (the library it names).
pub fn pocl_icd_line() -> Option<String> {
    std::fs::read_to_string("/etc/OpenCL/vendors/pocl.icd")
        .ok()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}

/// The vendors folder naming only pocl, or None if pocl is not installed.
pub fn vendors_pocl() -> Option<PathBuf> {
    let line = pocl_icd_line()?;
    Some(write_vendors("pocl", &[("pocl.icd", format!("{line}\n"))]))
}

/// The vendors folder naming cranecl and pocl (pocl only if installed).
pub fn vendors_both() -> PathBuf {
    let so = cranecl_so();
    let mut files = vec![("cranecl.icd", format!("{}\n", so.display()))];
    if let Some(line) = pocl_icd_line() {
        files.push(("pocl.icd", format!("{line}\n")));
    }
    write_vendors("both", &files)
}

/// Oclgrind's ICD library, if the `oclgrind` package is installed (it ships
/// no `.icd` file).
pub const OCLGRIND_ICD: &str = "/usr/lib/oclgrind/liboclgrind-rt-icd.so";

/// The vendors folder naming cranecl, pocl and Oclgrind (each peer only if
/// installed): for benchmarks against Oclgrind.
pub fn vendors_with_oclgrind() -> PathBuf {
    let so = cranecl_so();
    let mut files = vec![("cranecl.icd", format!("{}\n", so.display()))];
    if let Some(line) = pocl_icd_line() {
        files.push(("pocl.icd", format!("{line}\n")));
    }
    if Path::new(OCLGRIND_ICD).exists() {
        files.push(("oclgrind.icd", format!("{OCLGRIND_ICD}\n")));
    }
    write_vendors("with-oclgrind", &files)
}

/// As [`setup_both`], with Oclgrind too when it is installed.
pub fn setup_with_oclgrind() -> PathBuf {
    setup_with(vendors_with_oclgrind)
}

/// The vendors folder this process's loader uses (chosen by the first of
/// [`setup`] / [`setup_both`] to run; one choice per process).
static PROCESS_VENDORS: OnceLock<PathBuf> = OnceLock::new();

fn setup_with(folder: fn() -> PathBuf) -> PathBuf {
    PROCESS_VENDORS
        .get_or_init(|| {
            // CRANECL_CONFORMANCE_VENDORS=<folder> (with
            // CRANECL_CONFORMANCE_PLATFORM=<name>) runs the loader-side tests
            // on another platform, to check the tests' expectations.
            let dir = std::env::var_os("CRANECL_CONFORMANCE_VENDORS")
                .map(PathBuf::from)
                .unwrap_or_else(folder);
            // Set before any thread of this process loads libOpenCL (the
            // variable's only reader); `OnceLock` makes every test wait.
            std::env::set_var("OCL_ICD_VENDORS", &dir);
            dir
        })
        .clone()
}

/// Builds the ICD, writes its vendors folder and points this process's
/// `OCL_ICD_VENDORS` at it. Call first in every test that uses the loader:
/// the loader reads the variable once, at its first use.
pub fn setup() -> PathBuf {
    setup_with(vendors_cranecl)
}

/// As [`setup`], but the loader sees cranecl and pocl (select by name).
pub fn setup_both() -> PathBuf {
    setup_with(vendors_both)
}

/// A `Command` that sees only cranecl through the loader.
pub fn command_with_cranecl(program: impl AsRef<std::ffi::OsStr>) -> Command {
    let mut c = Command::new(program);
    c.env("OCL_ICD_VENDORS", vendors_cranecl());
    c
}

/// The Python of the workspace's venv (made by `scripts/install-deps.sh`).
pub fn venv_python() -> PathBuf {
    workspace_root().join("target/venv/bin/python")
}

/// Every OpenCL entry point, by name, typed by the ICD dispatch table's
/// layout: either the loader's exports ([`cl`]) or the ICD's own ([`direct`]).
pub struct Cl {
    pub f: cl_icd_dispatch,
    /// True for the ICD's own exports: no loader in between, so a released
    /// or foreign handle reaches our validation (through a loader it is
    /// dereferenced by the loader first, which is undefined behaviour).
    pub direct: bool,
    _lib: Option<libloading::Library>,
}

macro_rules! fill {
    ($lib:expr, $d:expr, $($name:ident),* $(,)?) => {
        $(
            // SAFETY: the symbol is the library's export of that name, whose
            // C type is the one the dispatch table's field declares.
            if let Ok(sym) = unsafe {
                $lib.get::<*const c_void>(concat!(stringify!($name), "\0").as_bytes())
            } {
                let p: *const c_void = *sym;
                // SAFETY: a function pointer and `Option<fn>` share a layout,
                // and NULL is `None`.
                $d.$name = unsafe { std::mem::transmute::<*const c_void, _>(p) };
            }
        )*
    };
}

fn load_table(path: &std::ffi::OsStr, direct: bool) -> Cl {
    // SAFETY: loading an OpenCL library runs only its own initialisers.
    let lib = unsafe { libloading::Library::new(path) }
        .unwrap_or_else(|e| panic!("load {}: {e}", path.to_string_lossy()));
    // SAFETY: every field of the table is an `Option` of a function pointer
    // (or an integer tag), for which all-zero is valid (`None`).
    let mut d: cl_icd_dispatch = unsafe { std::mem::zeroed() };
    fill!(
        lib,
        d,
        clGetPlatformIDs,
        clGetPlatformInfo,
        clGetDeviceIDs,
        clGetDeviceInfo,
        clCreateContext,
        clCreateContextFromType,
        clRetainContext,
        clReleaseContext,
        clGetContextInfo,
        clCreateCommandQueue,
        clRetainCommandQueue,
        clReleaseCommandQueue,
        clGetCommandQueueInfo,
        clSetCommandQueueProperty,
        clCreateBuffer,
        clRetainMemObject,
        clReleaseMemObject,
        clGetSupportedImageFormats,
        clGetMemObjectInfo,
        clGetImageInfo,
        clCreateSampler,
        clRetainSampler,
        clReleaseSampler,
        clGetSamplerInfo,
        clCreateProgramWithSource,
        clCreateProgramWithBinary,
        clRetainProgram,
        clReleaseProgram,
        clBuildProgram,
        clGetProgramInfo,
        clGetProgramBuildInfo,
        clCreateKernel,
        clCreateKernelsInProgram,
        clRetainKernel,
        clReleaseKernel,
        clSetKernelArg,
        clGetKernelInfo,
        clGetKernelWorkGroupInfo,
        clWaitForEvents,
        clGetEventInfo,
        clRetainEvent,
        clReleaseEvent,
        clGetEventProfilingInfo,
        clFlush,
        clFinish,
        clEnqueueReadBuffer,
        clEnqueueWriteBuffer,
        clEnqueueCopyBuffer,
        clEnqueueMapBuffer,
        clEnqueueUnmapMemObject,
        clEnqueueNDRangeKernel,
        clEnqueueTask,
        clEnqueueNativeKernel,
        clEnqueueMarker,
        clEnqueueWaitForEvents,
        clEnqueueBarrier,
        clGetExtensionFunctionAddress,
        clSetEventCallback,
        clCreateSubBuffer,
        clSetMemObjectDestructorCallback,
        clCreateUserEvent,
        clSetUserEventStatus,
        clEnqueueReadBufferRect,
        clEnqueueWriteBufferRect,
        clEnqueueCopyBufferRect,
        clCreateSubDevices,
        clRetainDevice,
        clReleaseDevice,
        clCreateImage,
        clCompileProgram,
        clLinkProgram,
        clUnloadPlatformCompiler,
        clGetKernelArgInfo,
        clEnqueueFillBuffer,
        clEnqueueMigrateMemObjects,
        clEnqueueMarkerWithWaitList,
        clEnqueueBarrierWithWaitList,
        clGetExtensionFunctionAddressForPlatform,
        clCreateCommandQueueWithProperties,
        clCreatePipe,
        clGetPipeInfo,
        clSVMAlloc,
        clSVMFree,
        clCreateSamplerWithProperties,
        clSetKernelArgSVMPointer,
        clSetKernelExecInfo,
        clCloneKernel,
        clCreateProgramWithIL,
        clGetDeviceAndHostTimer,
        clGetHostTimer,
        clGetKernelSubGroupInfo,
        clSetDefaultDeviceCommandQueue,
        clSetProgramReleaseCallback,
        clSetProgramSpecializationConstant,
        clCreateBufferWithProperties,
        clCreateImageWithProperties,
        clSetContextDestructorCallback,
        clEnqueueSVMFree,
        clEnqueueSVMMemcpy,
        clEnqueueSVMMemFill,
        clEnqueueSVMMap,
        clEnqueueSVMUnmap,
        clEnqueueSVMMigrateMem,
        clEnqueueReadImage,
        clEnqueueWriteImage,
        clEnqueueCopyImage,
        clEnqueueCopyImageToBuffer,
        clEnqueueCopyBufferToImage,
        clEnqueueMapImage,
        clEnqueueFillImage,
        clCreateFromGLBuffer,
        clCreateFromGLTexture2D,
        clCreateFromGLTexture3D,
        clCreateFromGLRenderbuffer,
        clGetGLObjectInfo,
        clGetGLTextureInfo,
        clEnqueueAcquireGLObjects,
        clEnqueueReleaseGLObjects,
        clGetGLContextInfoKHR,
        clGetDeviceIDsFromD3D10KHR,
        clCreateFromD3D10BufferKHR,
        clCreateFromD3D10Texture2DKHR,
        clCreateFromD3D10Texture3DKHR,
        clEnqueueAcquireD3D10ObjectsKHR,
        clEnqueueReleaseD3D10ObjectsKHR,
        clCreateEventFromGLsyncKHR,
        clCreateFromGLTexture,
        clGetDeviceIDsFromD3D11KHR,
        clCreateFromD3D11BufferKHR,
        clCreateFromD3D11Texture2DKHR,
        clCreateFromD3D11Texture3DKHR,
        clCreateFromDX9MediaSurfaceKHR,
        clEnqueueAcquireD3D11ObjectsKHR,
        clEnqueueReleaseD3D11ObjectsKHR,
        clGetDeviceIDsFromDX9MediaAdapterKHR,
        clEnqueueAcquireDX9MediaSurfacesKHR,
        clEnqueueReleaseDX9MediaSurfacesKHR,
        clCreateFromEGLImageKHR,
        clEnqueueAcquireEGLObjectsKHR,
        clEnqueueReleaseEGLObjectsKHR,
        clCreateEventFromEGLSyncKHR,
        clCreateImage2D,
        clCreateImage3D,
        clCreateProgramWithBuiltInKernels,
        clCreateSubDevicesEXT,
        clRetainDeviceEXT,
        clReleaseDeviceEXT,
        clGetKernelSubGroupInfoKHR,
        clUnloadCompiler,
    );
    Cl {
        f: d,
        direct,
        _lib: Some(lib),
    }
}

impl Cl {
    /// A table from an ICD's own dispatch table (for a test that links the
    /// `cranecl` rlib and calls it in-process).
    pub fn from_dispatch(table: &cl_icd_dispatch) -> Cl {
        Cl {
            f: *table,
            direct: true,
            _lib: None,
        }
    }
}

/// The loader's function table (loads `libOpenCL.so.1` once, after
/// [`setup`]).
pub fn cl() -> &'static Cl {
    static CL: OnceLock<Cl> = OnceLock::new();
    CL.get_or_init(|| {
        setup();
        load_table("libOpenCL.so.1".as_ref(), false)
    })
}

/// The ICD's own exports (`libcranecl.so` loaded directly, no loader).
pub fn direct() -> &'static Cl {
    static CL: OnceLock<Cl> = OnceLock::new();
    CL.get_or_init(|| load_table(cranecl_so().as_os_str(), true))
}

/// Calls an entry point through a table: `call!(clFinish(q))` through the
/// loader, `call!(t; clFinish(q))` through the table `t`. Panics (a test
/// failure) if the library lacks the symbol.
#[macro_export]
macro_rules! call {
    ($t:expr; $name:ident($($arg:expr),* $(,)?)) => {{
        let f = $t.f.$name.expect(concat!("the library exports ", stringify!($name)));
        #[allow(unused_unsafe)]
        unsafe { f($($arg),*) }
    }};
    ($name:ident($($arg:expr),* $(,)?)) => {
        $crate::call!($crate::cl(); $name($($arg),*))
    };
}

/// The name of an OpenCL error code, for assertion messages.
pub fn code_name(code: cl_int) -> &'static str {
    macro_rules! names {
        ($($c:ident),* $(,)?) => {
            $( if code == $c { return stringify!($c); } )*
        };
    }
    names!(
        CL_SUCCESS,
        CL_DEVICE_NOT_FOUND,
        CL_DEVICE_NOT_AVAILABLE,
        CL_COMPILER_NOT_AVAILABLE,
        CL_MEM_OBJECT_ALLOCATION_FAILURE,
        CL_OUT_OF_RESOURCES,
        CL_OUT_OF_HOST_MEMORY,
        CL_PROFILING_INFO_NOT_AVAILABLE,
        CL_MEM_COPY_OVERLAP,
        CL_IMAGE_FORMAT_MISMATCH,
        CL_IMAGE_FORMAT_NOT_SUPPORTED,
        CL_BUILD_PROGRAM_FAILURE,
        CL_MAP_FAILURE,
        CL_MISALIGNED_SUB_BUFFER_OFFSET,
        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
        CL_INVALID_VALUE,
        CL_INVALID_DEVICE_TYPE,
        CL_INVALID_PLATFORM,
        CL_INVALID_DEVICE,
        CL_INVALID_CONTEXT,
        CL_INVALID_QUEUE_PROPERTIES,
        CL_INVALID_COMMAND_QUEUE,
        CL_INVALID_HOST_PTR,
        CL_INVALID_MEM_OBJECT,
        CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
        CL_INVALID_IMAGE_SIZE,
        CL_INVALID_SAMPLER,
        CL_INVALID_BINARY,
        CL_INVALID_BUILD_OPTIONS,
        CL_INVALID_PROGRAM,
        CL_INVALID_PROGRAM_EXECUTABLE,
        CL_INVALID_KERNEL_NAME,
        CL_INVALID_KERNEL_DEFINITION,
        CL_INVALID_KERNEL,
        CL_INVALID_ARG_INDEX,
        CL_INVALID_ARG_VALUE,
        CL_INVALID_ARG_SIZE,
        CL_INVALID_KERNEL_ARGS,
        CL_INVALID_WORK_DIMENSION,
        CL_INVALID_WORK_GROUP_SIZE,
        CL_INVALID_WORK_ITEM_SIZE,
        CL_INVALID_GLOBAL_OFFSET,
        CL_INVALID_EVENT_WAIT_LIST,
        CL_INVALID_EVENT,
        CL_INVALID_OPERATION,
        CL_INVALID_GL_OBJECT,
        CL_INVALID_BUFFER_SIZE,
        CL_INVALID_MIP_LEVEL,
        CL_INVALID_GLOBAL_WORK_SIZE,
        CL_INVALID_PROPERTY,
        CL_INVALID_IMAGE_DESCRIPTOR,
        CL_INVALID_COMPILER_OPTIONS,
        CL_INVALID_LINKER_OPTIONS,
        CL_INVALID_DEVICE_PARTITION_COUNT,
        CL_INVALID_PIPE_SIZE,
        CL_INVALID_DEVICE_QUEUE,
        CL_INVALID_SPEC_ID,
        CL_MAX_SIZE_RESTRICTION_EXCEEDED,
    );
    if code == -1001 {
        return "CL_PLATFORM_NOT_FOUND_KHR";
    }
    "unknown code"
}

/// Asserts an OpenCL call answered `expected`, naming both codes on failure.
#[macro_export]
macro_rules! assert_code {
    ($got:expr, $expected:expr $(,)?) => {{
        let got: opencl_sys::cl_int = $got;
        let expected: opencl_sys::cl_int = $expected;
        assert!(
            got == expected,
            "{}: got {} ({}), expected {} ({})",
            stringify!($got),
            got,
            $crate::code_name(got),
            expected,
            $crate::code_name(expected)
        );
    }};
    ($got:expr, $expected:expr, $($msg:tt)+) => {{
        let got: opencl_sys::cl_int = $got;
        let expected: opencl_sys::cl_int = $expected;
        assert!(
            got == expected,
            "{}: got {} ({}), expected {} ({}): {}",
            stringify!($got),
            got,
            $crate::code_name(got),
            expected,
            $crate::code_name(expected),
            format!($($msg)+)
        );
    }};
}

/// A string query (`clGetPlatformInfo`-style) through a raw function.
pub fn info_string(f: impl Fn(usize, *mut c_void, *mut usize) -> cl_int) -> Result<String, cl_int> {
    let mut size = 0usize;
    let r = f(0, std::ptr::null_mut(), &mut size);
    if r != CL_SUCCESS {
        return Err(r);
    }
    let mut buf = vec![0u8; size.max(1)];
    let r = f(size, buf.as_mut_ptr().cast(), std::ptr::null_mut());
    if r != CL_SUCCESS {
        return Err(r);
    }
    Ok(CStr::from_bytes_until_nul(&buf)
        .map(|c| c.to_string_lossy().into_owned())
        .unwrap_or_default())
}

impl Cl {
    /// The first platform whose `CL_PLATFORM_NAME` contains `name`.
    pub fn platform_named(&self, name: &str) -> Option<cl_platform_id> {
        let mut n: cl_uint = 0;
        assert_code!(
            call!(self; clGetPlatformIDs(0, std::ptr::null_mut(), &mut n)),
            CL_SUCCESS
        );
        let mut ids = vec![std::ptr::null_mut(); n as usize];
        assert_code!(
            call!(self; clGetPlatformIDs(n, ids.as_mut_ptr(), std::ptr::null_mut())),
            CL_SUCCESS
        );
        ids.into_iter().find(|&p| {
            info_string(|s, v, r| call!(self; clGetPlatformInfo(p, CL_PLATFORM_NAME, s, v, r)))
                .is_ok_and(|n| n.contains(name))
        })
    }

    /// The cranecl platform, found by name (through the loader,
    /// `CRANECL_CONFORMANCE_PLATFORM` names another one).
    #[track_caller]
    pub fn platform(&self) -> cl_platform_id {
        let name = match std::env::var("CRANECL_CONFORMANCE_PLATFORM") {
            Ok(n) if !self.direct => n,
            _ => "cranecl".to_string(),
        };
        self.platform_named(&name)
            .unwrap_or_else(|| panic!("a platform named {name} is listed"))
    }

    /// The cranecl CPU device.
    #[track_caller]
    pub fn device(&self) -> cl_device_id {
        let mut d = std::ptr::null_mut();
        assert_code!(
            call!(self; clGetDeviceIDs(self.platform(), CL_DEVICE_TYPE_ALL, 1, &mut d, std::ptr::null_mut())),
            CL_SUCCESS
        );
        d
    }

    /// A fresh context on the cranecl device (panics with the code on failure).
    #[track_caller]
    pub fn context(&self) -> cl_context {
        let d = self.device();
        let mut e = 0;
        let c = call!(self; clCreateContext(std::ptr::null(), 1, &d, None, std::ptr::null_mut(), &mut e));
        assert_code!(e, CL_SUCCESS, "clCreateContext");
        assert!(!c.is_null());
        c
    }

    /// A fresh context on the cranecl device whose notify callback keeps
    /// every message it hears, in order, in the returned log (leaked: the
    /// callback may run until the context goes).
    #[track_caller]
    pub fn context_with_log(&self) -> (cl_context, &'static NotifyLog) {
        let log: &'static NotifyLog = Box::leak(Box::new(NotifyLog::default()));
        let d = self.device();
        let mut e = 0;
        let c = call!(self; clCreateContext(std::ptr::null(), 1, &d, Some(log_notify), log as *const NotifyLog as *mut c_void, &mut e));
        assert_code!(e, CL_SUCCESS, "clCreateContext");
        assert!(!c.is_null());
        (c, log)
    }

    /// A fresh queue with `CL_QUEUE_PROPERTIES` = `props`.
    #[track_caller]
    pub fn queue(&self, ctx: cl_context, props: cl_command_queue_properties) -> cl_command_queue {
        let p: [cl_queue_properties; 3] = [CL_QUEUE_PROPERTIES as _, props, 0];
        let mut e = 0;
        let q =
            call!(self; clCreateCommandQueueWithProperties(ctx, self.device(), p.as_ptr(), &mut e));
        assert_code!(e, CL_SUCCESS, "clCreateCommandQueueWithProperties");
        q
    }

    /// A fresh buffer of `size` bytes with `flags`.
    #[track_caller]
    pub fn buffer(&self, ctx: cl_context, flags: cl_mem_flags, size: usize) -> cl_mem {
        let mut e = 0;
        let m = call!(self; clCreateBuffer(ctx, flags, size, std::ptr::null_mut(), &mut e));
        assert_code!(e, CL_SUCCESS, "clCreateBuffer({size})");
        m
    }

    /// A fresh user event.
    #[track_caller]
    pub fn user_event(&self, ctx: cl_context) -> cl_event {
        let mut e = 0;
        let ev = call!(self; clCreateUserEvent(ctx, &mut e));
        assert_code!(e, CL_SUCCESS, "clCreateUserEvent");
        ev
    }
}

/// The cranecl platform through the loader.
pub fn platform() -> cl_platform_id {
    cl().platform()
}

/// The cranecl device through the loader.
pub fn device() -> cl_device_id {
    cl().device()
}

/// Runs each named `fn(&Cl)` as two tests: `loader::<name>` through
/// `libOpenCL.so.1` and `direct::<name>` through the ICD's own exports.
#[macro_export]
macro_rules! both_ways {
    ($($name:ident),* $(,)?) => {
        mod loader {
            $( #[test] fn $name() { super::$name($crate::cl()) } )*
        }
        mod direct {
            $( #[test] fn $name() { super::$name($crate::direct()) } )*
        }
    };
}

/// A NULL pointer of any type (shorthand for argument lists).
pub fn null<T>() -> *mut T {
    std::ptr::null_mut()
}

/// What a context's notify callback heard ([`Cl::context_with_log`]).
pub type NotifyLog = std::sync::Mutex<Vec<String>>;

unsafe extern "C" fn log_notify(
    msg: *const std::ffi::c_char,
    _: *const c_void,
    _: usize,
    user: *mut c_void,
) {
    // SAFETY: `user` is the `NotifyLog` leaked by `context_with_log`; `msg`
    // a C string.
    let log = unsafe { &*(user as *const NotifyLog) };
    let text = unsafe { CStr::from_ptr(msg) }
        .to_string_lossy()
        .into_owned();
    log.lock().unwrap().push(text);
}
