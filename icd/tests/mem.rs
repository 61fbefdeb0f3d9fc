//! Memory objects through the `extern "C"` entry points: creation errors for
//! every flag combination and in the spec's order, host-pointer flags,
//! sub-buffers, info, destructor callbacks and when they run, and the
//! unsupported image, pipe, sampler and native-kernel entry points.
//! The buffer commands are tested in `mem_commands.rs`.

mod common;
mod mem_util;

use common::*;
use mem_util::*;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

const ACCESS: [cl_mem_flags; 3] = [CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY, CL_MEM_READ_ONLY];
const HOST_ACCESS: [cl_mem_flags; 3] = [
    CL_MEM_HOST_WRITE_ONLY,
    CL_MEM_HOST_READ_ONLY,
    CL_MEM_HOST_NO_ACCESS,
];
const ALL_FLAGS: [cl_mem_flags; 9] = [
    CL_MEM_READ_WRITE,
    CL_MEM_WRITE_ONLY,
    CL_MEM_READ_ONLY,
    CL_MEM_USE_HOST_PTR,
    CL_MEM_ALLOC_HOST_PTR,
    CL_MEM_COPY_HOST_PTR,
    CL_MEM_HOST_WRITE_ONLY,
    CL_MEM_HOST_READ_ONLY,
    CL_MEM_HOST_NO_ACCESS,
];

/// The memory-flags table of the spec, written out as its sentences.
fn flags_valid(f: cl_mem_flags) -> bool {
    let count = |set: &[cl_mem_flags]| set.iter().filter(|&&b| f & b != 0).count();
    count(&ACCESS) <= 1
        && !(f & CL_MEM_USE_HOST_PTR != 0 && f & CL_MEM_ALLOC_HOST_PTR != 0)
        && !(f & CL_MEM_USE_HOST_PTR != 0 && f & CL_MEM_COPY_HOST_PTR != 0)
        && count(&HOST_ACCESS) <= 1
}

#[test]
fn every_flag_combination_gives_the_specs_code() {
    let env = Env::new();
    let mut host = vec![7u8; 64];
    let mut seen = [0usize; 3];
    for combo in 0u32..(1 << ALL_FLAGS.len()) {
        let flags = ALL_FLAGS
            .iter()
            .enumerate()
            .filter(|(i, _)| combo & (1 << i) != 0)
            .fold(0, |acc, (_, &b)| acc | b);
        for with_ptr in [false, true] {
            let p = if with_ptr {
                host.as_mut_ptr() as *mut c_void
            } else {
                ptr::null_mut()
            };
            let wants_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR) != 0;
            let expected = if !flags_valid(flags) {
                CL_INVALID_VALUE
            } else if wants_ptr != with_ptr {
                CL_INVALID_HOST_PTR
            } else {
                CL_SUCCESS
            };
            let (m, rc) = create(env.ctx, flags, 64, p);
            assert_eq!(rc, expected, "flags {flags:#x} host_ptr {with_ptr}");
            seen[match expected {
                CL_SUCCESS => 0,
                CL_INVALID_VALUE => 1,
                _ => 2,
            }] += 1;
            if rc == CL_SUCCESS {
                assert_eq!(info::<cl_mem_flags>(m, CL_MEM_FLAGS), flags);
                let hp = info::<*mut c_void>(m, CL_MEM_HOST_PTR);
                let uses = flags & CL_MEM_USE_HOST_PTR != 0;
                assert_eq!(hp, if uses { p } else { ptr::null_mut() });
                release(m);
            }
        }
    }
    assert!(seen.iter().all(|&n| n > 0), "each outcome occurs: {seen:?}");
    // Bits outside the table.
    for bad in [1 << 20, 1 << 63] {
        assert_eq!(
            create(env.ctx, bad, 64, ptr::null_mut()).1,
            CL_INVALID_VALUE
        );
    }
    // KERNEL_READ_AND_WRITE is in the table: accepted beside every access
    // and host-access flag, and kept in CL_MEM_FLAGS.
    for other in ACCESS.iter().chain(&HOST_ACCESS).chain(&[0]) {
        let flags = CL_MEM_KERNEL_READ_AND_WRITE | other;
        let (m, rc) = create(
            env.ctx,
            flags | CL_MEM_COPY_HOST_PTR,
            64,
            host.as_mut_ptr().cast(),
        );
        assert_eq!(rc, CL_SUCCESS, "flags {flags:#x}");
        assert_eq!(
            info::<cl_mem_flags>(m, CL_MEM_FLAGS),
            flags | CL_MEM_COPY_HOST_PTR
        );
        release(m);
    }
    // It does not lift the table's exclusions.
    let both = CL_MEM_KERNEL_READ_AND_WRITE | CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY;
    assert_eq!(
        create(env.ctx, both, 64, ptr::null_mut()).1,
        CL_INVALID_VALUE
    );
}

