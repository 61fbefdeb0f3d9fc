//! The OpenCL calls the command makes, typed: the `cranecl` ICD is linked
//! into this binary and called through its own dispatch table
//! (`cranecl::dispatch::table()`), so no loader and no `.icd` file is
//! involved. Each wrapper turns a failed call into a [`ClFail`] naming the
//! call and the spec's code; the context's notify callback collects the
//! ICD's explanation of the last failure ([`take_notes`]).
//!
//! Objects are not released: the command makes one context, one program and
//! a handful of buffers, and exits when the launch is done.

use opencl_sys::cl_icd::cl_icd_dispatch;
use opencl_sys::*;
use std::ffi::{c_char, c_void, CStr, CString};
use std::ptr::{null, null_mut};
use std::sync::Mutex;

/// A failed OpenCL call: which call, and the code it returned.
#[derive(Debug)]
pub struct ClFail {
    pub call: &'static str,
    pub code: cl_int,
}

impl std::fmt::Display for ClFail {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(
            f,
            "{} failed: {} ({})",
            self.call,
            code_name(self.code),
            self.code
        )
    }
}

pub type ClResult<T> = Result<T, ClFail>;

fn ok(call: &'static str, code: cl_int) -> ClResult<()> {
    if code == CL_SUCCESS {
        Ok(())
    } else {
        Err(ClFail { call, code })
    }
}

/// Calls one entry point of the table.
macro_rules! call {
    ($t:expr, $name:ident($($arg:expr),* $(,)?)) => {{
        // The linked ICD fills every slot this file uses.
        let f = $t.$name.expect(concat!("cranecl's dispatch table has ", stringify!($name)));
        // SAFETY: the function is the ICD's own entry point, called with
        // the argument types its C prototype declares; every pointer passed
        // is valid for the sizes passed beside it.
        unsafe { f($($arg),*) }
    }};
}

/// What the context's notify callback heard since the last [`take_notes`].
static NOTES: Mutex<Vec<String>> = Mutex::new(Vec::new());

extern "C" fn notify(errinfo: *const c_char, _: *const c_void, _: usize, _: *mut c_void) {
    if errinfo.is_null() {
        return;
    }
    // SAFETY: the ICD passes a NUL-terminated string valid for the call.
    let s = unsafe { CStr::from_ptr(errinfo) }
        .to_string_lossy()
        .into_owned();
    if let Ok(mut n) = NOTES.lock() {
        n.push(s);
    }
}

/// The notify callback's messages since the last call (the ICD's words on
/// a failed call or a failed command).
pub fn take_notes() -> Vec<String> {
    NOTES
        .lock()
        .map(|mut n| std::mem::take(&mut *n))
        .unwrap_or_default()
}

/// The ICD's table and the one device the command uses.
pub struct Cl {
    t: &'static cl_icd_dispatch,
    pub platform: cl_platform_id,
    pub device: cl_device_id,
}

/// An argument's description from `clGetKernelArgInfo`.
#[derive(Clone, Debug)]
pub struct ArgInfo {
    pub name: String,
    pub type_name: String,
    pub address: cl_kernel_arg_address_qualifier,
}

