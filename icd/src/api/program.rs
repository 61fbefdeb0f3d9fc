//! Program objects: create from source or binary, build, compile, link, and
//! the program queries. Each entry point checks its arguments in the order
//! of the spec's error list (the spec's sentence above each check); the
//! building itself is `core::program`'s.
//!
//! With a `pfn_notify`, `clBuildProgram`, `clCompileProgram` and
//! `clLinkProgram` return as soon as the arguments are checked and the work
//! runs on a thread of its own, which calls the callback when it is done;
//! without one they return when it is done.

#![allow(non_snake_case, clippy::missing_safety_doc)]

use super::prelude::*;
use crate::core::context::{Context, UserData};
use crate::core::device::Device;
use crate::core::program::{self as prog, BinarySource, Executable, Origin, Output, Program, Unit};
use cranecl_jit::options::BuildOptions;
use std::ffi::CStr;

/// The `pfn_notify` of the build, compile and link calls.
pub type BuildNotifyFn = unsafe extern "C" fn(program: cl_program, user_data: *mut c_void);

/// A user C string as `&str`, or `Err(code)` if it is not UTF-8.
///
/// # Safety
/// `p` is NULL or a NUL-terminated string (the API's contract).
unsafe fn user_str<'a>(p: *const c_char, code: cl_int, what: &str) -> CLResult<Option<&'a str>> {
    if p.is_null() {
        return Ok(None);
    }
    // SAFETY: the caller's promise above.
    let s = unsafe { CStr::from_ptr(p) };
    s.to_str()
        .map(Some)
        .map_err(|_| ClError::new(code, format!("{what} is not valid UTF-8")))
}

/// The `options` of a build, compile or link: "" for NULL; `code` if they
/// are not UTF-8.
fn options_arg(options: *const c_char, code: cl_int) -> CLResult<String> {
    // SAFETY: options is NULL or a C string (the API's contract).
    let s = unsafe { user_str(options, code, "options") }?;
    Ok(s.unwrap_or("").to_string())
}

/// Parse build or compile options; if they are invalid, fail with `code`
/// and leave the message in the program's build log.
fn parse_options_logged(p: &Program, options: &str, code: cl_int) -> CLResult<BuildOptions> {
    prog::parse_options(options).map_err(|m| {
        p.set_log(options, m.clone());
        ClError::new(code, m)
    })
}

/// The program's executable: CL_INVALID_PROGRAM_EXECUTABLE if there is no
/// successfully built one.
pub(crate) fn built_executable(p: &Program) -> CLResult<Arc<Executable>> {
    p.executable().ok_or_else(|| {
        ClError::new(
            CL_INVALID_PROGRAM_EXECUTABLE,
            "the program has no successfully built executable",
        )
    })
}

/// CL_INVALID_VALUE if device_list is NULL or num_devices is zero (the
/// calls for which the list is required).
fn check_device_list_given(num_devices: cl_uint, device_list: *const cl_device_id) -> CLResult<()> {
    check(
        !device_list.is_null() && num_devices != 0,
        CL_INVALID_VALUE,
        "device_list is NULL or num_devices is 0",
    )
}

/// CL_INVALID_VALUE if device_list is NULL and num_devices is greater than
/// zero, or if device_list is not NULL and num_devices is zero.
fn check_device_list(num_devices: cl_uint, device_list: *const cl_device_id) -> CLResult<()> {
    check(
        device_list.is_null() == (num_devices == 0),
        CL_INVALID_VALUE,
        "device_list and num_devices disagree",
    )
}

/// CL_INVALID_DEVICE if any device in device_list is not in the list of
/// devices associated with program (or context).
fn check_devices_in(
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    has: impl Fn(&Arc<Obj<Device>>) -> bool,
) -> CLResult<Vec<Arc<Obj<Device>>>> {
    let devs = Obj::<Device>::get_list(device_list, num_devices as usize)?;
    if devs.iter().any(|d| !has(d)) {
        return err(
            CL_INVALID_DEVICE,
            "a device in device_list is not the program's",
        );
    }
    Ok(devs.into_vec())
}

/// CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL.
/// Returns the callback to call when the build is done.
fn check_notify(
    pfn: Option<BuildNotifyFn>,
    user_data: *mut c_void,
) -> CLResult<Option<(BuildNotifyFn, UserData)>> {
    check(
        pfn.is_some() || user_data.is_null(),
        CL_INVALID_VALUE,
        "user_data given without pfn_notify",
    )?;
    Ok(pfn.map(|f| (f, UserData(user_data))))
}

/// Call a build callback with the program's handle.
fn call_notify(f: BuildNotifyFn, p: &Arc<Obj<Program>>, data: UserData) {
    // SAFETY: the user's callback with the spec's signature; the program is
    // alive (`p`) during the call.
    unsafe { f(Obj::handle(p), data.0) };
}

/// Run a build job; a panic (a compiler bug) becomes a failed build with
/// the message in the log, so the program never stays "in progress".
fn guarded(
    job: impl FnOnce() -> Result<(Output, String), String>,
) -> Result<(Output, String), String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(job)).unwrap_or_else(|payload| {
        let what = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        eprintln!("cranecl: internal compiler error (please report): {what}");
        Err(format!("internal compiler error (please report): {what}\n"))
    })
}

/// Run a build job: now (no callback), or on a thread of its own that calls
/// the callback when done. Returns whether it succeeded (true when it runs
/// asynchronously).
fn run_build(
    program: &Arc<Obj<Program>>,
    job: impl FnOnce() -> Result<(Output, String), String> + Send + 'static,
    notify: Option<(BuildNotifyFn, UserData)>,
) -> bool {
    let Some((f, data)) = notify else {
        return program.finish_build(guarded(job));
    };
    let p = program.clone();
    let task: Box<dyn FnOnce() + Send> = Box::new(move || {
        p.finish_build(guarded(job));
        call_notify(f, &p, data);
    });
    // Build in the background; if no thread can be had, build here.
    let slot = Arc::new(parking_lot::Mutex::new(Some(task)));
    let theirs = slot.clone();
    let spawned = std::thread::Builder::new()
        .name("cranecl-build".into())
        .spawn(move || {
            if let Some(t) = theirs.lock().take() {
                t()
            }
        });
    if spawned.is_err() {
        if let Some(t) = slot.lock().take() {
            t()
        }
    }
    true
}

/// What a build or compile call returns once the job ran (or was started):
/// `code` (`CL_BUILD_PROGRAM_FAILURE`, `CL_COMPILE_PROGRAM_FAILURE`) with the
/// log if it failed.
fn build_result(p: &Program, ok: bool, code: cl_int, what: &str) -> CLResult<()> {
    if ok {
        Ok(())
    } else {
        err(code, format!("{what} failed:\n{}", p.build_log()))
    }
}

fn create_with_source(
    context: cl_context,
    count: cl_uint,
    strings: *mut *const c_char,
    lengths: *const size_t,
) -> CLResult<cl_program> {
    // CL_INVALID_CONTEXT if context is not a valid context.
    let ctx = Obj::<Context>::get(context)?;
    // CL_INVALID_VALUE if count is zero or if strings or any entry in strings is NULL.
    check(count != 0, CL_INVALID_VALUE, "count is 0")?;
    check(!strings.is_null(), CL_INVALID_VALUE, "strings is NULL")?;
    // SAFETY: the caller promised `count` entries at `strings` (and at
    // `lengths` if it is not NULL).
    let ptrs = unsafe { std::slice::from_raw_parts(strings, count as usize) };
    let lens = if lengths.is_null() {
        None
    } else {
        // SAFETY: as above.
        Some(unsafe { std::slice::from_raw_parts(lengths, count as usize) })
    };
    check(
        ptrs.iter().all(|p| !p.is_null()),
        CL_INVALID_VALUE,
        "an entry in strings is NULL",
    )?;
    let mut bytes = Vec::new();
    for (i, &p) in ptrs.iter().enumerate() {
        match lens.map_or(0, |l| l[i]) {
            // SAFETY: a zero length means a NUL-terminated string.
            0 => bytes.extend_from_slice(unsafe { CStr::from_ptr(p) }.to_bytes()),
            // SAFETY: a length counts that many readable chars.
            n => bytes.extend_from_slice(unsafe { std::slice::from_raw_parts(p as *const u8, n) }),
        }
    }
    // The concatenation strips any nulls in the original source strings.
    bytes.retain(|&b| b != 0);
    let source = String::from_utf8_lossy(&bytes).into_owned();
    let devices = ctx.devices().to_vec();
    Ok(Obj::into_handle(Program::new(
        ctx,
        devices,
        Origin::Source(source),
    )))
}

