//! Entry points of features the device does not offer: images (the 1.x and
//! 3.0 creation calls and every image command), built-in kernels, the device-fission extension, and the graphics-sharing
//! extensions (GL, EGL, D3D10/11, DX9). Each still validates its handles
//! (the object's CL_INVALID_* code for a bad one) and then answers the code
//! the specification gives for a context, queue or object that has no such
//! feature. Loader exports that ocl-icd lacks are skipped through the loader
//! (the direct table must have every one).

use cranecl_conformance::{assert_code, both_ways, call, null, Cl};
use opencl_sys::cl_d3d10::*;
use opencl_sys::cl_dx9_media_sharing::*;
use opencl_sys::*;
use std::ffi::c_void;

/// True if the table has `f`; through the loader a missing export is
/// reported and skipped, directly it is a failure.
fn has<T>(t: &Cl, f: &Option<T>, name: &str) -> bool {
    if f.is_none() {
        assert!(!t.direct, "the ICD does not export {name}");
        println!("skipped: the loader does not export {name}");
    }
    f.is_some()
}

struct Fix {
    ctx: cl_context,
    q: cl_command_queue,
    buf: cl_mem,
}

fn fix(t: &Cl) -> Fix {
    let ctx = t.context();
    Fix {
        ctx,
        q: t.queue(ctx, 0),
        buf: t.buffer(ctx, CL_MEM_READ_WRITE, 256),
    }
}

fn done(t: &Cl, f: Fix) {
    assert_code!(call!(t; clReleaseMemObject(f.buf)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseCommandQueue(f.q)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(f.ctx)), CL_SUCCESS);
}

fn flag(t: &Cl, name: cl_device_info) -> u64 {
    let mut v: u64 = 0;
    let mut size = 0usize;
    assert_code!(
        call!(t; clGetDeviceInfo(t.device(), name, 8, (&mut v as *mut u64).cast(), &mut size)),
        CL_SUCCESS
    );
    if size == 4 {
        v & 0xffff_ffff
    } else {
        v
    }
}

fn legacy_images(t: &Cl) {
    let f = fix(t);
    let fmt = cl_image_format {
        image_channel_order: CL_RGBA,
        image_channel_data_type: CL_UNORM_INT8,
    };
    let mut e = 0;
    let m = call!(t; clCreateImage2D(null(), CL_MEM_READ_WRITE, &fmt, 4, 4, 0, null(), &mut e));
    assert!(m.is_null());
    assert_code!(e, CL_INVALID_CONTEXT);
    let m = call!(t; clCreateImage3D(f.buf as cl_context, CL_MEM_READ_WRITE, &fmt, 4, 4, 4, 0, 0, null(), &mut e));
    assert!(m.is_null());
    assert_code!(e, CL_INVALID_CONTEXT, "a buffer as the context");
    let m = call!(t; clCreateImageWithProperties(null(), null(), CL_MEM_READ_WRITE, &fmt, null(), null(), &mut e));
    assert!(m.is_null());
    assert_code!(e, CL_INVALID_CONTEXT);
    if flag(t, CL_DEVICE_IMAGE_SUPPORT) == 0 {
        let m = call!(t; clCreateImage2D(f.ctx, CL_MEM_READ_WRITE, &fmt, 4, 4, 0, null(), &mut e));
        assert!(m.is_null());
        assert_code!(
            e,
            CL_INVALID_OPERATION,
            "clCreateImage2D without image support"
        );
        let m = call!(t; clCreateImage3D(f.ctx, CL_MEM_READ_WRITE, &fmt, 4, 4, 4, 0, 0, null(), &mut e));
        assert!(m.is_null());
        assert_code!(
            e,
            CL_INVALID_OPERATION,
            "clCreateImage3D without image support"
        );
        // SAFETY: cl_image_desc is plain data; all-zero is a valid value.
        let mut desc: cl_image_desc = unsafe { std::mem::zeroed() };
        desc.image_type = CL_MEM_OBJECT_IMAGE2D;
        desc.image_width = 4;
        desc.image_height = 4;
        let m = call!(t; clCreateImageWithProperties(f.ctx, null(), CL_MEM_READ_WRITE, &fmt, &desc, null(), &mut e));
        assert!(m.is_null());
        assert_code!(
            e,
            CL_INVALID_OPERATION,
            "clCreateImageWithProperties without image support"
        );
    }
    done(t, f);
}

