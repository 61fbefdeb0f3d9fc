//! API behaviour of memory objects: `clCreateBuffer[WithProperties]`,
//! `clCreateSubBuffer`, `clRetainMemObject`/`clReleaseMemObject`,
//! `clGetMemObjectInfo`, `clSetMemObjectDestructorCallback`, and the entry
//! points of features the device does not offer (images, pipes, samplers;
//! SVM where a device lacks it), which must refuse with the spec's code
//! rather than crash.

use cranecl_conformance::{assert_code, both_ways, call, null, Cl};
use opencl_sys::*;
use std::ffi::c_void;
use std::sync::Mutex;

fn mem_info<T: Default>(t: &Cl, m: cl_mem, name: cl_mem_info) -> T {
    let mut v = T::default();
    assert_code!(
        call!(t; clGetMemObjectInfo(m, name, std::mem::size_of::<T>(), (&mut v as *mut T).cast(), null())),
        CL_SUCCESS,
        "clGetMemObjectInfo({name:#x})"
    );
    v
}

fn mem_ptr_info(t: &Cl, m: cl_mem, name: cl_mem_info) -> *mut c_void {
    let mut v: *mut c_void = null();
    assert_code!(
        call!(t; clGetMemObjectInfo(m, name, 8, (&mut v as *mut *mut c_void).cast(), null())),
        CL_SUCCESS
    );
    v
}

fn create(
    t: &Cl,
    ctx: cl_context,
    flags: cl_mem_flags,
    size: usize,
    host: *mut c_void,
) -> (cl_mem, cl_int) {
    let mut e = 0;
    let m = call!(t; clCreateBuffer(ctx, flags, size, host, &mut e));
    assert_eq!(
        m.is_null(),
        e != CL_SUCCESS,
        "a handle exactly when CL_SUCCESS (code {e})"
    );
    (m, e)
}

fn create_buffer_errors(t: &Cl) {
    let dev = t.device();
    let ctx = t.context();
    let mut host = [0u8; 64];
    let hp: *mut c_void = host.as_mut_ptr().cast();
    assert_code!(
        create(t, null(), CL_MEM_READ_WRITE, 64, null()).1,
        CL_INVALID_CONTEXT
    );
    assert_code!(
        create(t, dev as cl_context, CL_MEM_READ_WRITE, 64, null()).1,
        CL_INVALID_CONTEXT
    );
    assert_code!(
        create(t, ctx, 1 << 40, 64, null()).1,
        CL_INVALID_VALUE,
        "an unknown flag"
    );
    assert_code!(
        create(t, ctx, CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, 64, null()).1,
        CL_INVALID_VALUE
    );
    assert_code!(
        create(t, ctx, CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY, 64, null()).1,
        CL_INVALID_VALUE
    );
    assert_code!(
        create(
            t,
            ctx,
            CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS,
            64,
            null()
        )
        .1,
        CL_INVALID_VALUE
    );
    assert_code!(
        create(
            t,
            ctx,
            CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY,
            64,
            null()
        )
        .1,
        CL_INVALID_VALUE
    );
    assert_code!(
        create(t, ctx, CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR, 64, hp).1,
        CL_INVALID_VALUE
    );
    assert_code!(
        create(t, ctx, CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, 64, hp).1,
        CL_INVALID_VALUE
    );
    assert_code!(
        create(t, ctx, CL_MEM_READ_WRITE, 0, null()).1,
        CL_INVALID_BUFFER_SIZE
    );
    assert_code!(
        create(t, ctx, CL_MEM_READ_WRITE, usize::MAX, null()).1,
        CL_INVALID_BUFFER_SIZE
    );
    let mut max_alloc: cl_ulong = 0;
    assert_code!(
        call!(t; clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, 8, (&mut max_alloc as *mut u64).cast(), null())),
        CL_SUCCESS
    );
    assert_code!(
        create(t, ctx, CL_MEM_READ_WRITE, max_alloc as usize + 1, null()).1,
        CL_INVALID_BUFFER_SIZE,
        "one byte over CL_DEVICE_MAX_MEM_ALLOC_SIZE"
    );
    assert_code!(
        create(t, ctx, CL_MEM_COPY_HOST_PTR, 64, null()).1,
        CL_INVALID_HOST_PTR
    );
    assert_code!(
        create(t, ctx, CL_MEM_USE_HOST_PTR, 64, null()).1,
        CL_INVALID_HOST_PTR
    );
    assert_code!(
        create(t, ctx, CL_MEM_READ_WRITE, 64, hp).1,
        CL_INVALID_HOST_PTR
    );
    // Spec order: flags (CL_INVALID_VALUE) before size, size before host_ptr.
    assert_code!(
        create(t, ctx, 1 << 40, 0, null()).1,
        CL_INVALID_VALUE,
        "bad flags and size 0"
    );
    assert_code!(
        create(t, ctx, CL_MEM_COPY_HOST_PTR, 0, null()).1,
        CL_INVALID_BUFFER_SIZE,
        "size 0 and no host_ptr"
    );
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
}