#[no_mangle]
pub unsafe extern "C" fn clCreateProgramWithSource(
    context: cl_context,
    count: cl_uint,
    strings: *mut *const c_char,
    lengths: *const size_t,
    errcode_ret: *mut cl_int,
) -> cl_program {
    // SAFETY: errcode_ret is the caller's (the API's contract).
    unsafe {
        api_create(errcode_ret, ptr::null_mut(), || {
            create_with_source(context, count, strings, lengths)
        })
    }
}

fn create_with_binary(
    context: cl_context,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    lengths: *const size_t,
    binaries: *mut *const ::core::ffi::c_uchar,
    binary_status: *mut cl_int,
) -> CLResult<cl_program> {
    // CL_INVALID_CONTEXT if context is not a valid context.
    let ctx = Obj::<Context>::get(context)?;
    // CL_INVALID_VALUE if device_list is NULL or num_devices is zero.
    check_device_list_given(num_devices, device_list)?;
    // CL_INVALID_DEVICE if any device in device_list is not in the list of
    // devices associated with context.
    let devices = check_devices_in(num_devices, device_list, |d| ctx.has_device(d))?;
    let n = num_devices as usize;
    let status = |i: usize, code: cl_int| {
        if !binary_status.is_null() {
            // SAFETY: binary_status has num_devices entries (the API's contract).
            unsafe { binary_status.add(i).write(code) };
        }
    };
    // CL_INVALID_VALUE if lengths or binaries is NULL or if any entry in
    // lengths[i] is zero or binaries[i] is NULL.
    check(
        !lengths.is_null() && !binaries.is_null(),
        CL_INVALID_VALUE,
        "lengths or binaries is NULL",
    )?;
    // SAFETY: both arrays have num_devices entries (the API's contract).
    let (lens, bins) = unsafe {
        (
            std::slice::from_raw_parts(lengths, n),
            std::slice::from_raw_parts(binaries as *const *const u8, n),
        )
    };
    let mut bad_value = false;
    for i in 0..n {
        let ok = lens[i] != 0 && !bins[i].is_null();
        status(i, if ok { CL_SUCCESS } else { CL_INVALID_VALUE });
        bad_value |= !ok;
    }
    check(
        !bad_value,
        CL_INVALID_VALUE,
        "a binary is NULL or has length 0",
    )?;
    // CL_INVALID_BINARY if an invalid program binary was encountered for any
    // device. binary_status will return specific status for each device.
    let mut decoded = Vec::with_capacity(n);
    let mut invalid = None;
    for i in 0..n {
        // SAFETY: binaries[i] has lengths[i] readable bytes.
        let bytes = unsafe { std::slice::from_raw_parts(bins[i], lens[i]) };
        match prog::decode_binary(bytes) {
            Ok(b) => {
                status(i, CL_SUCCESS);
                decoded.push(b);
            }
            Err(m) => {
                status(i, CL_INVALID_BINARY);
                invalid.get_or_insert(m);
            }
        }
    }
    if let Some(m) = invalid {
        return err(CL_INVALID_BINARY, m);
    }
    // One device: its binary is the program's.
    let Some((ty, unit)) = decoded.into_iter().next() else {
        return err(CL_INVALID_VALUE, "no binary");
    };
    Ok(Obj::into_handle(Program::new(
        ctx,
        devices,
        Origin::Binary(unit, ty),
    )))
}