/// Every image command with a buffer where the image goes: the image
/// argument is not an image object (checked before image support).
fn image_commands(t: &Cl) {
    let f = fix(t);
    let o = [0usize; 3];
    let r = [1usize, 1, 1];
    let mut host = [0u8; 64];
    let hp: *mut c_void = host.as_mut_ptr().cast();
    let color = [0f32; 4];
    let img = f.buf; // not an image
    assert_code!(
        call!(t; clEnqueueReadImage(null(), img, CL_TRUE, o.as_ptr(), r.as_ptr(), 0, 0, hp, 0, null(), null())),
        CL_INVALID_COMMAND_QUEUE
    );
    assert_code!(
        call!(t; clEnqueueReadImage(f.q, img, CL_TRUE, o.as_ptr(), r.as_ptr(), 0, 0, hp, 0, null(), null())),
        CL_INVALID_MEM_OBJECT,
        "read image"
    );
    assert_code!(
        call!(t; clEnqueueWriteImage(f.q, img, CL_TRUE, o.as_ptr(), r.as_ptr(), 0, 0, hp, 0, null(), null())),
        CL_INVALID_MEM_OBJECT,
        "write image"
    );
    assert_code!(
        call!(t; clEnqueueCopyImage(f.q, img, img, o.as_ptr(), o.as_ptr(), r.as_ptr(), 0, null(), null())),
        CL_INVALID_MEM_OBJECT,
        "copy image"
    );
    assert_code!(
        call!(t; clEnqueueFillImage(f.q, img, color.as_ptr().cast(), o.as_ptr(), r.as_ptr(), 0, null(), null())),
        CL_INVALID_MEM_OBJECT,
        "fill image"
    );
    assert_code!(
        call!(t; clEnqueueCopyImageToBuffer(f.q, img, f.buf, o.as_ptr(), r.as_ptr(), 0, 0, null(), null())),
        CL_INVALID_MEM_OBJECT,
        "image to buffer"
    );
    assert_code!(
        call!(t; clEnqueueCopyBufferToImage(f.q, f.buf, img, 0, o.as_ptr(), r.as_ptr(), 0, null(), null())),
        CL_INVALID_MEM_OBJECT,
        "buffer to image"
    );
    let mut e = 0;
    let (mut rp, mut sp) = (0usize, 0usize);
    let p = call!(t; clEnqueueMapImage(f.q, img, CL_TRUE, CL_MAP_READ, o.as_ptr(), r.as_ptr(), &mut rp, &mut sp, 0, null(), null(), &mut e));
    assert!(p.is_null());
    assert_code!(e, CL_INVALID_MEM_OBJECT, "map image");
    assert_code!(
        call!(t; clEnqueueCopyBufferToImage(f.ctx as _, f.buf, img, 0, o.as_ptr(), r.as_ptr(), 0, null(), null())),
        CL_INVALID_COMMAND_QUEUE
    );
    done(t, f);
}

