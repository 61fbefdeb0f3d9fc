//! One platform's benchmark rig: a context and an in-order queue on the
//! platform's first device, reached through the loader's raw function table,
//! with thin owners for programs, kernels and buffers (and images) that release their
//! handle on drop. Every failure is an `Err(String)` naming the call and the
//! code (and, for a failed build, the build log), so one platform's failure is
//! recorded in the table and the benchmark goes on.

use cranecl_conformance::{call, code_name, info_string, null, Cl};
use opencl_sys::*;
use std::ffi::{c_void, CString};
use std::time::{Duration, Instant};

/// `Err` naming the call and the code unless `code` is `CL_SUCCESS`.
pub fn check(code: cl_int, what: &str) -> Result<(), String> {
    if code == CL_SUCCESS {
        Ok(())
    } else {
        Err(format!("{what}: {code} ({})", code_name(code)))
    }
}

/// A platform's context and queue.
pub struct Rig {
    pub t: &'static Cl,
    /// Short name for the table ("cranecl", "pocl").
    pub label: &'static str,
    pub dev: cl_device_id,
    ctx: cl_context,
    q: cl_command_queue,
}

impl Rig {
    /// The rig of the first platform whose name contains `platform_name`;
    /// `None` if the loader lists no such platform.
    pub fn new(
        t: &'static Cl,
        platform_name: &str,
        label: &'static str,
    ) -> Option<Result<Rig, String>> {
        let p = t.platform_named(platform_name)?;
        Some((|| {
            let mut dev: cl_device_id = null();
            check(
                call!(t; clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &mut dev, null())),
                "clGetDeviceIDs",
            )?;
            let props: [cl_context_properties; 3] = [CL_CONTEXT_PLATFORM as _, p as _, 0];
            let mut e = 0;
            let ctx = call!(t; clCreateContext(props.as_ptr(), 1, &dev, None, null(), &mut e));
            check(e, "clCreateContext")?;
            let q = call!(t; clCreateCommandQueueWithProperties(ctx, dev, null(), &mut e));
            if let Err(m) = check(e, "clCreateCommandQueueWithProperties") {
                call!(t; clReleaseContext(ctx));
                return Err(m);
            }
            Ok(Rig {
                t,
                label,
                dev,
                ctx,
                q,
            })
        })())
    }

    /// Creates a program from `src` and builds it with `opts`; the time is
    /// the wall time of `clBuildProgram` alone. A failed build answers the
    /// code and the build log.
    pub fn build(&self, src: &str, opts: &str) -> Result<(Program<'_>, Duration), String> {
        let t = self.t;
        let csrc = CString::new(src).map_err(|_| "source holds a NUL".to_string())?;
        let mut ptr = csrc.as_ptr();
        let len = src.len();
        let mut e = 0;
        let p = call!(t; clCreateProgramWithSource(self.ctx, 1, &mut ptr, &len, &mut e));
        check(e, "clCreateProgramWithSource")?;
        let prog = Program { rig: self, p };
        let copts = CString::new(opts).map_err(|_| "options hold a NUL".to_string())?;
        let start = Instant::now();
        let r = call!(t; clBuildProgram(p, 1, &self.dev, copts.as_ptr(), None, null()));
        let took = start.elapsed();
        if r != CL_SUCCESS {
            let log = info_string(|s, v, rr| {
                call!(t; clGetProgramBuildInfo(p, self.dev, CL_PROGRAM_BUILD_LOG, s, v, rr))
            })
            .unwrap_or_else(|c| format!("(no build log: {})", code_name(c)));
            return Err(format!(
                "clBuildProgram: {r} ({}); build log:\n{}",
                code_name(r),
                log.trim_end()
            ));
        }
        Ok((prog, took))
    }

    /// A buffer of `bytes` bytes (read-write, contents undefined).
    pub fn buffer(&self, bytes: usize) -> Result<Mem<'_>, String> {
        let t = self.t;
        let mut e = 0;
        let m = call!(t; clCreateBuffer(self.ctx, CL_MEM_READ_WRITE, bytes, null(), &mut e));
        check(e, &format!("clCreateBuffer({bytes})"))?;
        Ok(Mem {
            rig: self,
            m,
            bytes,
        })
    }

    /// A buffer holding a copy of `data` (written with a blocking write).
    pub fn upload<T: Copy>(&self, data: &[T]) -> Result<Mem<'_>, String> {
        let bytes = std::mem::size_of_val(data);
        let m = self.buffer(bytes.max(1))?;
        self.write(&m, data)?;
        Ok(m)
    }

    /// Blocking write of `data` to the start of `m`.
    pub fn write<T: Copy>(&self, m: &Mem, data: &[T]) -> Result<(), String> {
        let t = self.t;
        let bytes = std::mem::size_of_val(data);
        check(
            call!(t; clEnqueueWriteBuffer(self.q, m.m, CL_TRUE, 0, bytes, data.as_ptr().cast(), 0, null(), null())),
            "clEnqueueWriteBuffer",
        )
    }

    /// Blocking read of the first `n` elements of `m`.
    pub fn read<T: Copy + Default>(&self, m: &Mem, n: usize) -> Result<Vec<T>, String> {
        let t = self.t;
        let mut out = vec![T::default(); n];
        let bytes = std::mem::size_of_val(out.as_slice());
        check(
            call!(t; clEnqueueReadBuffer(self.q, m.m, CL_TRUE, 0, bytes, out.as_mut_ptr().cast(), 0, null(), null())),
            "clEnqueueReadBuffer",
        )?;
        Ok(out)
    }

    /// A read-write 2D image of `w` x `h` CL_RGBA pixels of `data_type`,
    /// holding a copy of `data` (tightly packed rows) when given.
    pub fn image2d(
        &self,
        data_type: cl_channel_type,
        w: usize,
        h: usize,
        data: Option<&[u8]>,
    ) -> Result<Mem<'_>, String> {
        let t = self.t;
        let f = cl_image_format {
            image_channel_order: CL_RGBA,
            image_channel_data_type: data_type,
        };
        // SAFETY: cl_image_desc is plain data; all-zero is a valid value.
        let mut d: cl_image_desc = unsafe { std::mem::zeroed() };
        d.image_type = CL_MEM_OBJECT_IMAGE2D;
        d.image_width = w;
        d.image_height = h;
        let (flags, host) = match data {
            Some(b) => (
                CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                b.as_ptr() as *mut c_void,
            ),
            None => (CL_MEM_READ_WRITE, null()),
        };
        let mut e = 0;
        let m = call!(t; clCreateImage(self.ctx, flags, &f, &d, host, &mut e));
        check(e, &format!("clCreateImage({w}x{h}, type {data_type:#x})"))?;
        Ok(Mem {
            rig: self,
            m,
            bytes: 0,
        })
    }

    /// Blocking read of a whole `w` x `h` image of `channels` floats per pixel.
    pub fn read_image(
        &self,
        m: &Mem,
        w: usize,
        h: usize,
        channels: usize,
    ) -> Result<Vec<f32>, String> {
        let t = self.t;
        let mut out = vec![0f32; w * h * channels];
        let (origin, region) = ([0usize; 3], [w, h, 1]);
        check(
            call!(t; clEnqueueReadImage(self.q, m.m, CL_TRUE, origin.as_ptr(), region.as_ptr(), 0, 0, out.as_mut_ptr().cast(), 0, null(), null())),
            "clEnqueueReadImage",
        )?;
        Ok(out)
    }

    /// Enqueues a fill of the whole of `m` with zero bytes (not waited on).
    pub fn zero(&self, m: &Mem) -> Result<(), String> {
        let t = self.t;
        let pat = 0u32;
        check(
            call!(t; clEnqueueFillBuffer(self.q, m.m, (&pat as *const u32).cast(), 4, 0, m.bytes, 0, null(), null())),
            "clEnqueueFillBuffer",
        )
    }

    /// Enqueues `k` over `global` with `local` (or the implementation's
    /// choice), not waited on.
    pub fn launch(
        &self,
        k: &Kernel,
        global: &[usize],
        local: Option<&[usize]>,
    ) -> Result<(), String> {
        let t = self.t;
        let lp = local.map_or(std::ptr::null(), |l| l.as_ptr());
        let code = call!(t; clEnqueueNDRangeKernel(self.q, k.k, global.len() as cl_uint, null(), global.as_ptr(), lp, 0, null(), null()));
        if code == CL_SUCCESS {
            // The message only for a failure: formatting it for every
            // launch cost about 0.1 us of the per-launch figures.
            return Ok(());
        }
        check(
            code,
            &format!(
                "clEnqueueNDRangeKernel({}, global {global:?}, local {local:?})",
                k.name
            ),
        )
    }

    /// Waits for everything enqueued (`clFinish`).
    pub fn finish(&self) -> Result<(), String> {
        let t = self.t;
        check(call!(t; clFinish(self.q)), "clFinish")
    }
}