#[no_mangle]
pub unsafe extern "C" fn clCreateProgramWithBinary(
    context: cl_context,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    lengths: *const size_t,
    binaries: *mut *const ::core::ffi::c_uchar,
    binary_status: *mut cl_int,
    errcode_ret: *mut cl_int,
) -> cl_program {
    // SAFETY: errcode_ret is the caller's (the API's contract).
    unsafe {
        api_create(errcode_ret, ptr::null_mut(), || {
            create_with_binary(
                context,
                num_devices,
                device_list,
                lengths,
                binaries,
                binary_status,
            )
        })
    }
}

#[no_mangle]
pub unsafe extern "C" fn clRetainProgram(program: cl_program) -> cl_int {
    api_call(|| Obj::<Program>::retain(program))
}

#[no_mangle]
pub unsafe extern "C" fn clReleaseProgram(program: cl_program) -> cl_int {
    api_call(|| Obj::<Program>::release(program).map(|_| ()))
}

fn build_program(
    program: cl_program,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    options: *const c_char,
    pfn_notify: Option<BuildNotifyFn>,
    user_data: *mut c_void,
) -> CLResult<()> {
    // CL_INVALID_PROGRAM if program is not a valid program object.
    let p = Obj::<Program>::get(program)?;
    check_device_list(num_devices, device_list)?;
    let notify = check_notify(pfn_notify, user_data)?;
    check_devices_in(num_devices, device_list, |d| p.has_device(d))?;
    // CL_INVALID_BINARY if program is created with clCreateProgramWithBinary
    // and devices listed in device_list do not have a valid program binary
    // loaded (for building: an executable binary).
    if let Origin::Binary(_, ty) = p.origin() {
        if *ty != CL_PROGRAM_BINARY_TYPE_EXECUTABLE {
            return err(
                CL_INVALID_BINARY,
                "the program's binary is a compiled object or library, not an executable",
            );
        }
    }
    // CL_INVALID_BUILD_OPTIONS if the build options specified by options are invalid.
    // SAFETY: options is NULL or a C string (the API's contract).
    let given = unsafe { user_str(options, CL_INVALID_BUILD_OPTIONS, "options") }?;
    let options = match (given, p.origin()) {
        // Built as if options were the same as when the binary was built.
        (None, Origin::Binary(u, _)) => u.options.clone(),
        (g, _) => g.unwrap_or("").to_string(),
    };
    let opts = parse_options_logged(&p, &options, CL_INVALID_BUILD_OPTIONS)?;
    // CL_INVALID_OPERATION if program was not created with
    // clCreateProgramWithSource, clCreateProgramWithIL or clCreateProgramWithBinary.
    if *p.origin() == Origin::Linked {
        return err(
            CL_INVALID_OPERATION,
            "a program made by clLinkProgram cannot be built",
        );
    }
    // CL_INVALID_OPERATION if a build has not completed, or if there are
    // kernel objects attached to program.
    p.begin_build(&options)?;
    let origin = p.origin().clone();
    let checks = p.context().checks();
    let schedule = p.context().schedule();
    let job = move || match origin {
        Origin::Source(source) => {
            let (exe, log) = prog::build_executable(&source, &opts, &[], checks, schedule)?;
            Ok((
                Output::Executable(
                    Arc::new(exe),
                    BinarySource::Source {
                        source,
                        options,
                        cached: None,
                    },
                ),
                log,
            ))
        }
        Origin::Binary(unit, _) => {
            let topts = prog::text_options(&options)?;
            let (exe, log) = prog::build_executable(&unit.text, &topts, &[], checks, schedule)?;
            let unit = Unit {
                options,
                text: unit.text,
            };
            Ok((
                Output::Executable(Arc::new(exe), BinarySource::Unit(unit)),
                log,
            ))
        }
        Origin::Linked => Err("a linked program cannot be built".into()),
    };
    // CL_BUILD_PROGRAM_FAILURE if there is a failure to build the program
    // executable (when clBuildProgram waits for the build).
    let ok = run_build(&p, job, notify);
    build_result(&p, ok, CL_BUILD_PROGRAM_FAILURE, "build")
}