/// The SVM commands' bad queues (the device offers SVM: `svm.rs` has the
/// rest; the refusals below hold for a device without it).
fn svm_commands(t: &Cl) {
    let f = fix(t);
    let mut a = [0u8; 16];
    let ap: *mut c_void = a.as_mut_ptr().cast();
    let mut ptrs = [ap];
    assert_code!(
        call!(t; clEnqueueSVMFree(null(), 1, ptrs.as_mut_ptr(), None, null(), 0, null(), null())),
        CL_INVALID_COMMAND_QUEUE
    );
    assert_code!(
        call!(t; clEnqueueSVMMemFill(null(), ap, ap, 1, 16, 0, null(), null())),
        CL_INVALID_COMMAND_QUEUE
    );
    assert_code!(
        call!(t; clEnqueueSVMMap(f.ctx as _, CL_TRUE, CL_MAP_READ, ap, 16, 0, null(), null())),
        CL_INVALID_COMMAND_QUEUE
    );
    assert_code!(
        call!(t; clEnqueueSVMUnmap(f.ctx as _, ap, 0, null(), null())),
        CL_INVALID_COMMAND_QUEUE
    );
    let sizes = [16usize];
    assert_code!(
        call!(t; clEnqueueSVMMigrateMem(f.ctx as _, 1, ptrs.as_mut_ptr().cast(), sizes.as_ptr(), 0, 0, null(), null())),
        CL_INVALID_COMMAND_QUEUE
    );
    if flag(t, CL_DEVICE_SVM_CAPABILITIES) == 0 {
        let why = "an SVM command on a device without SVM";
        assert_code!(
            call!(t; clEnqueueSVMFree(f.q, 1, ptrs.as_mut_ptr(), None, null(), 0, null(), null())),
            CL_INVALID_OPERATION,
            "{why}"
        );
        assert_code!(
            call!(t; clEnqueueSVMMemFill(f.q, ap, ap, 1, 16, 0, null(), null())),
            CL_INVALID_OPERATION,
            "{why}"
        );
        assert_code!(
            call!(t; clEnqueueSVMMap(f.q, CL_TRUE, CL_MAP_READ, ap, 16, 0, null(), null())),
            CL_INVALID_OPERATION,
            "{why}"
        );
        assert_code!(
            call!(t; clEnqueueSVMUnmap(f.q, ap, 0, null(), null())),
            CL_INVALID_OPERATION,
            "{why}"
        );
        assert_code!(
            call!(t; clEnqueueSVMMigrateMem(f.q, 1, ptrs.as_mut_ptr().cast(), sizes.as_ptr(), 0, 0, null(), null())),
            CL_INVALID_OPERATION,
            "{why}"
        );
        // clSVMFree of NULL does nothing (and returns nothing).
        call!(t; clSVMFree(f.ctx, null()));
    }
    done(t, f);
}

fn built_in_kernels_and_fission(t: &Cl) {
    let dev = t.device();
    let f = fix(t);
    let mut e = 0;
    if has(
        t,
        &t.f.clCreateProgramWithBuiltInKernels,
        "clCreateProgramWithBuiltInKernels",
    ) {
        let p = call!(t; clCreateProgramWithBuiltInKernels(null(), 1, &dev, c"k".as_ptr(), &mut e));
        assert!(p.is_null());
        assert_code!(e, CL_INVALID_CONTEXT);
        let p = call!(t; clCreateProgramWithBuiltInKernels(f.ctx, 0, &dev, c"k".as_ptr(), &mut e));
        assert!(p.is_null());
        assert_code!(e, CL_INVALID_VALUE, "num_devices 0");
        let p = call!(t; clCreateProgramWithBuiltInKernels(f.ctx, 1, &dev, null(), &mut e));
        assert!(p.is_null());
        assert_code!(e, CL_INVALID_VALUE, "kernel_names NULL");
        let p = call!(t; clCreateProgramWithBuiltInKernels(f.ctx, 1, &dev, c"cranecl_no_such_kernel".as_ptr(), &mut e));
        assert!(p.is_null());
        assert_code!(e, CL_INVALID_VALUE, "a built-in kernel the device lacks");
    }
    let not_dev = f.ctx as cl_device_id;
    if has(t, &t.f.clRetainDeviceEXT, "clRetainDeviceEXT") {
        assert_code!(call!(t; clRetainDeviceEXT(not_dev)), CL_INVALID_DEVICE);
        assert_code!(call!(t; clReleaseDeviceEXT(not_dev)), CL_INVALID_DEVICE);
    }
    if has(
        t,
        &t.f.clGetKernelSubGroupInfoKHR,
        "clGetKernelSubGroupInfoKHR",
    ) {
        let mut v = 0usize;
        assert_code!(
            call!(t; clGetKernelSubGroupInfoKHR(f.ctx as cl_kernel, dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, 0, null(), 8, (&mut v as *mut usize).cast(), null())),
            CL_INVALID_KERNEL
        );
    }
    if has(t, &t.f.clUnloadCompiler, "clUnloadCompiler") {
        assert_code!(call!(t; clUnloadCompiler()), CL_SUCCESS);
    }
    done(t, f);
}