fn create_buffer_info(t: &Cl) {
    let ctx = t.context();
    let mut host: Vec<u8> = (0..256).map(|i| i as u8).collect();
    let hp: *mut c_void = host.as_mut_ptr().cast();
    let flags = CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR | CL_MEM_HOST_READ_ONLY;
    let (m, e) = create(t, ctx, flags, 256, hp);
    assert_code!(e, CL_SUCCESS);
    assert_eq!(
        mem_info::<cl_mem_object_type>(t, m, CL_MEM_TYPE),
        CL_MEM_OBJECT_BUFFER
    );
    assert_eq!(mem_info::<cl_mem_flags>(t, m, CL_MEM_FLAGS), flags);
    assert_eq!(mem_info::<usize>(t, m, CL_MEM_SIZE), 256);
    assert_eq!(
        mem_ptr_info(t, m, CL_MEM_HOST_PTR),
        hp,
        "CL_MEM_HOST_PTR of a USE_HOST_PTR buffer"
    );
    assert_eq!(mem_info::<cl_uint>(t, m, CL_MEM_MAP_COUNT), 0);
    assert_eq!(mem_info::<cl_uint>(t, m, CL_MEM_REFERENCE_COUNT), 1);
    assert_eq!(mem_ptr_info(t, m, CL_MEM_CONTEXT), ctx.cast());
    assert!(mem_ptr_info(t, m, CL_MEM_ASSOCIATED_MEMOBJECT).is_null());
    assert_eq!(mem_info::<usize>(t, m, CL_MEM_OFFSET), 0);
    assert_eq!(mem_info::<cl_bool>(t, m, CL_MEM_USES_SVM_POINTER), CL_FALSE);
    let mut size = 99usize;
    assert_code!(
        call!(t; clGetMemObjectInfo(m, CL_MEM_PROPERTIES, 0, null(), &mut size)),
        CL_SUCCESS
    );
    assert_eq!(
        size, 0,
        "CL_MEM_PROPERTIES of a clCreateBuffer buffer is empty"
    );
    assert_code!(call!(t; clReleaseMemObject(m)), CL_SUCCESS);

    // COPY_HOST_PTR copies at creation: a later host change is not seen.
    let (m, e) = create(t, ctx, CL_MEM_COPY_HOST_PTR, 256, hp);
    assert_code!(e, CL_SUCCESS);
    assert!(
        mem_ptr_info(t, m, CL_MEM_HOST_PTR).is_null(),
        "CL_MEM_HOST_PTR without USE_HOST_PTR is NULL"
    );
    host.iter_mut().for_each(|b| *b = 0);
    let q = t.queue(ctx, 0);
    let mut out = vec![0u8; 256];
    assert_code!(
        call!(t; clEnqueueReadBuffer(q, m, CL_TRUE, 0, 256, out.as_mut_ptr().cast(), 0, null(), null())),
        CL_SUCCESS
    );
    assert_eq!(
        out,
        (0..256).map(|i| i as u8).collect::<Vec<_>>(),
        "COPY_HOST_PTR contents"
    );
    assert_code!(call!(t; clReleaseMemObject(m)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
}

fn create_buffer_with_properties(t: &Cl) {
    let ctx = t.context();
    let mut e = 0;
    let unknown: [cl_mem_properties; 3] = [0x7777, 0, 0];
    let m = call!(t; clCreateBufferWithProperties(ctx, unknown.as_ptr(), CL_MEM_READ_WRITE, 64, null(), &mut e));
    assert!(m.is_null());
    assert_code!(e, CL_INVALID_PROPERTY);
    let m = call!(t; clCreateBufferWithProperties(null(), null(), CL_MEM_READ_WRITE, 64, null(), &mut e));
    assert!(m.is_null());
    assert_code!(e, CL_INVALID_CONTEXT);
    let m =
        call!(t; clCreateBufferWithProperties(ctx, null(), CL_MEM_READ_WRITE, 0, null(), &mut e));
    assert!(m.is_null());
    assert_code!(e, CL_INVALID_BUFFER_SIZE);
    // An empty list is echoed as one 0.
    let empty: [cl_mem_properties; 1] = [0];
    let m = call!(t; clCreateBufferWithProperties(ctx, empty.as_ptr(), CL_MEM_READ_WRITE, 64, null(), &mut e));
    assert_code!(e, CL_SUCCESS);
    let mut size = 0usize;
    assert_code!(
        call!(t; clGetMemObjectInfo(m, CL_MEM_PROPERTIES, 0, null(), &mut size)),
        CL_SUCCESS
    );
    assert_eq!(size, 8, "CL_MEM_PROPERTIES echoes the (empty) list");
    assert_code!(call!(t; clReleaseMemObject(m)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
}

fn sub(
    t: &Cl,
    parent: cl_mem,
    flags: cl_mem_flags,
    origin: usize,
    size: usize,
) -> (cl_mem, cl_int) {
    let region = cl_buffer_region { origin, size };
    let mut e = 0;
    let m = call!(t; clCreateSubBuffer(parent, flags, CL_BUFFER_CREATE_TYPE_REGION, (&region as *const cl_buffer_region).cast(), &mut e));
    assert_eq!(
        m.is_null(),
        e != CL_SUCCESS,
        "a handle exactly when CL_SUCCESS (code {e})"
    );
    (m, e)
}

fn create_sub_buffer(t: &Cl) {
    let dev = t.device();
    let ctx = t.context();
    let mut align_bits: cl_uint = 0;
    assert_code!(
        call!(t; clGetDeviceInfo(dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN, 4, (&mut align_bits as *mut u32).cast(), null())),
        CL_SUCCESS
    );
    let align = (align_bits / 8) as usize;
    assert!(align >= 1);
    let size = align * 16;
    let parent = t.buffer(ctx, CL_MEM_READ_WRITE, size);
    assert_code!(
        sub(t, ctx as cl_mem, 0, 0, align).1,
        CL_INVALID_MEM_OBJECT,
        "a context as the buffer"
    );
    assert_code!(
        sub(t, null(), 0, 0, align).1,
        CL_INVALID_MEM_OBJECT,
        "NULL buffer"
    );
    let mut e = 0;
    let region = cl_buffer_region {
        origin: 0,
        size: align,
    };
    let m = call!(t; clCreateSubBuffer(parent, 0, 0x7777, (&region as *const cl_buffer_region).cast(), &mut e));
    assert!(m.is_null());
    assert_code!(e, CL_INVALID_VALUE, "an unknown buffer_create_type");
    let m = call!(t; clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, null(), &mut e));
    assert!(m.is_null());
    assert_code!(e, CL_INVALID_VALUE, "buffer_create_info NULL");
    assert_code!(
        sub(t, parent, 0, 0, size + 1).1,
        CL_INVALID_VALUE,
        "region past the end"
    );
    assert_code!(
        sub(t, parent, 0, size, align).1,
        CL_INVALID_VALUE,
        "origin at the end"
    );
    assert_code!(
        sub(t, parent, 0, align, usize::MAX - align + 1).1,
        CL_INVALID_VALUE,
        "origin + size overflows"
    );
    assert_code!(
        sub(t, parent, 0, usize::MAX - align + 1, align).1,
        CL_INVALID_VALUE,
        "origin near usize::MAX"
    );
    assert_code!(sub(t, parent, 0, 0, 0).1, CL_INVALID_BUFFER_SIZE, "size 0");
    if align > 1 {
        assert_code!(
            sub(t, parent, 0, 1, align).1,
            CL_MISALIGNED_SUB_BUFFER_OFFSET
        );
    }
    assert_code!(
        sub(t, parent, CL_MEM_USE_HOST_PTR, 0, align).1,
        CL_INVALID_VALUE,
        "USE_HOST_PTR on a sub-buffer"
    );
    assert_code!(
        sub(t, parent, CL_MEM_COPY_HOST_PTR, 0, align).1,
        CL_INVALID_VALUE
    );
    assert_code!(
        sub(t, parent, CL_MEM_ALLOC_HOST_PTR, 0, align).1,
        CL_INVALID_VALUE
    );

    let wo = t.buffer(ctx, CL_MEM_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS, size);
    assert_code!(
        sub(t, wo, CL_MEM_READ_WRITE, 0, align).1,
        CL_INVALID_VALUE,
        "READ_WRITE under WRITE_ONLY"
    );
    assert_code!(
        sub(t, wo, CL_MEM_READ_ONLY, 0, align).1,
        CL_INVALID_VALUE,
        "READ_ONLY under WRITE_ONLY"
    );
    assert_code!(
        sub(t, wo, CL_MEM_HOST_READ_ONLY, 0, align).1,
        CL_INVALID_VALUE,
        "HOST_READ_ONLY under HOST_NO_ACCESS"
    );
    let (s, e) = sub(t, wo, 0, align, align);
    assert_code!(e, CL_SUCCESS);
    let inherited = mem_info::<cl_mem_flags>(t, s, CL_MEM_FLAGS);
    assert_eq!(
        inherited & (CL_MEM_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS),
        CL_MEM_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS,
        "a sub-buffer with flags 0 inherits the access flags: {inherited:#x}"
    );
    assert_code!(call!(t; clReleaseMemObject(s)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseMemObject(wo)), CL_SUCCESS);

    // Valid: info, and a sub-buffer of a sub-buffer is refused.
    let (s, e) = sub(t, parent, CL_MEM_READ_ONLY, 2 * align, 3 * align);
    assert_code!(e, CL_SUCCESS);
    assert_eq!(
        mem_ptr_info(t, s, CL_MEM_ASSOCIATED_MEMOBJECT),
        parent.cast()
    );
    assert_eq!(mem_info::<usize>(t, s, CL_MEM_OFFSET), 2 * align);
    assert_eq!(mem_info::<usize>(t, s, CL_MEM_SIZE), 3 * align);
    assert_eq!(
        mem_info::<cl_mem_object_type>(t, s, CL_MEM_TYPE),
        CL_MEM_OBJECT_BUFFER
    );
    assert_code!(
        sub(t, s, 0, 0, align).1,
        CL_INVALID_MEM_OBJECT,
        "a sub-buffer of a sub-buffer"
    );
    // The sub-buffer sees the parent's bytes.
    let q = t.queue(ctx, 0);
    let data: Vec<u8> = (0..size).map(|i| (i * 5) as u8).collect();
    assert_code!(
        call!(t; clEnqueueWriteBuffer(q, parent, CL_TRUE, 0, size, data.as_ptr().cast(), 0, null(), null())),
        CL_SUCCESS
    );
    let mut out = vec![0u8; 3 * align];
    assert_code!(
        call!(t; clEnqueueReadBuffer(q, s, CL_TRUE, 0, 3 * align, out.as_mut_ptr().cast(), 0, null(), null())),
        CL_SUCCESS
    );
    assert_eq!(out, data[2 * align..5 * align]);
    assert_code!(call!(t; clReleaseMemObject(s)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseMemObject(parent)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
}

fn mem_handles_and_info(t: &Cl) {
    let ctx = t.context();
    let not_mem = ctx as cl_mem;
    assert_code!(call!(t; clRetainMemObject(null())), CL_INVALID_MEM_OBJECT);
    assert_code!(call!(t; clReleaseMemObject(null())), CL_INVALID_MEM_OBJECT);
    assert_code!(call!(t; clRetainMemObject(not_mem)), CL_INVALID_MEM_OBJECT);
    assert_code!(call!(t; clReleaseMemObject(not_mem)), CL_INVALID_MEM_OBJECT);
    let mut v: usize = 0;
    let vp = (&mut v as *mut usize).cast();
    assert_code!(
        call!(t; clGetMemObjectInfo(not_mem, CL_MEM_SIZE, 8, vp, null())),
        CL_INVALID_MEM_OBJECT
    );
    let m = t.buffer(ctx, CL_MEM_READ_WRITE, 64);
    assert_code!(
        call!(t; clGetMemObjectInfo(m, 0x7fff_ffff, 8, vp, null())),
        CL_INVALID_VALUE
    );
    assert_code!(
        call!(t; clGetMemObjectInfo(m, CL_MEM_SIZE, 4, vp, null())),
        CL_INVALID_VALUE,
        "a size_t into 4 bytes"
    );
    assert_code!(call!(t; clRetainMemObject(m)), CL_SUCCESS);
    assert_eq!(mem_info::<cl_uint>(t, m, CL_MEM_REFERENCE_COUNT), 2);
    assert_code!(call!(t; clReleaseMemObject(m)), CL_SUCCESS);
    assert_eq!(mem_info::<cl_uint>(t, m, CL_MEM_REFERENCE_COUNT), 1);
    assert_code!(call!(t; clReleaseMemObject(m)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
}

static MEM_DESTRUCTORS: Mutex<Vec<usize>> = Mutex::new(Vec::new());

unsafe extern "C" fn mem_destructor(_: cl_mem, user_data: *mut c_void) {
    MEM_DESTRUCTORS
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .push(user_data as usize);
}

fn mem_destructor_callback(t: &Cl) {
    let ctx = t.context();
    assert_code!(
        call!(t; clSetMemObjectDestructorCallback(ctx as cl_mem, Some(mem_destructor), null())),
        CL_INVALID_MEM_OBJECT
    );
    let m = t.buffer(ctx, CL_MEM_READ_WRITE, 64);
    assert_code!(
        call!(t; clSetMemObjectDestructorCallback(m, None, null())),
        CL_INVALID_VALUE
    );
    let base = if t.direct { 10 } else { 20 };
    for i in 0..3 {
        assert_code!(
            call!(t; clSetMemObjectDestructorCallback(m, Some(mem_destructor), (base + i) as *mut c_void)),
            CL_SUCCESS
        );
    }
    assert_code!(call!(t; clReleaseMemObject(m)), CL_SUCCESS);
    // The callbacks run when the object goes (no command uses it): allow a
    // moment for an implementation that defers them to a thread.
    let mut seen = Vec::new();
    for _ in 0..200 {
        seen = MEM_DESTRUCTORS
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .iter()
            .copied()
            .filter(|v| (base..base + 3).contains(v))
            .collect();
        if seen.len() == 3 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert_eq!(
        seen,
        vec![base + 2, base + 1, base],
        "destructor callbacks, last registered first"
    );
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
}

fn image_support(t: &Cl) -> bool {
    let mut v: cl_bool = 0;
    assert_code!(
        call!(t; clGetDeviceInfo(t.device(), CL_DEVICE_IMAGE_SUPPORT, 4, (&mut v as *mut u32).cast(), null())),
        CL_SUCCESS
    );
    v == CL_TRUE
}

fn images_samplers_unsupported(t: &Cl) {
    let ctx = t.context();
    let buf = t.buffer(ctx, CL_MEM_READ_WRITE, 64);
    let fmt = cl_image_format {
        image_channel_order: CL_RGBA,
        image_channel_data_type: CL_UNORM_INT8,
    };
    // SAFETY: cl_image_desc is plain data; all-zero is a valid value.
    let mut desc: cl_image_desc = unsafe { std::mem::zeroed() };
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = 4;
    desc.image_height = 4;
    let mut e = 0;
    let m = call!(t; clCreateImage(null(), CL_MEM_READ_WRITE, &fmt, &desc, null(), &mut e));
    assert!(m.is_null());
    assert_code!(e, CL_INVALID_CONTEXT);
    let mut n: cl_uint = 0;
    let mut formats = [fmt; 4];
    assert_code!(
        call!(t; clGetSupportedImageFormats(ctx as cl_context, CL_MEM_READ_WRITE, 0x7777, 4, formats.as_mut_ptr(), &mut n)),
        CL_INVALID_VALUE,
        "an unknown image type"
    );
    assert_code!(
        call!(t; clGetSupportedImageFormats(ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, formats.as_mut_ptr(), &mut n)),
        CL_INVALID_VALUE,
        "num_entries 0 with a list"
    );
    assert_code!(
        call!(t; clGetSupportedImageFormats(buf as cl_context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, null(), &mut n)),
        CL_INVALID_CONTEXT
    );
    let mut v: usize = 0;
    assert_code!(
        call!(t; clGetImageInfo(buf, CL_IMAGE_WIDTH, 8, (&mut v as *mut usize).cast(), null())),
        CL_INVALID_MEM_OBJECT,
        "a buffer is not an image"
    );
    let mut sv: cl_uint = 0;
    let svp = (&mut sv as *mut u32).cast();
    assert_code!(
        call!(t; clRetainSampler(buf as cl_sampler)),
        CL_INVALID_SAMPLER
    );
    assert_code!(
        call!(t; clReleaseSampler(buf as cl_sampler)),
        CL_INVALID_SAMPLER
    );
    assert_code!(
        call!(t; clGetSamplerInfo(buf as cl_sampler, CL_SAMPLER_REFERENCE_COUNT, 4, svp, null())),
        CL_INVALID_SAMPLER
    );
    let s = call!(t; clCreateSamplerWithProperties(null(), null(), &mut e));
    assert!(s.is_null());
    assert_code!(e, CL_INVALID_CONTEXT);
    let mut pv = 0u32;
    assert_code!(
        call!(t; clGetPipeInfo(buf, CL_PIPE_PACKET_SIZE, 4, (&mut pv as *mut u32).cast(), null())),
        CL_INVALID_MEM_OBJECT,
        "a buffer is not a pipe"
    );
    let p = call!(t; clCreatePipe(null(), CL_MEM_READ_WRITE, 4, 16, null(), &mut e));
    assert!(p.is_null());
    assert_code!(e, CL_INVALID_CONTEXT);
    if !image_support(t) {
        let m = call!(t; clCreateImage(ctx, CL_MEM_READ_WRITE, &fmt, &desc, null(), &mut e));
        assert!(m.is_null());
        assert_code!(
            e,
            CL_INVALID_OPERATION,
            "clCreateImage without image support"
        );
        let s =
            call!(t; clCreateSampler(ctx, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &mut e));
        assert!(s.is_null());
        assert_code!(
            e,
            CL_INVALID_OPERATION,
            "clCreateSampler without image support"
        );
        let s = call!(t; clCreateSamplerWithProperties(ctx, null(), &mut e));
        assert!(s.is_null());
        assert_code!(
            e,
            CL_INVALID_OPERATION,
            "clCreateSamplerWithProperties without image support"
        );
        n = 99;
        assert_code!(
            call!(t; clGetSupportedImageFormats(ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, null(), &mut n)),
            CL_SUCCESS
        );
        assert_eq!(n, 0, "no image formats without image support");
    }
    let mut pipes: cl_bool = 0;
    assert_code!(
        call!(t; clGetDeviceInfo(t.device(), CL_DEVICE_PIPE_SUPPORT, 4, (&mut pipes as *mut u32).cast(), null())),
        CL_SUCCESS
    );
    if pipes == CL_FALSE {
        let p = call!(t; clCreatePipe(ctx, CL_MEM_READ_WRITE, 4, 16, null(), &mut e));
        assert!(p.is_null());
        assert_code!(e, CL_INVALID_OPERATION, "clCreatePipe without pipe support");
    }
    let mut svm: cl_device_svm_capabilities = 0;
    assert_code!(
        call!(t; clGetDeviceInfo(t.device(), CL_DEVICE_SVM_CAPABILITIES, 8, (&mut svm as *mut u64).cast(), null())),
        CL_SUCCESS
    );
    if svm == 0 {
        let p = call!(t; clSVMAlloc(ctx, CL_MEM_READ_WRITE, 64, 0));
        assert!(p.is_null(), "clSVMAlloc without SVM support");
        let q = t.queue(ctx, 0);
        let (mut a, mut b) = (0u64, 0u64);
        assert_code!(
            call!(t; clEnqueueSVMMemcpy(q, CL_TRUE, (&mut a as *mut u64).cast(), (&mut b as *mut u64).cast(), 8, 0, null(), null())),
            CL_INVALID_OPERATION,
            "clEnqueueSVMMemcpy without SVM support"
        );
        assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
    }
    let p = call!(t; clSVMAlloc(null(), CL_MEM_READ_WRITE, 64, 0));
    assert!(p.is_null(), "clSVMAlloc with a NULL context");
    assert_code!(call!(t; clReleaseMemObject(buf)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
}

both_ways!(
    create_buffer_errors,
    create_buffer_info,
    create_buffer_with_properties,
    create_sub_buffer,
    mem_handles_and_info,
    mem_destructor_callback,
    images_samplers_unsupported,
);