#[no_mangle]
pub unsafe extern "C" fn clBuildProgram(
    program: cl_program,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    options: *const c_char,
    pfn_notify: Option<BuildNotifyFn>,
    user_data: *mut c_void,
) -> cl_int {
    api_call(|| {
        build_program(
            program,
            num_devices,
            device_list,
            options,
            pfn_notify,
            user_data,
        )
    })
}

fn program_info(program: cl_program, param: cl_program_info, out: InfoOut) -> CLResult<()> {
    // CL_INVALID_PROGRAM if program is a not a valid program object.
    let p = Obj::<Program>::get(program)?;
    // CL_INVALID_PROGRAM_EXECUTABLE if param_name is CL_PROGRAM_NUM_KERNELS,
    // CL_PROGRAM_KERNEL_NAMES, CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT, or
    // CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT and a successful program
    // executable has not been built for at least one device.
    let exe = || built_executable(&p);
    let devices: Vec<cl_device_id> = p.devices().iter().map(Obj::handle).collect();
    match param {
        CL_PROGRAM_REFERENCE_COUNT => out.value::<cl_uint>(p.ref_count()),
        CL_PROGRAM_CONTEXT => out.value(Obj::handle(p.context())),
        CL_PROGRAM_NUM_DEVICES => out.value::<cl_uint>(devices.len() as cl_uint),
        CL_PROGRAM_DEVICES => out.slice(&devices),
        CL_PROGRAM_SOURCE => out.string(p.source()),
        // Not created with IL: param_value unchanged, size 0.
        CL_PROGRAM_IL => out.bytes(&[]),
        CL_PROGRAM_BINARY_SIZES => {
            let n = p.binary().len();
            out.slice(&vec![n; devices.len()])
        }
        CL_PROGRAM_BINARIES => program_binaries(&p, devices.len(), &out),
        CL_PROGRAM_NUM_KERNELS => out.value::<usize>(exe()?.code.kernels().len()),
        CL_PROGRAM_KERNEL_NAMES => out.string(&exe()?.kernel_names()),
        CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT | CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT => {
            exe()?;
            out.boolean(false)
        }
        _ => err(
            CL_INVALID_VALUE,
            format!("unknown program info 0x{param:x}"),
        ),
    }
}

/// `CL_PROGRAM_BINARIES`: `param_value` is the caller's array of `n`
/// pointers (the answer's size is that array's); each non-NULL one receives
/// the binary.
fn program_binaries(p: &Program, n: usize, out: &InfoOut) -> CLResult<()> {
    out.with(n * std::mem::size_of::<*mut u8>(), |value| {
        let bin = p.binary();
        let ptrs = value as *const *mut u8;
        for i in 0..n {
            // SAFETY: the caller gave `n` pointers at `param_value` (`with`
            // checked the size), each NULL or pointing at BINARY_SIZES[i] bytes.
            let dst = unsafe { ptrs.add(i).read() };
            if !dst.is_null() && !bin.is_empty() {
                // SAFETY: as above.
                unsafe { std::ptr::copy_nonoverlapping(bin.as_ptr(), dst, bin.len()) };
            }
        }
    })
}

info_entry_points! {
    fn clGetProgramInfo(program: cl_program, param_name: cl_program_info) = program_info;
}

fn program_build_info(
    program: cl_program,
    device: cl_device_id,
    param: cl_program_build_info,
    out: InfoOut,
) -> CLResult<()> {
    // CL_INVALID_PROGRAM if program is a not a valid program object.
    let p = Obj::<Program>::get(program)?;
    // CL_INVALID_DEVICE if device is not in the list of devices associated with program.
    let d = Obj::<Device>::get(device)?;
    check(
        p.has_device(&d),
        CL_INVALID_DEVICE,
        "device is not associated with the program",
    )?;
    match param {
        CL_PROGRAM_BUILD_STATUS => out.value::<cl_build_status>(p.status()),
        CL_PROGRAM_BUILD_OPTIONS => out.string(&p.build_options()),
        CL_PROGRAM_BUILD_LOG => out.string(&p.build_log()),
        CL_PROGRAM_BINARY_TYPE => out.value::<cl_program_binary_type>(p.binary_type()),
        CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE => {
            out.value::<usize>(p.global_variable_total_size())
        }
        _ => err(
            CL_INVALID_VALUE,
            format!("unknown program build info 0x{param:x}"),
        ),
    }
}