fn gl_sharing(t: &Cl) {
    let f = fix(t);
    let not_ctx = f.buf as cl_context;
    let mut e = 0;
    let no_sharing = "a context not created from a GL context";
    if has(t, &t.f.clCreateFromGLBuffer, "clCreateFromGLBuffer") {
        let m = call!(t; clCreateFromGLBuffer(not_ctx, CL_MEM_READ_WRITE, 1, &mut e));
        assert!(m.is_null());
        assert_code!(e, CL_INVALID_CONTEXT, "a buffer as the context");
        let m = call!(t; clCreateFromGLBuffer(f.ctx, CL_MEM_READ_WRITE, 1, &mut e));
        assert!(m.is_null());
        assert_code!(e, CL_INVALID_CONTEXT, "{no_sharing}");
    }
    if has(t, &t.f.clCreateFromGLTexture, "clCreateFromGLTexture") {
        let m = call!(t; clCreateFromGLTexture(f.ctx, CL_MEM_READ_WRITE, 0x0DE1, 0, 1, &mut e));
        assert!(m.is_null());
        assert_code!(e, CL_INVALID_CONTEXT, "{no_sharing}");
    }
    if has(t, &t.f.clCreateFromGLTexture2D, "clCreateFromGLTexture2D") {
        let m = call!(t; clCreateFromGLTexture2D(f.ctx, CL_MEM_READ_WRITE, 0x0DE1, 0, 1, &mut e));
        assert!(m.is_null());
        assert_code!(e, CL_INVALID_CONTEXT, "{no_sharing}");
    }
    if has(t, &t.f.clCreateFromGLTexture3D, "clCreateFromGLTexture3D") {
        let m = call!(t; clCreateFromGLTexture3D(f.ctx, CL_MEM_READ_WRITE, 0x806F, 0, 1, &mut e));
        assert!(m.is_null());
        assert_code!(e, CL_INVALID_CONTEXT, "{no_sharing}");
    }
    if has(
        t,
        &t.f.clCreateFromGLRenderbuffer,
        "clCreateFromGLRenderbuffer",
    ) {
        let m = call!(t; clCreateFromGLRenderbuffer(f.ctx, CL_MEM_READ_WRITE, 1, &mut e));
        assert!(m.is_null());
        assert_code!(e, CL_INVALID_CONTEXT, "{no_sharing}");
    }
    if has(t, &t.f.clGetGLObjectInfo, "clGetGLObjectInfo") {
        let (mut ty, mut name) = (0u32, 0u32);
        assert_code!(
            call!(t; clGetGLObjectInfo(f.ctx as cl_mem, &mut ty, &mut name)),
            CL_INVALID_MEM_OBJECT
        );
        assert_code!(
            call!(t; clGetGLObjectInfo(f.buf, &mut ty, &mut name)),
            CL_INVALID_GL_OBJECT,
            "a buffer with no GL object"
        );
    }
    if has(t, &t.f.clGetGLTextureInfo, "clGetGLTextureInfo") {
        let mut v = 0u32;
        let vp = (&mut v as *mut u32).cast();
        assert_code!(
            call!(t; clGetGLTextureInfo(f.ctx as cl_mem, CL_GL_TEXTURE_TARGET, 4, vp, null())),
            CL_INVALID_MEM_OBJECT
        );
        assert_code!(
            call!(t; clGetGLTextureInfo(f.buf, CL_GL_TEXTURE_TARGET, 4, vp, null())),
            CL_INVALID_GL_OBJECT
        );
    }
    if has(
        t,
        &t.f.clEnqueueAcquireGLObjects,
        "clEnqueueAcquireGLObjects",
    ) {
        assert_code!(
            call!(t; clEnqueueAcquireGLObjects(f.ctx as _, 1, &f.buf, 0, null(), null())),
            CL_INVALID_COMMAND_QUEUE
        );
        assert_code!(
            call!(t; clEnqueueAcquireGLObjects(f.q, 1, &f.buf, 0, null(), null())),
            CL_INVALID_CONTEXT,
            "{no_sharing}"
        );
        assert_code!(
            call!(t; clEnqueueReleaseGLObjects(f.ctx as _, 1, &f.buf, 0, null(), null())),
            CL_INVALID_COMMAND_QUEUE
        );
        assert_code!(
            call!(t; clEnqueueReleaseGLObjects(f.q, 1, &f.buf, 0, null(), null())),
            CL_INVALID_CONTEXT,
            "{no_sharing}"
        );
    }
    if has(
        t,
        &t.f.clCreateEventFromGLsyncKHR,
        "clCreateEventFromGLsyncKHR",
    ) {
        let ev = call!(t; clCreateEventFromGLsyncKHR(f.ctx, null(), &mut e));
        assert!(ev.is_null());
        assert_code!(e, CL_INVALID_CONTEXT, "{no_sharing}");
    }
    if t.direct {
        // Through ocl-icd this call is resolved from the properties' platform;
        // straight to the ICD: no GL context is named, so it cannot succeed.
        let props: [cl_context_properties; 3] = [CL_CONTEXT_PLATFORM as _, t.platform() as _, 0];
        let mut d: cl_device_id = null();
        let r = call!(t; clGetGLContextInfoKHR(props.as_ptr(), CL_CURRENT_DEVICE_FOR_GL_CONTEXT_KHR, 8, (&mut d as *mut cl_device_id).cast(), null()));
        assert!(
            r < 0,
            "clGetGLContextInfoKHR without a GL context answered {r}"
        );
    }
    done(t, f);
}