impl Cl {
    /// The cranecl platform and its first device.
    pub fn open() -> ClResult<Cl> {
        // SAFETY: the table is a static of the linked ICD.
        let t = unsafe { &*cranecl::dispatch::table() };
        let mut platform = null_mut();
        ok(
            "clGetPlatformIDs",
            call!(t, clGetPlatformIDs(1, &mut platform, null_mut())),
        )?;
        let mut device = null_mut();
        ok(
            "clGetDeviceIDs",
            call!(
                t,
                clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &mut device, null_mut())
            ),
        )?;
        Ok(Cl {
            t,
            platform,
            device,
        })
    }

    /// The bytes of an info query by the size protocol.
    fn info_bytes(
        &self,
        call: &'static str,
        f: impl Fn(usize, *mut c_void, *mut usize) -> cl_int,
    ) -> ClResult<Vec<u8>> {
        let mut size = 0usize;
        ok(call, f(0, null_mut(), &mut size))?;
        let mut buf = vec![0u8; size];
        ok(call, f(size, buf.as_mut_ptr().cast(), null_mut()))?;
        Ok(buf)
    }

    pub fn platform_string(&self, param: cl_platform_info) -> ClResult<String> {
        let b = self.info_bytes("clGetPlatformInfo", |s, v, r| {
            call!(self.t, clGetPlatformInfo(self.platform, param, s, v, r))
        })?;
        Ok(c_string(&b))
    }

    pub fn device_bytes(&self, param: cl_device_info) -> ClResult<Vec<u8>> {
        self.info_bytes("clGetDeviceInfo", |s, v, r| {
            call!(self.t, clGetDeviceInfo(self.device, param, s, v, r))
        })
    }

    pub fn device_string(&self, param: cl_device_info) -> ClResult<String> {
        Ok(c_string(&self.device_bytes(param)?))
    }

    /// An integer query (`cl_uint`, `cl_ulong`, `size_t`, bitfields), read
    /// by the size the device answers.
    pub fn device_uint(&self, param: cl_device_info) -> ClResult<u64> {
        Ok(le_uint(&self.device_bytes(param)?))
    }

    /// A `size_t[]` query.
    pub fn device_sizes(&self, param: cl_device_info) -> ClResult<Vec<usize>> {
        Ok(self
            .device_bytes(param)?
            .chunks_exact(size_of::<usize>())
            .map(|c| le_uint(c) as usize)
            .collect())
    }

    /// A context on the device, its notify callback collecting the ICD's
    /// messages.
    pub fn context(&self) -> ClResult<cl_context> {
        let mut e = 0;
        let c = call!(
            self.t,
            clCreateContext(null(), 1, &self.device, Some(notify), null_mut(), &mut e)
        );
        ok("clCreateContext", e).map(|_| c)
    }

    pub fn queue(&self, ctx: cl_context) -> ClResult<cl_command_queue> {
        let mut e = 0;
        let q = call!(
            self.t,
            clCreateCommandQueueWithProperties(ctx, self.device, null(), &mut e)
        );
        ok("clCreateCommandQueueWithProperties", e).map(|_| q)
    }

    /// Builds `source` with `options`: the program and its build log, or
    /// the failure and the log.
    pub fn build(
        &self,
        ctx: cl_context,
        source: &str,
        options: &str,
    ) -> Result<(cl_program, String), (ClFail, String)> {
        let mut e = 0;
        let mut ptr = source.as_ptr().cast::<c_char>();
        let len = source.len();
        let p = call!(
            self.t,
            clCreateProgramWithSource(ctx, 1, &mut ptr, &len, &mut e)
        );
        ok("clCreateProgramWithSource", e).map_err(|f| (f, String::new()))?;
        let opts = CString::new(options.replace('\0', " ")).unwrap_or_default();
        let r = call!(
            self.t,
            clBuildProgram(p, 1, &self.device, opts.as_ptr(), None, null_mut())
        );
        let log = self
            .info_bytes("clGetProgramBuildInfo", |s, v, rs| {
                call!(
                    self.t,
                    clGetProgramBuildInfo(p, self.device, CL_PROGRAM_BUILD_LOG, s, v, rs)
                )
            })
            .map(|b| c_string(&b))
            .unwrap_or_default();
        match ok("clBuildProgram", r) {
            Ok(()) => Ok((p, log)),
            Err(f) => Err((f, log)),
        }
    }

    /// The names of the program's kernels.
    pub fn kernel_names(&self, p: cl_program) -> ClResult<Vec<String>> {
        let b = self.info_bytes("clGetProgramInfo", |s, v, r| {
            call!(
                self.t,
                clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, s, v, r)
            )
        })?;
        Ok(c_string(&b)
            .split(';')
            .filter(|n| !n.is_empty())
            .map(str::to_string)
            .collect())
    }

    pub fn kernel(&self, p: cl_program, name: &str) -> ClResult<cl_kernel> {
        let n = CString::new(name).map_err(|_| ClFail {
            call: "clCreateKernel",
            code: CL_INVALID_KERNEL_NAME,
        })?;
        let mut e = 0;
        let k = call!(self.t, clCreateKernel(p, n.as_ptr(), &mut e));
        ok("clCreateKernel", e).map(|_| k)
    }

    /// Each argument's name, type name and address space (the program is
    /// built with `-cl-kernel-arg-info`).
    pub fn kernel_args(&self, k: cl_kernel) -> ClResult<Vec<ArgInfo>> {
        let mut n: cl_uint = 0;
        ok(
            "clGetKernelInfo",
            call!(
                self.t,
                clGetKernelInfo(
                    k,
                    CL_KERNEL_NUM_ARGS,
                    size_of::<cl_uint>(),
                    (&mut n as *mut cl_uint).cast(),
                    null_mut()
                )
            ),
        )?;
        (0..n)
            .map(|i| {
                let q = |param| {
                    self.info_bytes("clGetKernelArgInfo", |s, v, r| {
                        call!(self.t, clGetKernelArgInfo(k, i, param, s, v, r))
                    })
                };
                Ok(ArgInfo {
                    name: c_string(&q(CL_KERNEL_ARG_NAME)?),
                    type_name: c_string(&q(CL_KERNEL_ARG_TYPE_NAME)?),
                    address: le_uint(&q(CL_KERNEL_ARG_ADDRESS_QUALIFIER)?) as _,
                })
            })
            .collect()
    }

    /// A buffer of `data.len()` bytes holding `data` (`CL_MEM_COPY_HOST_PTR`),
    /// or left as the device makes it when `data` is `None`.
    pub fn buffer(
        &self,
        ctx: cl_context,
        flags: cl_mem_flags,
        size: usize,
        data: Option<&[u8]>,
    ) -> ClResult<cl_mem> {
        let mut e = 0;
        let (flags, host) = match data {
            Some(d) => (flags | CL_MEM_COPY_HOST_PTR, d.as_ptr() as *mut c_void),
            None => (flags, null_mut()),
        };
        let m = call!(self.t, clCreateBuffer(ctx, flags, size, host, &mut e));
        ok("clCreateBuffer", e).map(|_| m)
    }

    pub fn sub_buffer(&self, parent: cl_mem, origin: usize, size: usize) -> ClResult<cl_mem> {
        let region = cl_buffer_region { origin, size };
        let mut e = 0;
        let m = call!(
            self.t,
            clCreateSubBuffer(
                parent,
                0,
                CL_BUFFER_CREATE_TYPE_REGION,
                (&region as *const cl_buffer_region).cast(),
                &mut e
            )
        );
        ok("clCreateSubBuffer", e).map(|_| m)
    }

    /// `clSetKernelArg` with `size` bytes at `value` (NULL for a local size).
    pub fn set_arg(
        &self,
        k: cl_kernel,
        index: u32,
        size: usize,
        value: *const c_void,
    ) -> ClResult<()> {
        ok(
            "clSetKernelArg",
            call!(self.t, clSetKernelArg(k, index, size, value)),
        )
    }

    /// Enqueues the kernel and waits: the command's execution status (0, or
    /// the negative code it failed with).
    pub fn run(
        &self,
        q: cl_command_queue,
        k: cl_kernel,
        global: &[usize],
        local: Option<&[usize]>,
    ) -> ClResult<cl_int> {
        let mut ev = null_mut();
        ok(
            "clEnqueueNDRangeKernel",
            call!(
                self.t,
                clEnqueueNDRangeKernel(
                    q,
                    k,
                    global.len() as cl_uint,
                    null(),
                    global.as_ptr(),
                    local.map_or(null(), |l| l.as_ptr()),
                    0,
                    null(),
                    &mut ev
                )
            ),
        )?;
        // A failed command makes the wait answer
        // CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST: the status says why.
        let _ = call!(self.t, clWaitForEvents(1, &ev));
        let mut status: cl_int = 0;
        ok(
            "clGetEventInfo",
            call!(
                self.t,
                clGetEventInfo(
                    ev,
                    CL_EVENT_COMMAND_EXECUTION_STATUS,
                    size_of::<cl_int>(),
                    (&mut status as *mut cl_int).cast(),
                    null_mut()
                )
            ),
        )?;
        Ok(status)
    }

    /// The buffer's `size` bytes (a blocking read).
    pub fn read(&self, q: cl_command_queue, m: cl_mem, size: usize) -> ClResult<Vec<u8>> {
        let mut out = vec![0u8; size];
        if size == 0 {
            return Ok(out);
        }
        ok(
            "clEnqueueReadBuffer",
            call!(
                self.t,
                clEnqueueReadBuffer(
                    q,
                    m,
                    CL_TRUE,
                    0,
                    size,
                    out.as_mut_ptr().cast(),
                    0,
                    null(),
                    null_mut()
                )
            ),
        )?;
        Ok(out)
    }
}

/// The text of a NUL-terminated info string.
fn c_string(b: &[u8]) -> String {
    CStr::from_bytes_until_nul(b)
        .map(|c| c.to_string_lossy().into_owned())
        .unwrap_or_else(|_| String::from_utf8_lossy(b).into_owned())
}

/// A little-endian unsigned integer of 1 to 8 bytes.
fn le_uint(b: &[u8]) -> u64 {
    b.iter()
        .take(8)
        .rev()
        .fold(0u64, |acc, &x| (acc << 8) | u64::from(x))
}

/// The spec's name of an error code.
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
        CL_BUILD_PROGRAM_FAILURE,
        CL_MISALIGNED_SUB_BUFFER_OFFSET,
        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
        CL_INVALID_VALUE,
        CL_INVALID_DEVICE,
        CL_INVALID_CONTEXT,
        CL_INVALID_COMMAND_QUEUE,
        CL_INVALID_MEM_OBJECT,
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
        CL_INVALID_BUFFER_SIZE,
        CL_INVALID_GLOBAL_WORK_SIZE,
        CL_KERNEL_ARG_INFO_NOT_AVAILABLE,
    );
    "an unknown code"
}