info_entry_points! {
    fn clGetProgramBuildInfo(
        program: cl_program,
        device: cl_device_id,
        param_name: cl_program_build_info,
    ) = program_build_info;
}

#[no_mangle]
pub unsafe extern "C" fn clCreateProgramWithBuiltInKernels(
    context: cl_context,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    kernel_names: *const c_char,
    errcode_ret: *mut cl_int,
) -> cl_program {
    // SAFETY: errcode_ret is the caller's (the API's contract).
    unsafe {
        api_create(errcode_ret, ptr::null_mut(), || {
            // CL_INVALID_CONTEXT if context is not a valid context.
            Obj::<Context>::get(context)?;
            // CL_INVALID_VALUE if device_list is NULL or num_devices is zero.
            check_device_list_given(num_devices, device_list)?;
            // CL_INVALID_VALUE if kernel_names is NULL or kernel_names contains
            // a kernel name that is not supported by any of the devices.
            let _ = kernel_names;
            err(CL_INVALID_VALUE, "the device has no built-in kernels")
        })
    }
}

#[allow(clippy::too_many_arguments)]
fn compile_program(
    program: cl_program,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    options: *const c_char,
    num_input_headers: cl_uint,
    input_headers: *const cl_program,
    header_include_names: *mut *const c_char,
    pfn_notify: Option<BuildNotifyFn>,
    user_data: *mut c_void,
) -> CLResult<()> {
    // CL_INVALID_PROGRAM if program is not a valid program object.
    let p = Obj::<Program>::get(program)?;
    // CL_INVALID_VALUE if device_list is NULL and num_devices is greater than
    // zero, or if device_list is not NULL and num_devices is zero.
    check_device_list(num_devices, device_list)?;
    // CL_INVALID_VALUE if num_input_headers is zero and header_include_names
    // or input_headers are not NULL or if num_input_headers is not zero and
    // header_include_names or input_headers are NULL.
    let n = num_input_headers as usize;
    check(
        if n == 0 {
            input_headers.is_null() && header_include_names.is_null()
        } else {
            !input_headers.is_null() && !header_include_names.is_null()
        },
        CL_INVALID_VALUE,
        "num_input_headers, input_headers and header_include_names disagree",
    )?;
    let header_progs = Obj::<Program>::get_list(input_headers, n)?;
    // CL_INVALID_CONTEXT if the context associated with program and programs
    // in input_headers are not the same.
    check(
        header_progs
            .iter()
            .all(|h| Arc::ptr_eq(h.context(), p.context())),
        CL_INVALID_CONTEXT,
        "an input header belongs to another context",
    )?;
    let mut headers = Vec::with_capacity(n);
    for (i, h) in header_progs.iter().enumerate() {
        // SAFETY: header_include_names has num_input_headers entries.
        let name_ptr = unsafe { header_include_names.add(i).read() };
        check(
            !name_ptr.is_null(),
            CL_INVALID_VALUE,
            "a header include name is NULL",
        )?;
        // SAFETY: a C string (the API's contract).
        let name = unsafe { user_str(name_ptr, CL_INVALID_VALUE, "a header include name") }?
            .unwrap_or_default();
        headers.push((name.to_string(), h.source().to_string()));
    }
    let notify = check_notify(pfn_notify, user_data)?;
    // CL_INVALID_DEVICE if device in device_list is not in the list of devices
    // associated with program.
    check_devices_in(num_devices, device_list, |d| p.has_device(d))?;
    // CL_INVALID_COMPILER_OPTIONS if the compiler options specified by options are invalid.
    let options = options_arg(options, CL_INVALID_COMPILER_OPTIONS)?;
    let opts = parse_options_logged(&p, &options, CL_INVALID_COMPILER_OPTIONS)?;
    // CL_INVALID_OPERATION if program has no source or IL available.
    let Origin::Source(source) = p.origin().clone() else {
        return err(
            CL_INVALID_OPERATION,
            "the program was not created from source",
        );
    };
    // CL_INVALID_OPERATION if a compilation or build has not completed, or
    // if there are kernel objects attached to program.
    p.begin_build(&options)?;
    let job = move || {
        let (unit, log) = prog::compile_unit(&source, &options, &opts, &headers)?;
        Ok((
            Output::Unit(unit, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT),
            log,
        ))
    };
    // CL_COMPILE_PROGRAM_FAILURE if there is a failure to compile the program source.
    let ok = run_build(&p, job, notify);
    build_result(&p, ok, CL_COMPILE_PROGRAM_FAILURE, "compile")
}