fn egl_sharing(t: &Cl) {
    let f = fix(t);
    let mut e = 0;
    if has(t, &t.f.clCreateFromEGLImageKHR, "clCreateFromEGLImageKHR") {
        let m = call!(t; clCreateFromEGLImageKHR(f.buf as cl_context, null(), null(), CL_MEM_READ_WRITE, null(), &mut e));
        assert!(m.is_null());
        assert_code!(e, CL_INVALID_CONTEXT);
        let m = call!(t; clCreateFromEGLImageKHR(f.ctx, null(), null(), CL_MEM_READ_WRITE, null(), &mut e));
        assert!(m.is_null());
        assert_code!(
            e,
            CL_INVALID_CONTEXT,
            "a context not created for EGL sharing"
        );
    }
    if has(
        t,
        &t.f.clCreateEventFromEGLSyncKHR,
        "clCreateEventFromEGLSyncKHR",
    ) {
        let ev = call!(t; clCreateEventFromEGLSyncKHR(f.ctx, null(), null(), &mut e));
        assert!(ev.is_null());
        assert_code!(e, CL_INVALID_CONTEXT);
    }
    if has(
        t,
        &t.f.clEnqueueAcquireEGLObjectsKHR,
        "clEnqueueAcquireEGLObjectsKHR",
    ) {
        assert_code!(
            call!(t; clEnqueueAcquireEGLObjectsKHR(f.ctx as _, 1, &f.buf, 0, null(), null())),
            CL_INVALID_COMMAND_QUEUE
        );
        assert_code!(
            call!(t; clEnqueueAcquireEGLObjectsKHR(f.q, 1, &f.buf, 0, null(), null())),
            CL_INVALID_CONTEXT
        );
        assert_code!(
            call!(t; clEnqueueReleaseEGLObjectsKHR(f.q, 1, &f.buf, 0, null(), null())),
            CL_INVALID_CONTEXT
        );
    }
    done(t, f);
}