#[test]
fn creation_errors_come_in_the_specs_order() {
    let env = Env::new();
    let mut host = [0u8; 16];
    let hp = host.as_mut_ptr() as *mut c_void;
    let bad_flags = CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY;
    // CL_INVALID_CONTEXT first, whatever else is wrong.
    assert_eq!(
        create(ptr::null_mut(), bad_flags, 0, hp).1,
        CL_INVALID_CONTEXT
    );
    let not_a_context = env.q as cl_context;
    assert_eq!(
        create(not_a_context, 0, 16, ptr::null_mut()).1,
        CL_INVALID_CONTEXT
    );
    // Then the properties, before the flags.
    let props: [cl_mem_properties; 3] = [0x1234, 1, 0];
    let mut rc = 0;
    // SAFETY: a terminated properties list.
    let m =
        unsafe { clCreateBufferWithProperties(env.ctx, props.as_ptr(), bad_flags, 0, hp, &mut rc) };
    assert!(m.is_null());
    assert_eq!(rc, CL_INVALID_PROPERTY);
    // Then the flags, before the size.
    assert_eq!(create(env.ctx, bad_flags, 0, hp).1, CL_INVALID_VALUE);
    // Then the size, before the host pointer.
    assert_eq!(create(env.ctx, 0, 0, hp).1, CL_INVALID_BUFFER_SIZE);
    let max: cl_ulong = {
        let mut v: cl_ulong = 0;
        // SAFETY: a cl_ulong answer.
        let rc = unsafe {
            clGetDeviceInfo(
                device(),
                CL_DEVICE_MAX_MEM_ALLOC_SIZE,
                8,
                &mut v as *mut _ as *mut c_void,
                ptr::null_mut(),
            )
        };
        assert_eq!(rc, CL_SUCCESS);
        v
    };
    assert_eq!(
        create(env.ctx, 0, max as usize + 1, ptr::null_mut()).1,
        CL_INVALID_BUFFER_SIZE
    );
    assert_eq!(
        create(env.ctx, 0, usize::MAX, ptr::null_mut()).1,
        CL_INVALID_BUFFER_SIZE
    );
    assert_eq!(
        create(env.ctx, CL_MEM_USE_HOST_PTR, 16, ptr::null_mut()).1,
        CL_INVALID_HOST_PTR
    );
    // An empty properties list is valid and is given back by CL_MEM_PROPERTIES.
    let empty: [cl_mem_properties; 1] = [0];
    // SAFETY: a terminated (empty) list.
    let m = unsafe {
        clCreateBufferWithProperties(env.ctx, empty.as_ptr(), 0, 16, ptr::null_mut(), &mut rc)
    };
    assert_eq!(rc, CL_SUCCESS);
    let mut size = 99;
    // SAFETY: size query only.
    let rc = unsafe { clGetMemObjectInfo(m, CL_MEM_PROPERTIES, 0, ptr::null_mut(), &mut size) };
    assert_eq!((rc, size), (CL_SUCCESS, 8));
    release(m);
    let m = buffer(env.ctx, 16);
    // SAFETY: size query only.
    let rc = unsafe { clGetMemObjectInfo(m, CL_MEM_PROPERTIES, 0, ptr::null_mut(), &mut size) };
    assert_eq!(
        (rc, size),
        (CL_SUCCESS, 0),
        "no properties without the list"
    );
    release(m);
}