#[no_mangle]
pub unsafe extern "C" fn clCompileProgram(
    program: cl_program,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    options: *const c_char,
    num_input_headers: cl_uint,
    input_headers: *const cl_program,
    header_include_names: *mut *const c_char,
    pfn_notify: Option<BuildNotifyFn>,
    user_data: *mut c_void,
) -> cl_int {
    api_call(|| {
        compile_program(
            program,
            num_devices,
            device_list,
            options,
            num_input_headers,
            input_headers,
            header_include_names,
            pfn_notify,
            user_data,
        )
    })
}

/// `clLinkProgram`: the new program and whether the link (when waited for)
/// succeeded.
#[allow(clippy::too_many_arguments)]
fn link_program(
    context: cl_context,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    options: *const c_char,
    num_input_programs: cl_uint,
    input_programs: *const cl_program,
    pfn_notify: Option<BuildNotifyFn>,
    user_data: *mut c_void,
) -> CLResult<(cl_program, bool)> {
    // CL_INVALID_CONTEXT if context is not a valid context.
    let ctx = Obj::<Context>::get(context)?;
    // CL_INVALID_VALUE if device_list is NULL and num_devices is greater than
    // zero, or if device_list is not NULL and num_devices is zero.
    check_device_list(num_devices, device_list)?;
    // CL_INVALID_VALUE if num_input_programs is zero (whatever
    // input_programs is) or if it is not zero and input_programs is NULL.
    check(
        num_input_programs != 0 && !input_programs.is_null(),
        CL_INVALID_VALUE,
        "no input programs",
    )?;
    // CL_INVALID_PROGRAM if programs specified in input_programs are not valid program objects.
    let inputs = Obj::<Program>::get_list(input_programs, num_input_programs as usize)?;
    // CL_INVALID_CONTEXT if the context associated with programs in
    // input_programs is not the same as context.
    check(
        inputs.iter().all(|p| Arc::ptr_eq(p.context(), &ctx)),
        CL_INVALID_CONTEXT,
        "an input program belongs to another context",
    )?;
    let notify = check_notify(pfn_notify, user_data)?;
    // CL_INVALID_DEVICE if any device in device_list is not in the list of
    // devices associated with context.
    let listed = check_devices_in(num_devices, device_list, |d| ctx.has_device(d))?;
    // CL_INVALID_LINKER_OPTIONS if the linker options specified by options are invalid.
    let options = options_arg(options, CL_INVALID_LINKER_OPTIONS)?;
    let link_opts =
        prog::parse_options(&options).map_err(|m| ClError::new(CL_INVALID_LINKER_OPTIONS, m))?;
    // CL_INVALID_OPERATION if the compilation or build of any input has not
    // completed, or if an input holds no compiled object or library.
    let mut units = Vec::with_capacity(inputs.len());
    for p in &inputs {
        check(
            p.status() != CL_BUILD_IN_PROGRESS,
            CL_INVALID_OPERATION,
            "an input program's compile has not completed",
        )?;
        let Some((unit, _)) = p.unit() else {
            return err(
                CL_INVALID_OPERATION,
                "an input program holds no compiled object or library",
            );
        };
        units.push(unit);
    }
    let devices = if listed.is_empty() {
        ctx.devices().to_vec()
    } else {
        listed
    };
    let p = Program::new(ctx, devices, Origin::Linked);
    p.begin_build(&options)?;
    let checks = p.context().checks();
    let schedule = p.context().schedule();
    let job = move || {
        let unit = prog::link_units(&units, &link_opts)?;
        if link_opts.create_library {
            return Ok((
                Output::Unit(unit, CL_PROGRAM_BINARY_TYPE_LIBRARY),
                String::new(),
            ));
        }
        let topts = prog::text_options(&unit.options)?;
        let (exe, log) = prog::build_executable(&unit.text, &topts, &[], checks, schedule)?;
        Ok((
            Output::Executable(Arc::new(exe), BinarySource::Unit(unit)),
            log,
        ))
    };
    let ok = run_build(&p, job, notify);
    Ok((Obj::into_handle(p), ok))
}