fn d3d_dx9_sharing(t: &Cl) {
    let p = t.platform();
    let dev = t.device();
    let f = fix(t);
    let mut n: cl_uint = 0;
    let mut e = 0;
    for (name, func) in [
        ("clGetDeviceIDsFromD3D10KHR", t.f.clGetDeviceIDsFromD3D10KHR),
        (
            "clGetDeviceIDsFromD3D11KHR",
            // The D3D11 form has the same C signature as D3D10's.
            t.f.clGetDeviceIDsFromD3D11KHR,
        ),
    ] {
        let Some(g) = func else {
            assert!(!t.direct, "the ICD does not export {name}");
            continue;
        };
        // The D3D11 constants are the D3D10 ones + 0x100x offsets; use each
        // extension's own values.
        let (src, set) = if name.contains("D3D10") {
            (CL_D3D10_DEVICE_KHR, CL_PREFERRED_DEVICES_FOR_D3D10_KHR)
        } else {
            (0x4019, 0x401B)
        };
        // SAFETY: arguments match the C signature; NULL object pointers are
        // never dereferenced by a device lookup that validates first.
        unsafe {
            assert_code!(
                g(dev as cl_platform_id, src, null(), set, 0, null(), &mut n),
                CL_INVALID_PLATFORM,
                "{name}"
            );
            assert_code!(
                g(p, 0, null(), set, 0, null(), &mut n),
                CL_INVALID_VALUE,
                "{name}: an invalid device source"
            );
            assert_code!(
                g(p, src, null(), 0, 0, null(), &mut n),
                CL_INVALID_VALUE,
                "{name}: an invalid device set"
            );
            assert_code!(
                g(p, src, null(), set, 0, null(), null()),
                CL_INVALID_VALUE,
                "{name}: devices and num_devices NULL"
            );
            assert_code!(
                g(p, src, null(), set, 0, null(), &mut n),
                CL_DEVICE_NOT_FOUND,
                "{name}: no device for the object"
            );
        }
    }
    if has(
        t,
        &t.f.clGetDeviceIDsFromDX9MediaAdapterKHR,
        "clGetDeviceIDsFromDX9MediaAdapterKHR",
    ) {
        let mut ty = [CL_ADAPTER_D3D9_KHR];
        let mut adapter: *mut c_void = null();
        let ap: *mut c_void = (&mut adapter as *mut *mut c_void).cast();
        let set = CL_PREFERRED_DEVICES_FOR_DX9_MEDIA_ADAPTER_KHR;
        assert_code!(
            call!(t; clGetDeviceIDsFromDX9MediaAdapterKHR(dev as cl_platform_id, 1, ty.as_mut_ptr(), ap, set, 0, null(), &mut n)),
            CL_INVALID_PLATFORM
        );
        assert_code!(
            call!(t; clGetDeviceIDsFromDX9MediaAdapterKHR(p, 0, ty.as_mut_ptr(), ap, set, 0, null(), &mut n)),
            CL_INVALID_VALUE,
            "num_media_adapters 0"
        );
        assert_code!(
            call!(t; clGetDeviceIDsFromDX9MediaAdapterKHR(p, 1, null(), ap, set, 0, null(), &mut n)),
            CL_INVALID_VALUE,
            "media_adapter_type NULL"
        );
    }
    if has(
        t,
        &t.f.clCreateFromD3D10BufferKHR,
        "clCreateFromD3D10BufferKHR",
    ) {
        let m = call!(t; clCreateFromD3D10BufferKHR(f.ctx, CL_MEM_READ_WRITE, null(), &mut e));
        assert!(m.is_null());
        assert_code!(e, CL_INVALID_CONTEXT);
        assert_code!(
            call!(t; clEnqueueAcquireD3D10ObjectsKHR(f.q, 1, &f.buf, 0, null(), null())),
            CL_INVALID_CONTEXT
        );
        assert_code!(
            call!(t; clEnqueueReleaseD3D10ObjectsKHR(f.ctx as _, 1, &f.buf, 0, null(), null())),
            CL_INVALID_COMMAND_QUEUE
        );
    }
    if has(
        t,
        &t.f.clCreateFromD3D11BufferKHR,
        "clCreateFromD3D11BufferKHR",
    ) {
        let m = call!(t; clCreateFromD3D11BufferKHR(f.ctx, CL_MEM_READ_WRITE, null(), &mut e));
        assert!(m.is_null());
        assert_code!(e, CL_INVALID_CONTEXT);
        let m =
            call!(t; clCreateFromD3D11Texture2DKHR(f.ctx, CL_MEM_READ_WRITE, null(), 0, &mut e));
        assert!(m.is_null());
        assert_code!(e, CL_INVALID_CONTEXT);
        assert_code!(
            call!(t; clEnqueueAcquireD3D11ObjectsKHR(f.q, 1, &f.buf, 0, null(), null())),
            CL_INVALID_CONTEXT
        );
    }
    if has(
        t,
        &t.f.clCreateFromDX9MediaSurfaceKHR,
        "clCreateFromDX9MediaSurfaceKHR",
    ) {
        let m = call!(t; clCreateFromDX9MediaSurfaceKHR(f.ctx, CL_MEM_READ_WRITE, CL_ADAPTER_D3D9_KHR, null(), 0, &mut e));
        assert!(m.is_null());
        assert_code!(e, CL_INVALID_CONTEXT);
        assert_code!(
            call!(t; clEnqueueAcquireDX9MediaSurfacesKHR(f.q, 1, &f.buf, 0, null(), null())),
            CL_INVALID_CONTEXT
        );
    }
    done(t, f);
}