#[test]
fn host_pointer_flags_initialise_and_share_storage() {
    let env = Env::new();
    let data = bytes(1000, 1);
    let mut copy_src = data.clone();
    let (m, rc) = create(
        env.ctx,
        CL_MEM_COPY_HOST_PTR,
        1000,
        copy_src.as_mut_ptr() as _,
    );
    assert_eq!(rc, CL_SUCCESS);
    copy_src.fill(0); // COPY_HOST_PTR copied at creation
    assert_eq!(read_all(env.q, m, 1000), data);
    release(m);

    let (m, rc) = create(env.ctx, CL_MEM_ALLOC_HOST_PTR, 1000, ptr::null_mut());
    assert_eq!(rc, CL_SUCCESS);
    assert_eq!(read_all(env.q, m, 1000), vec![0; 1000], "zero-initialised");
    release(m);

    // USE_HOST_PTR: the buffer is the host memory itself.
    let mut host = data.clone();
    let (m, rc) = create(env.ctx, CL_MEM_USE_HOST_PTR, 1000, host.as_mut_ptr() as _);
    assert_eq!(rc, CL_SUCCESS);
    assert_eq!(write(env.q, m, 10, &[0xEE; 5]), CL_SUCCESS);
    finish(env.q);
    assert_eq!(&host[10..15], &[0xEE; 5]);
    let mut rc = 0;
    // SAFETY: blocking map of a valid region.
    let p = unsafe {
        clEnqueueMapBuffer(
            env.q,
            m,
            CL_TRUE,
            CL_MAP_READ,
            100,
            50,
            0,
            ptr::null(),
            ptr::null_mut(),
            &mut rc,
        )
    };
    assert_eq!(rc, CL_SUCCESS);
    assert_eq!(
        p as *mut u8,
        host.as_mut_ptr().wrapping_add(100),
        "derived from host_ptr"
    );
    // SAFETY: unmap of the pointer just mapped.
    let rc = unsafe { clEnqueueUnmapMemObject(env.q, m, p, 0, ptr::null(), ptr::null_mut()) };
    assert_eq!(rc, CL_SUCCESS);
    finish(env.q);
    release(m);
}

#[test]
fn buffer_info_answers() {
    let env = Env::new();
    let m = buffer(env.ctx, 4096);
    assert_eq!(
        info::<cl_mem_object_type>(m, CL_MEM_TYPE),
        CL_MEM_OBJECT_BUFFER
    );
    assert_eq!(info::<usize>(m, CL_MEM_SIZE), 4096);
    assert_eq!(info::<cl_uint>(m, CL_MEM_MAP_COUNT), 0);
    assert_eq!(info::<cl_uint>(m, CL_MEM_REFERENCE_COUNT), 1);
    assert_eq!(info::<cl_context>(m, CL_MEM_CONTEXT), env.ctx);
    assert_eq!(
        info::<cl_mem>(m, CL_MEM_ASSOCIATED_MEMOBJECT),
        ptr::null_mut()
    );
    assert_eq!(info::<usize>(m, CL_MEM_OFFSET), 0);
    assert_eq!(info::<cl_bool>(m, CL_MEM_USES_SVM_POINTER), CL_FALSE);
    // SAFETY: plain calls.
    unsafe {
        assert_eq!(clRetainMemObject(m), CL_SUCCESS);
        assert_eq!(info::<cl_uint>(m, CL_MEM_REFERENCE_COUNT), 2);
        let mut small = 0u8;
        let rc = clGetMemObjectInfo(
            m,
            CL_MEM_SIZE,
            1,
            &mut small as *mut u8 as _,
            ptr::null_mut(),
        );
        assert_eq!(rc, CL_INVALID_VALUE, "param_value_size too small");
        let rc = clGetMemObjectInfo(m, 0x7777, 0, ptr::null_mut(), ptr::null_mut());
        assert_eq!(rc, CL_INVALID_VALUE, "unknown param_name");
        let rc = clGetMemObjectInfo(
            ptr::null_mut(),
            CL_MEM_SIZE,
            0,
            ptr::null_mut(),
            ptr::null_mut(),
        );
        assert_eq!(rc, CL_INVALID_MEM_OBJECT);
    }
    release(m);
    release(m);
    // SAFETY: a released handle is rejected, not read.
    unsafe {
        assert_eq!(clReleaseMemObject(m), CL_INVALID_MEM_OBJECT);
        assert_eq!(clRetainMemObject(m), CL_INVALID_MEM_OBJECT);
        assert_eq!(clRetainMemObject(env.ctx as cl_mem), CL_INVALID_MEM_OBJECT);
    }
}