impl Drop for Rig {
    fn drop(&mut self) {
        let t = self.t;
        call!(t; clFinish(self.q));
        call!(t; clReleaseCommandQueue(self.q));
        call!(t; clReleaseContext(self.ctx));
    }
}

/// A built program.
pub struct Program<'r> {
    rig: &'r Rig,
    p: cl_program,
}

impl<'r> Program<'r> {
    /// The kernel named `name`.
    pub fn kernel(&self, name: &str) -> Result<Kernel<'r>, String> {
        let t = self.rig.t;
        let cname = CString::new(name).map_err(|_| "kernel name holds a NUL".to_string())?;
        let mut e = 0;
        let k = call!(t; clCreateKernel(self.p, cname.as_ptr(), &mut e));
        check(e, &format!("clCreateKernel({name})"))?;
        Ok(Kernel {
            rig: self.rig,
            k,
            name: name.to_string(),
        })
    }
}

impl Drop for Program<'_> {
    fn drop(&mut self) {
        let t = self.rig.t;
        call!(t; clReleaseProgram(self.p));
    }
}

/// A kernel object.
pub struct Kernel<'r> {
    rig: &'r Rig,
    k: cl_kernel,
    name: String,
}

impl Kernel<'_> {
    fn set(&self, i: u32, size: usize, value: *const c_void) -> Result<(), String> {
        let t = self.rig.t;
        let code = call!(t; clSetKernelArg(self.k, i, size, value));
        if code == CL_SUCCESS {
            return Ok(());
        }
        check(
            code,
            &format!("clSetKernelArg({}, {i}, size {size})", self.name),
        )
    }

    /// Sets argument `i` to the buffer `m`.
    pub fn mem(&self, i: u32, m: &Mem) -> Result<(), String> {
        self.set(
            i,
            std::mem::size_of::<cl_mem>(),
            (&m.m as *const cl_mem).cast(),
        )
    }

    /// Sets argument `i` to the plain value `v` (a scalar of the parameter's type).
    pub fn val<T: Copy>(&self, i: u32, v: T) -> Result<(), String> {
        self.set(i, std::mem::size_of::<T>(), (&v as *const T).cast())
    }

    /// Sets the `local` pointer argument `i` to a fresh region of `bytes`.
    pub fn local(&self, i: u32, bytes: usize) -> Result<(), String> {
        self.set(i, bytes, std::ptr::null())
    }
}

impl Drop for Kernel<'_> {
    fn drop(&mut self) {
        let t = self.rig.t;
        call!(t; clReleaseKernel(self.k));
    }
}

/// A buffer.
pub struct Mem<'r> {
    rig: &'r Rig,
    m: cl_mem,
    pub bytes: usize,
}

impl Drop for Mem<'_> {
    fn drop(&mut self) {
        let t = self.rig.t;
        call!(t; clReleaseMemObject(self.m));
    }
}