#[no_mangle]
pub unsafe extern "C" fn clLinkProgram(
    context: cl_context,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    options: *const c_char,
    num_input_programs: cl_uint,
    input_programs: *const cl_program,
    pfn_notify: Option<BuildNotifyFn>,
    user_data: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_program {
    let mut failed = false;
    // SAFETY: errcode_ret is the caller's (the API's contract).
    let p = unsafe {
        api_create(errcode_ret, ptr::null_mut(), || {
            let (p, ok) = link_program(
                context,
                num_devices,
                device_list,
                options,
                num_input_programs,
                input_programs,
                pfn_notify,
                user_data,
            )?;
            failed = !ok;
            Ok(p)
        })
    };
    // CL_LINK_PROGRAM_FAILURE if there is a failure to link; the program is
    // returned so that its log can be read.
    if failed && !errcode_ret.is_null() {
        // SAFETY: as above.
        unsafe { errcode_ret.write(CL_LINK_PROGRAM_FAILURE) };
    }
    p
}

#[no_mangle]
pub unsafe extern "C" fn clCreateProgramWithIL(
    context: cl_context,
    il: *const c_void,
    length: size_t,
    errcode_ret: *mut cl_int,
) -> cl_program {
    // SAFETY: errcode_ret is the caller's (the API's contract).
    unsafe {
        api_create(errcode_ret, ptr::null_mut(), || {
            // CL_INVALID_CONTEXT if context is not a valid context.
            Obj::<Context>::get(context)?;
            // CL_INVALID_OPERATION if no devices in context support
            // intermediate language programs.
            let _ = (il, length);
            err(
                CL_INVALID_OPERATION,
                "the device supports no intermediate language",
            )
        })
    }
}

#[no_mangle]
pub unsafe extern "C" fn clSetProgramReleaseCallback(
    program: cl_program,
    pfn_notify: Option<BuildNotifyFn>,
    user_data: *mut c_void,
) -> cl_int {
    api_call(|| {
        // CL_INVALID_PROGRAM if program is not a valid program object.
        Obj::<Program>::get(program)?;
        // CL_INVALID_OPERATION if no devices in the context associated with
        // program support destructors for program scope global variables.
        let _ = (pfn_notify, user_data);
        err(
            CL_INVALID_OPERATION,
            "the device does not support destructors for program scope global variables",
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn clSetProgramSpecializationConstant(
    program: cl_program,
    spec_id: cl_uint,
    spec_size: size_t,
    spec_value: *const c_void,
) -> cl_int {
    api_call(|| {
        // CL_INVALID_PROGRAM if program is not a valid program object.
        Obj::<Program>::get(program)?;
        let _ = (spec_id, spec_size, spec_value);
        // Appendix H: CL_INVALID_OPERATION if no devices associated with
        // program support intermediate language programs (ours supports none).
        err(
            CL_INVALID_OPERATION,
            "the device supports no intermediate language, so programs have no specialization constants",
        )
    })
}