#[test]
fn sub_buffers_follow_the_alignment_bounds_and_flag_rules() {
    let env = Env::new();
    let mut host = bytes(1024, 3);
    let parent_flags = CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR | CL_MEM_HOST_WRITE_ONLY;
    let (p, rc) = create(env.ctx, parent_flags, 1024, host.as_mut_ptr() as _);
    assert_eq!(rc, CL_SUCCESS);
    // CL_DEVICE_MEM_BASE_ADDR_ALIGN is in bits.
    let mut bits: cl_uint = 0;
    // SAFETY: a cl_uint answer.
    unsafe {
        clGetDeviceInfo(
            device(),
            CL_DEVICE_MEM_BASE_ADDR_ALIGN,
            4,
            &mut bits as *mut _ as _,
            ptr::null_mut(),
        )
    };
    let align = bits as usize / 8;
    assert_eq!(sub(p, 0, align / 2, 16).1, CL_MISALIGNED_SUB_BUFFER_OFFSET);
    assert_eq!(sub(p, 0, 1, 16).1, CL_MISALIGNED_SUB_BUFFER_OFFSET);
    assert_eq!(sub(p, 0, align, 0).1, CL_INVALID_BUFFER_SIZE);
    assert_eq!(sub(p, 0, align, 1024).1, CL_INVALID_VALUE, "out of bounds");
    assert_eq!(
        sub(p, 0, usize::MAX - 3, 8).1,
        CL_INVALID_VALUE,
        "overflowing"
    );
    // Flag conflicts with the parent, and host pointer flags.
    assert_eq!(sub(p, CL_MEM_READ_WRITE, 0, 16).1, CL_INVALID_VALUE);
    assert_eq!(sub(p, CL_MEM_WRITE_ONLY, 0, 16).1, CL_INVALID_VALUE);
    assert_eq!(sub(p, CL_MEM_HOST_READ_ONLY, 0, 16).1, CL_INVALID_VALUE);
    assert_eq!(sub(p, CL_MEM_USE_HOST_PTR, 0, 16).1, CL_INVALID_VALUE);
    assert_eq!(sub(p, CL_MEM_COPY_HOST_PTR, 0, 16).1, CL_INVALID_VALUE);
    assert_eq!(sub(p, CL_MEM_ALLOC_HOST_PTR, 0, 16).1, CL_INVALID_VALUE);
    // Bad create type and NULL info.
    let mut rc = 0;
    let region = cl_buffer_region {
        origin: 0,
        size: 16,
    };
    // SAFETY: valid arguments but for the type / info under test.
    unsafe {
        clCreateSubBuffer(p, 0, 0x5555, &region as *const _ as _, &mut rc);
        assert_eq!(rc, CL_INVALID_VALUE);
        clCreateSubBuffer(p, 0, CL_BUFFER_CREATE_TYPE_REGION, ptr::null(), &mut rc);
        assert_eq!(rc, CL_INVALID_VALUE);
    }
    // A valid one inherits the parent's flags.
    let (s, rc) = sub(p, CL_MEM_HOST_NO_ACCESS, 2 * align, 100);
    assert_eq!(rc, CL_SUCCESS);
    assert_eq!(
        info::<cl_mem_flags>(s, CL_MEM_FLAGS),
        CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR | CL_MEM_HOST_NO_ACCESS
    );
    assert_eq!(info::<usize>(s, CL_MEM_SIZE), 100);
    assert_eq!(info::<usize>(s, CL_MEM_OFFSET), 2 * align);
    assert_eq!(info::<cl_mem>(s, CL_MEM_ASSOCIATED_MEMOBJECT), p);
    assert_eq!(
        info::<*mut c_void>(s, CL_MEM_HOST_PTR) as *mut u8,
        host.as_mut_ptr().wrapping_add(2 * align)
    );
    assert_eq!(info::<cl_context>(s, CL_MEM_CONTEXT), env.ctx);
    // A sub-buffer of a sub-buffer is refused.
    assert_eq!(sub(s, 0, 0, 16).1, CL_INVALID_MEM_OBJECT);
    // The sub-buffer holds its parent: releasing the parent first is fine.
    release(p);
    let (s2, rc) = sub(s, 0, 0, 16);
    assert_eq!((s2.is_null(), rc), (true, CL_INVALID_MEM_OBJECT));
    release(s);

    // Reads through a sub-buffer see the parent's bytes.
    let p = buffer(env.ctx, 1024);
    let data = bytes(1024, 9);
    assert_eq!(write(env.q, p, 0, &data), CL_SUCCESS);
    let (s, rc) = sub(p, 0, align, 2 * align);
    assert_eq!(rc, CL_SUCCESS);
    assert_eq!(read_all(env.q, s, 2 * align), data[align..3 * align]);
    release(s);
    release(p);
}