/// The ICD's own entry points for the loader: `clIcdGetPlatformIDsKHR` and
/// `clGetExtensionFunctionAddress`, straight to the library.
#[test]
fn icd_entry_points() {
    let so = cranecl_conformance::cranecl_so();
    // SAFETY: loading our ICD runs no initialiser with side effects.
    let lib = unsafe { libloading::Library::new(&so) }.expect("load libcranecl.so");
    type GetIds = unsafe extern "C" fn(cl_uint, *mut cl_platform_id, *mut cl_uint) -> cl_int;
    type GetAddr = unsafe extern "C" fn(*const std::ffi::c_char) -> *mut c_void;
    // SAFETY: the symbols have these C signatures (cl_icd.h / cl.h).
    let (ids, addr) = unsafe {
        (
            *lib.get::<GetIds>(b"clIcdGetPlatformIDsKHR\0")
                .expect("exported"),
            *lib.get::<GetAddr>(b"clGetExtensionFunctionAddress\0")
                .expect("exported"),
        )
    };
    let mut n: cl_uint = 0;
    let mut p: cl_platform_id = null();
    // SAFETY: valid out-pointers or NULL, as each case needs.
    unsafe {
        assert_code!(ids(0, null(), null()), CL_INVALID_VALUE);
        assert_code!(ids(0, &mut p, &mut n), CL_INVALID_VALUE);
        assert_code!(ids(0, null(), &mut n), CL_SUCCESS);
        assert_eq!(n, 1);
        assert_code!(ids(1, &mut p, null()), CL_SUCCESS);
        assert!(!p.is_null());
        assert!(
            !addr(c"clIcdGetPlatformIDsKHR".as_ptr()).is_null(),
            "the loader finds clIcdGetPlatformIDsKHR this way"
        );
        assert!(addr(c"clNoSuchFunctionCRANECL".as_ptr()).is_null());
    }
}

both_ways!(
    legacy_images,
    image_commands,
    svm_commands,
    built_in_kernels_and_fission,
    gl_sharing,
    egl_sharing,
    d3d_dx9_sharing,
);