static CALLS: Mutex<Vec<usize>> = Mutex::new(Vec::new());

unsafe extern "C" fn record(_m: cl_mem, data: *mut c_void) {
    CALLS.lock().unwrap().push(data as usize);
}

#[test]
fn destructor_callbacks_run_in_reverse_after_the_last_command() {
    let env = Env::new();
    let m = buffer(env.ctx, 64);
    // SAFETY: valid buffer and callbacks; user data are plain numbers.
    unsafe {
        assert_eq!(
            clSetMemObjectDestructorCallback(m, None, ptr::null_mut()),
            CL_INVALID_VALUE
        );
        assert_eq!(
            clSetMemObjectDestructorCallback(ptr::null_mut(), Some(record), ptr::null_mut()),
            CL_INVALID_MEM_OBJECT
        );
        for tag in [101usize, 102, 103] {
            assert_eq!(
                clSetMemObjectDestructorCallback(m, Some(record), tag as *mut c_void),
                CL_SUCCESS
            );
        }
    }
    // A command gated by a user event still uses the buffer.
    let gate = user_event(env.ctx);
    let pattern = [0xABu8; 4];
    let mut done = ptr::null_mut();
    // SAFETY: valid arguments; the pattern is copied at enqueue.
    let rc = unsafe {
        clEnqueueFillBuffer(
            env.q,
            m,
            pattern.as_ptr() as _,
            4,
            0,
            64,
            1,
            &gate,
            &mut done,
        )
    };
    assert_eq!(rc, CL_SUCCESS);
    release(m);
    let mine = |calls: &Vec<usize>| calls.iter().filter(|&&t| (101..=103).contains(&t)).count();
    assert_eq!(
        mine(&CALLS.lock().unwrap()),
        0,
        "freed while a command uses it"
    );
    assert_eq!(set_status(gate, CL_COMPLETE), CL_SUCCESS);
    assert_eq!(wait(&[done]), CL_SUCCESS);
    finish(env.q);
    release_event(done);
    release_event(gate);
    let calls: Vec<usize> = CALLS
        .lock()
        .unwrap()
        .iter()
        .copied()
        .filter(|t| (101..=103).contains(t))
        .collect();
    assert_eq!(calls, vec![103, 102, 101]);
}

#[test]
fn pipes_and_native_kernels_are_refused_images_samplers_and_svm_checked() {
    let env = Env::new();
    let m = buffer(env.ctx, 64);
    let fmt = cl_image_format {
        image_channel_order: CL_RGBA,
        image_channel_data_type: CL_UNORM_INT8,
    };
    let mut rc = 0;
    let mut n: cl_uint = 9;
    let o = [0usize; 3];
    // SAFETY: valid or NULL arguments throughout.
    unsafe {
        // The device has images (conformance/tests/images.rs tests them).
        let im = clCreateImage2D(env.ctx, 0, &fmt, 4, 4, 0, ptr::null_mut(), &mut rc);
        assert_eq!(rc, CL_SUCCESS);
        assert_eq!(clReleaseMemObject(im), CL_SUCCESS);
        // CL_MEM_KERNEL_READ_AND_WRITE is a flag of the table (see above).
        let flags = CL_MEM_KERNEL_READ_AND_WRITE;
        let im = clCreateImage2D(env.ctx, flags, &fmt, 4, 4, 0, ptr::null_mut(), &mut rc);
        assert_eq!(rc, CL_SUCCESS);
        assert_eq!(info::<cl_mem_flags>(im, CL_MEM_FLAGS), flags);
        assert_eq!(clReleaseMemObject(im), CL_SUCCESS);
        clCreateImage2D(ptr::null_mut(), 0, &fmt, 4, 4, 0, ptr::null_mut(), &mut rc);
        assert_eq!(rc, CL_INVALID_CONTEXT);
        let im = clCreateImage3D(env.ctx, 0, &fmt, 4, 4, 4, 0, 0, ptr::null_mut(), &mut rc);
        assert_eq!(rc, CL_SUCCESS);
        assert_eq!(clReleaseMemObject(im), CL_SUCCESS);
        clCreateImage(env.ctx, 0, &fmt, ptr::null(), ptr::null_mut(), &mut rc);
        assert_eq!(rc, CL_INVALID_IMAGE_DESCRIPTOR);
        clCreateImageWithProperties(
            env.ctx,
            ptr::null(),
            0,
            &fmt,
            ptr::null(),
            ptr::null_mut(),
            &mut rc,
        );
        assert_eq!(rc, CL_INVALID_IMAGE_DESCRIPTOR);
        let r = clGetSupportedImageFormats(
            env.ctx,
            CL_MEM_READ_WRITE,
            CL_MEM_OBJECT_IMAGE2D,
            0,
            ptr::null_mut(),
            &mut n,
        );
        assert_eq!(r, CL_SUCCESS);
        assert!(n >= 13, "the minimum formats: {n}");
        let r = clGetSupportedImageFormats(
            env.ctx,
            0,
            CL_MEM_OBJECT_BUFFER,
            0,
            ptr::null_mut(),
            &mut n,
        );
        assert_eq!(r, CL_INVALID_VALUE);
        let r = clGetSupportedImageFormats(
            ptr::null_mut(),
            0,
            CL_MEM_OBJECT_IMAGE2D,
            0,
            ptr::null_mut(),
            &mut n,
        );
        assert_eq!(r, CL_INVALID_CONTEXT);
        let r = clGetImageInfo(m, CL_IMAGE_WIDTH, 0, ptr::null_mut(), ptr::null_mut());
        assert_eq!(r, CL_INVALID_MEM_OBJECT);
        clCreatePipe(env.ctx, 0, 4, 16, ptr::null(), &mut rc);
        assert_eq!(rc, CL_INVALID_OPERATION);
        clCreatePipe(ptr::null_mut(), 0, 4, 16, ptr::null(), &mut rc);
        assert_eq!(rc, CL_INVALID_CONTEXT);
        let r = clGetPipeInfo(m, CL_PIPE_PACKET_SIZE, 0, ptr::null_mut(), ptr::null_mut());
        assert_eq!(r, CL_INVALID_MEM_OBJECT);
        let smp = clCreateSampler(
            env.ctx,
            CL_FALSE,
            CL_ADDRESS_CLAMP,
            CL_FILTER_NEAREST,
            &mut rc,
        );
        assert_eq!(rc, CL_SUCCESS);
        assert_eq!(clReleaseSampler(smp), CL_SUCCESS);
        clCreateSamplerWithProperties(ptr::null_mut(), ptr::null(), &mut rc);
        assert_eq!(rc, CL_INVALID_CONTEXT);
        assert_eq!(clRetainSampler(ptr::null_mut()), CL_INVALID_SAMPLER);
        assert_eq!(clReleaseSampler(m as cl_sampler), CL_INVALID_SAMPLER);
        let r = clGetSamplerInfo(
            ptr::null_mut(),
            CL_SAMPLER_CONTEXT,
            0,
            ptr::null_mut(),
            ptr::null_mut(),
        );
        assert_eq!(r, CL_INVALID_SAMPLER);
        // Image commands: the queue first, then the (non-)image.
        let r = clEnqueueReadImage(
            ptr::null_mut(),
            m,
            CL_TRUE,
            o.as_ptr(),
            o.as_ptr(),
            0,
            0,
            ptr::null_mut(),
            0,
            ptr::null(),
            ptr::null_mut(),
        );
        assert_eq!(r, CL_INVALID_COMMAND_QUEUE);
        let r = clEnqueueReadImage(
            env.q,
            m,
            CL_TRUE,
            o.as_ptr(),
            o.as_ptr(),
            0,
            0,
            ptr::null_mut(),
            0,
            ptr::null(),
            ptr::null_mut(),
        );
        assert_eq!(r, CL_INVALID_MEM_OBJECT);
        let r = clEnqueueCopyBufferToImage(
            env.q,
            m,
            m,
            0,
            o.as_ptr(),
            o.as_ptr(),
            0,
            ptr::null(),
            ptr::null_mut(),
        );
        assert_eq!(r, CL_INVALID_MEM_OBJECT);
        let r = clEnqueueFillImage(
            env.q,
            m,
            ptr::null(),
            o.as_ptr(),
            o.as_ptr(),
            0,
            ptr::null(),
            ptr::null_mut(),
        );
        assert_eq!(r, CL_INVALID_MEM_OBJECT);
        let p = clEnqueueMapImage(
            env.q,
            m,
            CL_TRUE,
            CL_MAP_READ,
            o.as_ptr(),
            o.as_ptr(),
            ptr::null_mut(),
            ptr::null_mut(),
            0,
            ptr::null(),
            ptr::null_mut(),
            &mut rc,
        );
        assert_eq!((p.is_null(), rc), (true, CL_INVALID_MEM_OBJECT));
        let r = clEnqueueNativeKernel(
            env.q,
            None,
            ptr::null_mut(),
            0,
            0,
            ptr::null(),
            ptr::null_mut(),
            0,
            ptr::null(),
            ptr::null_mut(),
        );
        assert_eq!(r, CL_INVALID_OPERATION);
        // SVM is supported: NULL pointers are the error now.
        let r = clEnqueueSVMMemcpy(
            env.q,
            CL_TRUE,
            ptr::null_mut(),
            ptr::null(),
            4,
            0,
            ptr::null(),
            ptr::null_mut(),
        );
        assert_eq!(r, CL_INVALID_VALUE);
        let r = clEnqueueSVMMemcpy(
            ptr::null_mut(),
            CL_TRUE,
            ptr::null_mut(),
            ptr::null(),
            4,
            0,
            ptr::null(),
            ptr::null_mut(),
        );
        assert_eq!(r, CL_INVALID_COMMAND_QUEUE);
    }
    release(m);
}

static LEAK_CHECK: AtomicUsize = AtomicUsize::new(0);

#[test]
fn released_buffers_free_their_allocations() {
    // Other tests run concurrently, so count only what this test makes: a
    // destructor callback per buffer, called when its store is freed.
    unsafe extern "C" fn freed(_m: cl_mem, _d: *mut c_void) {
        LEAK_CHECK.fetch_add(1, Ordering::SeqCst);
    }
    let env = Env::new();
    let data = bytes(4096, 8);
    for _ in 0..50 {
        let m = buffer(env.ctx, 4096);
        // SAFETY: valid buffer and callback.
        unsafe { clSetMemObjectDestructorCallback(m, Some(freed), ptr::null_mut()) };
        let (s, _) = sub(m, 0, 128, 256);
        let mut ev = ptr::null_mut();
        // SAFETY: `data` outlives the command (waited below).
        unsafe {
            clEnqueueWriteBuffer(
                env.q,
                s,
                CL_FALSE,
                0,
                256,
                data.as_ptr() as _,
                0,
                ptr::null(),
                &mut ev,
            )
        };
        release(m);
        release(s);
        assert_eq!(wait(&[ev]), CL_SUCCESS);
        release_event(ev);
    }
    finish(env.q);
    assert_eq!(LEAK_CHECK.load(Ordering::SeqCst), 50);
}
