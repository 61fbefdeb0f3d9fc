//! Images and samplers: the device's image limits and formats, image
//! objects of every type (creation, `clGetImageInfo`, pitches, host
//! pointers), the image commands (read, write, copy, fill, map, to and from
//! buffers) with their error codes, sampler objects, and kernels that read
//! and write images — every image type × addressing mode × filter ×
//! normalized coordinates, checked against a reference written here from
//! the OpenCL C specification's formulas ("Image Addressing and Filtering",
//! "Conversion Rules"), not from cranecl's code.

use cranecl_conformance::{assert_code, both_ways, call, null, Cl};
use opencl_sys::*;
use std::ffi::{c_char, c_void};

// ------------------------------------------------------------ helpers

fn fmt(order: cl_channel_order, t: cl_channel_type) -> cl_image_format {
    cl_image_format {
        image_channel_order: order,
        image_channel_data_type: t,
    }
}

fn desc(ty: cl_mem_object_type, size: [usize; 4], row: usize, slice: usize) -> cl_image_desc {
    // SAFETY: cl_image_desc is plain data; all-zero is a valid value.
    let mut d: cl_image_desc = unsafe { std::mem::zeroed() };
    d.image_type = ty;
    d.image_width = size[0];
    d.image_height = size[1];
    d.image_depth = size[2];
    d.image_array_size = size[3];
    d.image_row_pitch = row;
    d.image_slice_pitch = slice;
    d
}

fn try_image(
    t: &Cl,
    ctx: cl_context,
    flags: cl_mem_flags,
    f: cl_image_format,
    d: cl_image_desc,
    host: *mut c_void,
) -> (cl_mem, cl_int) {
    let mut e = 0;
    let m = call!(t; clCreateImage(ctx, flags, &f, &d, host, &mut e));
    (m, e)
}

#[track_caller]
fn image(
    t: &Cl,
    ctx: cl_context,
    flags: cl_mem_flags,
    f: cl_image_format,
    d: cl_image_desc,
    host: *mut c_void,
) -> cl_mem {
    let (m, e) = try_image(t, ctx, flags, f, d, host);
    assert_code!(e, CL_SUCCESS, "clCreateImage");
    m
}

fn image_info<T: Default>(t: &Cl, m: cl_mem, name: cl_image_info) -> T {
    let mut v = T::default();
    assert_code!(
        call!(t; clGetImageInfo(m, name, std::mem::size_of::<T>(), (&mut v as *mut T).cast(), null())),
        CL_SUCCESS,
        "clGetImageInfo({name:#x})"
    );
    v
}

fn device_info<T: Default>(t: &Cl, name: cl_device_info) -> T {
    let mut v = T::default();
    assert_code!(
        call!(t; clGetDeviceInfo(t.device(), name, std::mem::size_of::<T>(), (&mut v as *mut T).cast(), null())),
        CL_SUCCESS,
        "clGetDeviceInfo({name:#x})"
    );
    v
}

const O: [usize; 3] = [0, 0, 0];

#[track_caller]
#[allow(clippy::too_many_arguments)]
fn write(
    t: &Cl,
    q: cl_command_queue,
    m: cl_mem,
    origin: [usize; 3],
    region: [usize; 3],
    rp: usize,
    sp: usize,
    data: *const c_void,
) {
    assert_code!(
        call!(t; clEnqueueWriteImage(q, m, CL_TRUE, origin.as_ptr(), region.as_ptr(), rp, sp, data, 0, null(), null())),
        CL_SUCCESS,
        "clEnqueueWriteImage"
    );
}

#[track_caller]
#[allow(clippy::too_many_arguments)]
fn read(
    t: &Cl,
    q: cl_command_queue,
    m: cl_mem,
    origin: [usize; 3],
    region: [usize; 3],
    rp: usize,
    sp: usize,
    data: *mut c_void,
) {
    assert_code!(
        call!(t; clEnqueueReadImage(q, m, CL_TRUE, origin.as_ptr(), region.as_ptr(), rp, sp, data, 0, null(), null())),
        CL_SUCCESS,
        "clEnqueueReadImage"
    );
}

#[track_caller]
fn build(t: &Cl, ctx: cl_context, src: &str, opts: &std::ffi::CStr) -> cl_program {
    let dev = t.device();
    let mut e = 0;
    let mut s = src.as_ptr() as *const c_char;
    let len = src.len();
    let p = call!(t; clCreateProgramWithSource(ctx, 1, &mut s, &len, &mut e));
    assert_code!(e, CL_SUCCESS);
    let r = call!(t; clBuildProgram(p, 1, &dev, opts.as_ptr(), None, null()));
    if r != CL_SUCCESS {
        let mut log = vec![0u8; 1 << 16];
        let mut n = 0;
        call!(t; clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, log.len(), log.as_mut_ptr().cast(), &mut n));
        panic!(
            "build failed ({r}):\n{}",
            String::from_utf8_lossy(&log[..n.saturating_sub(1)])
        );
    }
    p
}

#[track_caller]
fn kernel(t: &Cl, p: cl_program, name: &std::ffi::CStr) -> cl_kernel {
    let mut e = 0;
    let k = call!(t; clCreateKernel(p, name.as_ptr(), &mut e));
    assert_code!(e, CL_SUCCESS, "clCreateKernel");
    k
}

fn set_arg<T>(t: &Cl, k: cl_kernel, i: u32, v: &T) -> cl_int {
    call!(t; clSetKernelArg(k, i, std::mem::size_of::<T>(), (v as *const T).cast()))
}

#[track_caller]
fn run(t: &Cl, q: cl_command_queue, k: cl_kernel, global: &[usize]) {
    assert_code!(
        call!(t; clEnqueueNDRangeKernel(q, k, global.len() as u32, null(), global.as_ptr(), null(), 0, null(), null())),
        CL_SUCCESS,
        "clEnqueueNDRangeKernel"
    );
    assert_code!(call!(t; clFinish(q)), CL_SUCCESS);
}

#[track_caller]
fn buffer_with<T: Copy>(t: &Cl, ctx: cl_context, data: &[T]) -> cl_mem {
    let mut e = 0;
    let m = call!(t; clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, std::mem::size_of_val(data).max(4), data.as_ptr() as *mut c_void, &mut e));
    assert_code!(e, CL_SUCCESS, "clCreateBuffer");
    m
}

#[track_caller]
fn read_buffer<T: Copy + Default>(t: &Cl, q: cl_command_queue, m: cl_mem, n: usize) -> Vec<T> {
    let mut v = vec![T::default(); n];
    assert_code!(
        call!(t; clEnqueueReadBuffer(q, m, CL_TRUE, 0, std::mem::size_of::<T>() * n, v.as_mut_ptr().cast(), 0, null(), null())),
        CL_SUCCESS
    );
    v
}

fn sampler(
    t: &Cl,
    ctx: cl_context,
    norm: bool,
    addr: cl_addressing_mode,
    filter: cl_filter_mode,
) -> cl_sampler {
    let mut e = 0;
    let s = call!(t; clCreateSampler(ctx, norm as cl_bool, addr, filter, &mut e));
    assert_code!(e, CL_SUCCESS, "clCreateSampler");
    s
}

// ------------------------------------------------------------ device

fn device_limits_and_formats(t: &Cl) {
    assert_eq!(device_info::<cl_bool>(t, CL_DEVICE_IMAGE_SUPPORT), CL_TRUE);
    // The full profile's minimums.
    for (q, min) in [
        (CL_DEVICE_IMAGE2D_MAX_WIDTH, 16384usize),
        (CL_DEVICE_IMAGE2D_MAX_HEIGHT, 16384),
        (CL_DEVICE_IMAGE3D_MAX_WIDTH, 2048),
        (CL_DEVICE_IMAGE3D_MAX_HEIGHT, 2048),
        (CL_DEVICE_IMAGE3D_MAX_DEPTH, 2048),
        (CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, 2048),
        (CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, 65536),
    ] {
        assert!(device_info::<usize>(t, q) >= min, "device query {q:#x}");
    }
    for (q, min) in [
        (CL_DEVICE_MAX_READ_IMAGE_ARGS, 128u32),
        (CL_DEVICE_MAX_WRITE_IMAGE_ARGS, 64),
        (CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, 64),
        (CL_DEVICE_MAX_SAMPLERS, 16),
    ] {
        assert!(device_info::<cl_uint>(t, q) >= min, "device query {q:#x}");
    }
    let ctx = t.context();
    let rgba_types = [
        CL_UNORM_INT8,
        CL_UNORM_INT16,
        CL_SNORM_INT8,
        CL_SNORM_INT16,
        CL_SIGNED_INT8,
        CL_SIGNED_INT16,
        CL_SIGNED_INT32,
        CL_UNSIGNED_INT8,
        CL_UNSIGNED_INT16,
        CL_UNSIGNED_INT32,
        CL_HALF_FLOAT,
        CL_FLOAT,
    ];
    let r_types = [
        CL_UNORM_INT8,
        CL_SIGNED_INT8,
        CL_SIGNED_INT16,
        CL_SIGNED_INT32,
        CL_UNSIGNED_INT8,
        CL_UNSIGNED_INT16,
        CL_UNSIGNED_INT32,
        CL_HALF_FLOAT,
        CL_FLOAT,
    ];
    for flags in [
        CL_MEM_READ_ONLY,
        CL_MEM_WRITE_ONLY,
        CL_MEM_READ_WRITE,
        CL_MEM_KERNEL_READ_AND_WRITE,
    ] {
        for ty in [
            CL_MEM_OBJECT_IMAGE1D,
            CL_MEM_OBJECT_IMAGE1D_BUFFER,
            CL_MEM_OBJECT_IMAGE1D_ARRAY,
            CL_MEM_OBJECT_IMAGE2D,
            CL_MEM_OBJECT_IMAGE2D_ARRAY,
            CL_MEM_OBJECT_IMAGE3D,
        ] {
            let mut n: cl_uint = 0;
            assert_code!(
                call!(t; clGetSupportedImageFormats(ctx, flags, ty, 0, null(), &mut n)),
                CL_SUCCESS
            );
            let mut list = vec![fmt(0, 0); n as usize];
            let mut m: cl_uint = 0;
            assert_code!(
                call!(t; clGetSupportedImageFormats(ctx, flags, ty, n, list.as_mut_ptr(), &mut m)),
                CL_SUCCESS
            );
            assert_eq!(n, m);
            let has = |o, d| {
                list.iter()
                    .any(|f| f.image_channel_order == o && f.image_channel_data_type == d)
            };
            for d in rgba_types {
                assert!(
                    has(CL_RGBA, d),
                    "RGBA {d:#x} for type {ty:#x} flags {flags:#x}"
                );
            }
            assert!(has(CL_BGRA, CL_UNORM_INT8));
            for d in r_types {
                assert!(has(CL_R, d), "R {d:#x} for type {ty:#x} flags {flags:#x}");
            }
        }
    }
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
}

// ------------------------------------------------------------ objects

/// (type, size [w, h, d, array], the API's region of the whole image).
fn each_type() -> Vec<(cl_mem_object_type, [usize; 4], [usize; 3])> {
    vec![
        (CL_MEM_OBJECT_IMAGE1D, [7, 0, 0, 0], [7, 1, 1]),
        (CL_MEM_OBJECT_IMAGE1D_ARRAY, [7, 0, 0, 3], [7, 3, 1]),
        (CL_MEM_OBJECT_IMAGE2D, [7, 5, 0, 0], [7, 5, 1]),
        (CL_MEM_OBJECT_IMAGE2D_ARRAY, [7, 5, 0, 3], [7, 5, 3]),
        (CL_MEM_OBJECT_IMAGE3D, [7, 5, 3, 0], [7, 5, 3]),
    ]
}

fn create_and_query_each_type(t: &Cl) {
    let ctx = t.context();
    for (ty, size, region) in each_type() {
        for (f, es) in [
            (fmt(CL_RGBA, CL_UNORM_INT8), 4usize),
            (fmt(CL_RGBA, CL_FLOAT), 16),
            (fmt(CL_R, CL_UNSIGNED_INT16), 2),
            (fmt(CL_RG, CL_HALF_FLOAT), 4),
        ] {
            let m = image(t, ctx, CL_MEM_READ_WRITE, f, desc(ty, size, 0, 0), null());
            let got: [u32; 2] = image_info(t, m, CL_IMAGE_FORMAT);
            let got = fmt(got[0], got[1]);
            assert_eq!(got.image_channel_order, f.image_channel_order);
            assert_eq!(got.image_channel_data_type, f.image_channel_data_type);
            assert_eq!(image_info::<usize>(t, m, CL_IMAGE_ELEMENT_SIZE), es);
            assert_eq!(image_info::<usize>(t, m, CL_IMAGE_WIDTH), size[0]);
            assert_eq!(image_info::<usize>(t, m, CL_IMAGE_HEIGHT), size[1]);
            assert_eq!(image_info::<usize>(t, m, CL_IMAGE_DEPTH), size[2]);
            assert_eq!(image_info::<usize>(t, m, CL_IMAGE_ARRAY_SIZE), size[3]);
            let row: usize = image_info(t, m, CL_IMAGE_ROW_PITCH);
            assert!(row >= size[0] * es);
            let slice: usize = image_info(t, m, CL_IMAGE_SLICE_PITCH);
            match ty {
                CL_MEM_OBJECT_IMAGE1D | CL_MEM_OBJECT_IMAGE2D => assert_eq!(slice, 0),
                CL_MEM_OBJECT_IMAGE1D_ARRAY => assert!(slice >= row),
                _ => assert!(slice >= row * size[1]),
            }
            assert_eq!(image_info::<cl_uint>(t, m, CL_IMAGE_NUM_MIP_LEVELS), 0);
            assert_eq!(image_info::<cl_uint>(t, m, CL_IMAGE_NUM_SAMPLES), 0);
            assert!(image_info::<cl_mem>(t, m, CL_IMAGE_BUFFER).is_null());
            let mut mt: cl_mem_object_type = 0;
            assert_code!(
                call!(t; clGetMemObjectInfo(m, CL_MEM_TYPE, 4, (&mut mt as *mut u32).cast(), null())),
                CL_SUCCESS
            );
            assert_eq!(mt, ty);
            let mut msize = 0usize;
            assert_code!(
                call!(t; clGetMemObjectInfo(m, CL_MEM_SIZE, 8, (&mut msize as *mut usize).cast(), null())),
                CL_SUCCESS
            );
            assert!(msize >= region.iter().product::<usize>() * es);
            assert_code!(call!(t; clReleaseMemObject(m)), CL_SUCCESS);
        }
    }
    // The 1.x entry points.
    let mut e = 0;
    let f = fmt(CL_RGBA, CL_UNORM_INT8);
    let m = call!(t; clCreateImage2D(ctx, CL_MEM_READ_WRITE, &f, 9, 4, 0, null(), &mut e));
    assert_code!(e, CL_SUCCESS);
    assert_eq!(image_info::<usize>(t, m, CL_IMAGE_HEIGHT), 4);
    assert_code!(call!(t; clReleaseMemObject(m)), CL_SUCCESS);
    let m = call!(t; clCreateImage3D(ctx, CL_MEM_READ_WRITE, &f, 9, 4, 2, 0, 0, null(), &mut e));
    assert_code!(e, CL_SUCCESS);
    assert_eq!(image_info::<usize>(t, m, CL_IMAGE_DEPTH), 2);
    assert_code!(call!(t; clReleaseMemObject(m)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
}

/// Texel bytes of texel (x, y, z) (API coordinates), 4 bytes each.
fn pattern(x: usize, y: usize, z: usize) -> [u8; 4] {
    let v = (x + 11 * y + 53 * z) as u8;
    [v, v.wrapping_mul(3), v ^ 0x5a, 200 - v % 100]
}

/// Every type: a write of a sub-region from padded host memory, then a read
/// of the whole image with other padding: the texels written are where the
/// region says, the rest still the image's first contents.
fn write_read_with_pitches(t: &Cl) {
    let ctx = t.context();
    let q = t.queue(ctx, 0);
    let f = fmt(CL_RGBA, CL_UNSIGNED_INT8);
    for (ty, size, full) in each_type() {
        // Initial contents through COPY_HOST_PTR with a padded row pitch
        // (and slice pitch where the type has slices).
        let row = full[0] * 4 + 12;
        let has_slices = ty != CL_MEM_OBJECT_IMAGE1D && ty != CL_MEM_OBJECT_IMAGE2D;
        let rows = if ty == CL_MEM_OBJECT_IMAGE1D_ARRAY {
            1
        } else {
            full[1]
        };
        // A slice pitch is a multiple of the row pitch.
        let slice = row * (rows + 1);
        let layers = if ty == CL_MEM_OBJECT_IMAGE1D_ARRAY {
            full[1]
        } else {
            full[2]
        };
        let mut init = vec![0u8; slice * layers];
        let at = |x: usize, y: usize, z: usize| {
            if ty == CL_MEM_OBJECT_IMAGE1D_ARRAY {
                y * slice + x * 4
            } else {
                z * slice + y * row + x * 4
            }
        };
        for z in 0..full[2] {
            for y in 0..full[1] {
                for x in 0..full[0] {
                    init[at(x, y, z)..at(x, y, z) + 4].copy_from_slice(&pattern(x, y, z));
                }
            }
        }
        let d = desc(ty, size, row, if has_slices { slice } else { 0 });
        let m = image(
            t,
            ctx,
            CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
            f,
            d,
            init.as_mut_ptr().cast(),
        );
        // A write of a sub-region from host memory with its own pitches.
        let origin = [
            2,
            if full[1] > 1 { 1 } else { 0 },
            if full[2] > 1 { 1 } else { 0 },
        ];
        let region = [3, full[1].min(2), full[2].min(2)];
        let hrow = region[0] * 4 + 4;
        let hslice = if has_slices {
            hrow * if ty == CL_MEM_OBJECT_IMAGE1D_ARRAY {
                1
            } else {
                region[1]
            } + 16
        } else {
            0
        };
        let hlayer = if ty == CL_MEM_OBJECT_IMAGE1D_ARRAY {
            hslice
        } else {
            hrow
        };
        let mut src = vec![0u8; 4096];
        let new = |x: usize, y: usize, z: usize| [x as u8 + 100, y as u8 + 100, z as u8 + 100, 7];
        for z in 0..region[2] {
            for y in 0..region[1] {
                for x in 0..region[0] {
                    let o = z * hslice + y * hlayer + x * 4;
                    src[o..o + 4].copy_from_slice(&new(x, y, z));
                }
            }
        }
        write(t, q, m, origin, region, hrow, hslice, src.as_ptr().cast());
        // Read everything back tightly.
        let mut out = vec![0u8; full.iter().product::<usize>() * 4];
        read(t, q, m, O, full, 0, 0, out.as_mut_ptr().cast());
        for z in 0..full[2] {
            for y in 0..full[1] {
                for x in 0..full[0] {
                    let o = ((z * full[1] + y) * full[0] + x) * 4;
                    let inside = (0..3).all(|k| {
                        let p = [x, y, z][k];
                        p >= origin[k] && p < origin[k] + region[k]
                    });
                    let want = if inside {
                        new(x - origin[0], y - origin[1], z - origin[2])
                    } else {
                        pattern(x, y, z)
                    };
                    assert_eq!(&out[o..o + 4], &want, "type {ty:#x} texel ({x}, {y}, {z})");
                }
            }
        }
        assert_code!(call!(t; clReleaseMemObject(m)), CL_SUCCESS);
    }
    assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
}

/// USE_HOST_PTR with a row pitch: the user's memory is the image (a map
/// returns a pointer into it, with that pitch).
fn use_host_ptr_and_map(t: &Cl) {
    let ctx = t.context();
    let q = t.queue(ctx, 0);
    let (w, h, row) = (5usize, 3usize, 32usize);
    let mut host = vec![0u8; row * h];
    for y in 0..h {
        for x in 0..w {
            host[y * row + x * 4..y * row + x * 4 + 4].copy_from_slice(&pattern(x, y, 0));
        }
    }
    let f = fmt(CL_RGBA, CL_UNORM_INT8);
    let m = image(
        t,
        ctx,
        CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR,
        f,
        desc(CL_MEM_OBJECT_IMAGE2D, [w, h, 0, 0], row, 0),
        host.as_mut_ptr().cast(),
    );
    assert_eq!(image_info::<usize>(t, m, CL_IMAGE_ROW_PITCH), row);
    let mut e = 0;
    let (mut rp, mut sp) = (0usize, 99usize);
    let origin = [1usize, 1, 0];
    let region = [2usize, 2, 1];
    let p = call!(t; clEnqueueMapImage(q, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, origin.as_ptr(), region.as_ptr(), &mut rp, &mut sp, 0, null(), null(), &mut e));
    assert_code!(e, CL_SUCCESS, "clEnqueueMapImage");
    assert_eq!(rp, row);
    assert_eq!(sp, 0, "a 2D image maps with slice pitch 0");
    // SAFETY: the mapped region is 2 x 2 texels with row pitch `rp`.
    unsafe {
        let p = p as *mut u8;
        assert_eq!(std::slice::from_raw_parts(p, 4), &pattern(1, 1, 0));
        assert_eq!(
            std::slice::from_raw_parts(p.add(rp + 4), 4),
            &pattern(2, 2, 0)
        );
        std::ptr::copy_nonoverlapping([9u8, 8, 7, 6].as_ptr(), p.add(rp), 4);
    }
    let mut n: cl_uint = 0;
    assert_code!(
        call!(t; clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, 4, (&mut n as *mut u32).cast(), null())),
        CL_SUCCESS
    );
    assert_eq!(n, 1);
    assert_code!(
        call!(t; clEnqueueUnmapMemObject(q, m, p, 0, null(), null())),
        CL_SUCCESS
    );
    let mut out = [0u8; 4];
    read(t, q, m, [1, 2, 0], [1, 1, 1], 0, 0, out.as_mut_ptr().cast());
    assert_eq!(out, [9, 8, 7, 6]);
    // A 3D image's map needs image_slice_pitch.
    let m3 = image(
        t,
        ctx,
        CL_MEM_READ_WRITE,
        f,
        desc(CL_MEM_OBJECT_IMAGE3D, [4, 4, 2, 0], 0, 0),
        null(),
    );
    let r3 = [4usize, 4, 2];
    let p = call!(t; clEnqueueMapImage(q, m3, CL_TRUE, CL_MAP_READ, O.as_ptr(), r3.as_ptr(), &mut rp, null(), 0, null(), null(), &mut e));
    assert!(p.is_null());
    assert_code!(
        e,
        CL_INVALID_VALUE,
        "map of a 3D image without image_slice_pitch"
    );
    let p = call!(t; clEnqueueMapImage(q, m3, CL_TRUE, CL_MAP_READ, O.as_ptr(), r3.as_ptr(), null(), &mut sp, 0, null(), null(), &mut e));
    assert!(p.is_null());
    assert_code!(e, CL_INVALID_VALUE, "map without image_row_pitch");
    let p = call!(t; clEnqueueMapImage(q, m3, CL_TRUE, CL_MAP_READ, O.as_ptr(), r3.as_ptr(), &mut rp, &mut sp, 0, null(), null(), &mut e));
    assert_code!(e, CL_SUCCESS);
    assert_eq!((rp, sp), (16, 64));
    assert_code!(
        call!(t; clEnqueueUnmapMemObject(q, m3, p, 0, null(), null())),
        CL_SUCCESS
    );
    assert_code!(call!(t; clFinish(q)), CL_SUCCESS);
    for o in [m, m3] {
        assert_code!(call!(t; clReleaseMemObject(o)), CL_SUCCESS);
    }
    assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
}

/// The spec's float → UNORM_INT8 rule: convert_uchar_sat_rte(f * 255.0f).
fn unorm8(f: f32) -> u8 {
    if f.is_nan() {
        return 0;
    }
    (f * 255.0).round_ties_even().clamp(0.0, 255.0) as u8
}

fn copy_fill_and_buffers(t: &Cl) {
    let ctx = t.context();
    let q = t.queue(ctx, 0);
    let f = fmt(CL_RGBA, CL_UNSIGNED_INT8);
    let (w, h) = (6usize, 4usize);
    let mut init: Vec<u8> = (0..h)
        .flat_map(|y| (0..w).flat_map(move |x| pattern(x, y, 0)))
        .collect();
    let a = image(
        t,
        ctx,
        CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
        f,
        desc(CL_MEM_OBJECT_IMAGE2D, [w, h, 0, 0], 0, 0),
        init.as_mut_ptr().cast(),
    );
    // 2D → slice 1 of a 3D image at (1, 2).
    let b = image(
        t,
        ctx,
        CL_MEM_READ_WRITE,
        f,
        desc(CL_MEM_OBJECT_IMAGE3D, [w, h, 3, 0], 0, 0),
        null(),
    );
    let (so, d_o, region) = ([2usize, 1, 0], [1usize, 2, 1], [3usize, 2, 1]);
    assert_code!(
        call!(t; clEnqueueCopyImage(q, a, b, so.as_ptr(), d_o.as_ptr(), region.as_ptr(), 0, null(), null())),
        CL_SUCCESS
    );
    let mut out = vec![0u8; w * h * 3 * 4];
    read(t, q, b, O, [w, h, 3], 0, 0, out.as_mut_ptr().cast());
    for z in 0..3 {
        for y in 0..h {
            for x in 0..w {
                let o = ((z * h + y) * w + x) * 4;
                let inside = z == 1 && (1..4).contains(&x) && (2..4).contains(&y);
                let want = if inside {
                    pattern(x - 1 + 2, y - 2 + 1, 0)
                } else {
                    [0; 4]
                };
                assert_eq!(&out[o..o + 4], &want, "copied texel ({x}, {y}, {z})");
            }
        }
    }
    // Image → buffer (at an offset) → another image.
    let buf = buffer_with(t, ctx, &[0u8; 256]);
    let region = [4usize, 3, 1];
    assert_code!(
        call!(t; clEnqueueCopyImageToBuffer(q, a, buf, [1usize, 1, 0].as_ptr(), region.as_ptr(), 16, 0, null(), null())),
        CL_SUCCESS
    );
    let bytes: Vec<u8> = read_buffer(t, q, buf, 256);
    for y in 0..3 {
        for x in 0..4 {
            let o = 16 + (y * 4 + x) * 4;
            assert_eq!(&bytes[o..o + 4], &pattern(x + 1, y + 1, 0));
        }
    }
    let c = image(
        t,
        ctx,
        CL_MEM_READ_WRITE,
        f,
        desc(CL_MEM_OBJECT_IMAGE1D_ARRAY, [4, 0, 0, 3], 0, 0),
        null(),
    );
    assert_code!(
        call!(t; clEnqueueCopyBufferToImage(q, buf, c, 16, O.as_ptr(), [4usize, 3, 1].as_ptr(), 0, null(), null())),
        CL_SUCCESS
    );
    let mut out = vec![0u8; 48];
    read(t, q, c, O, [4, 3, 1], 0, 0, out.as_mut_ptr().cast());
    assert_eq!(
        &out[..],
        &bytes[16..64],
        "the 1D array's layers are the buffer's rows"
    );
    // Fill: UNORM_INT8 with a float colour (rounded to nearest even,
    // saturated), SIGNED_INT16 with an int colour (saturated).
    let u = image(
        t,
        ctx,
        CL_MEM_READ_WRITE,
        fmt(CL_RGBA, CL_UNORM_INT8),
        desc(CL_MEM_OBJECT_IMAGE2D, [3, 3, 0, 0], 0, 0),
        null(),
    );
    let color = [0.5f32, 1.2, -0.3, 0.25];
    assert_code!(
        call!(t; clEnqueueFillImage(q, u, color.as_ptr().cast(), [1usize, 1, 0].as_ptr(), [2usize, 2, 1].as_ptr(), 0, null(), null())),
        CL_SUCCESS
    );
    let mut out = [0u8; 36];
    read(t, q, u, O, [3, 3, 1], 0, 0, out.as_mut_ptr().cast());
    let filled = color.map(unorm8);
    assert_eq!(filled, [128, 255, 0, 64]);
    for y in 0..3 {
        for x in 0..3 {
            let want = if x >= 1 && y >= 1 { filled } else { [0; 4] };
            assert_eq!(&out[(y * 3 + x) * 4..(y * 3 + x) * 4 + 4], &want);
        }
    }
    let s = image(
        t,
        ctx,
        CL_MEM_READ_WRITE,
        fmt(CL_RGBA, CL_SIGNED_INT16),
        desc(CL_MEM_OBJECT_IMAGE1D, [2, 0, 0, 0], 0, 0),
        null(),
    );
    let icolor = [70000i32, -70000, -5, 32767];
    assert_code!(
        call!(t; clEnqueueFillImage(q, s, icolor.as_ptr().cast(), O.as_ptr(), [2usize, 1, 1].as_ptr(), 0, null(), null())),
        CL_SUCCESS
    );
    let mut out = [0i16; 8];
    read(t, q, s, O, [2, 1, 1], 0, 0, out.as_mut_ptr().cast());
    assert_eq!(out, [32767, -32768, -5, 32767, 32767, -32768, -5, 32767]);
    for o in [a, b, c, u, s, buf] {
        assert_code!(call!(t; clReleaseMemObject(o)), CL_SUCCESS);
    }
    assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
}

fn creation_errors(t: &Cl) {
    let ctx = t.context();
    let f = fmt(CL_RGBA, CL_UNORM_INT8);
    let d2 = desc(CL_MEM_OBJECT_IMAGE2D, [4, 4, 0, 0], 0, 0);
    let mut host = vec![0u8; 4096];
    let hp: *mut c_void = host.as_mut_ptr().cast();
    let cases: Vec<(
        &str,
        cl_mem_flags,
        cl_image_format,
        cl_image_desc,
        *mut c_void,
        cl_int,
    )> = vec![
        (
            "unknown channel order",
            CL_MEM_READ_WRITE,
            fmt(0x1234, CL_UNORM_INT8),
            d2,
            null(),
            CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
        ),
        (
            "unknown data type",
            CL_MEM_READ_WRITE,
            fmt(CL_RGBA, 0x1234),
            d2,
            null(),
            CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
        ),
        (
            "not an image type",
            CL_MEM_READ_WRITE,
            f,
            desc(CL_MEM_OBJECT_BUFFER, [4, 4, 0, 0], 0, 0),
            null(),
            CL_INVALID_IMAGE_DESCRIPTOR,
        ),
        (
            "width 0",
            CL_MEM_READ_WRITE,
            f,
            desc(CL_MEM_OBJECT_IMAGE2D, [0, 4, 0, 0], 0, 0),
            null(),
            CL_INVALID_IMAGE_DESCRIPTOR,
        ),
        (
            "depth 0 for 3D",
            CL_MEM_READ_WRITE,
            f,
            desc(CL_MEM_OBJECT_IMAGE3D, [4, 4, 0, 0], 0, 0),
            null(),
            CL_INVALID_IMAGE_DESCRIPTOR,
        ),
        (
            "array size 0",
            CL_MEM_READ_WRITE,
            f,
            desc(CL_MEM_OBJECT_IMAGE2D_ARRAY, [4, 4, 0, 0], 0, 0),
            null(),
            CL_INVALID_IMAGE_DESCRIPTOR,
        ),
        (
            "row pitch without host_ptr",
            CL_MEM_READ_WRITE,
            f,
            desc(CL_MEM_OBJECT_IMAGE2D, [4, 4, 0, 0], 64, 0),
            null(),
            CL_INVALID_IMAGE_DESCRIPTOR,
        ),
        (
            "row pitch below the row",
            CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
            f,
            desc(CL_MEM_OBJECT_IMAGE2D, [4, 4, 0, 0], 12, 0),
            hp,
            CL_INVALID_IMAGE_DESCRIPTOR,
        ),
        (
            "row pitch not a multiple of the element",
            CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
            f,
            desc(CL_MEM_OBJECT_IMAGE2D, [4, 4, 0, 0], 18, 0),
            hp,
            CL_INVALID_IMAGE_DESCRIPTOR,
        ),
        (
            "slice pitch below a slice",
            CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
            f,
            desc(CL_MEM_OBJECT_IMAGE3D, [4, 4, 2, 0], 16, 48),
            hp,
            CL_INVALID_IMAGE_DESCRIPTOR,
        ),
        (
            "too wide",
            CL_MEM_READ_WRITE,
            f,
            desc(CL_MEM_OBJECT_IMAGE2D, [1 << 20, 1, 0, 0], 0, 0),
            null(),
            CL_INVALID_IMAGE_SIZE,
        ),
        (
            "3D too deep",
            CL_MEM_READ_WRITE,
            f,
            desc(CL_MEM_OBJECT_IMAGE3D, [4, 4, 1 << 20, 0], 0, 0),
            null(),
            CL_INVALID_IMAGE_SIZE,
        ),
        (
            "host_ptr without a flag",
            CL_MEM_READ_WRITE,
            f,
            d2,
            hp,
            CL_INVALID_HOST_PTR,
        ),
        (
            "COPY_HOST_PTR without host_ptr",
            CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
            f,
            d2,
            null(),
            CL_INVALID_HOST_PTR,
        ),
        (
            "bad flags",
            CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY,
            f,
            d2,
            null(),
            CL_INVALID_VALUE,
        ),
        (
            "unsupported format",
            CL_MEM_READ_WRITE,
            fmt(CL_RGB, CL_UNORM_INT8),
            d2,
            null(),
            CL_IMAGE_FORMAT_NOT_SUPPORTED,
        ),
    ];
    for (what, flags, f, d, host, code) in cases {
        let (m, e) = try_image(t, ctx, flags, f, d, host);
        assert!(m.is_null(), "{what}");
        assert_code!(e, code, "{what}");
    }
    let mut e = 0;
    let m = call!(t; clCreateImage(ctx, CL_MEM_READ_WRITE, null(), &d2, null(), &mut e));
    assert!(m.is_null());
    assert_code!(e, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "NULL image_format");
    let m = call!(t; clCreateImage(ctx, CL_MEM_READ_WRITE, &f, null(), null(), &mut e));
    assert!(m.is_null());
    assert_code!(e, CL_INVALID_IMAGE_DESCRIPTOR, "NULL image_desc");
    let m = call!(t; clCreateImage2D(ctx, CL_MEM_READ_WRITE, &f, 0, 4, 0, null(), &mut e));
    assert!(m.is_null());
    assert_code!(e, CL_INVALID_IMAGE_SIZE, "clCreateImage2D of width 0");
    let m = call!(t; clCreateImage2D(ctx, CL_MEM_READ_WRITE, &f, 4, 4, 64, null(), &mut e));
    assert!(m.is_null());
    assert_code!(
        e,
        CL_INVALID_IMAGE_SIZE,
        "clCreateImage2D with a row pitch and no host_ptr"
    );
    let m = call!(t; clCreateImage3D(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &f, 4, 4, 2, 16, 40, hp, &mut e));
    assert!(m.is_null());
    assert_code!(
        e,
        CL_INVALID_IMAGE_SIZE,
        "clCreateImage3D with a slice pitch below a slice"
    );
    let m = call!(t; clCreateImage(null(), CL_MEM_READ_WRITE, &f, &d2, null(), &mut e));
    assert!(m.is_null());
    assert_code!(e, CL_INVALID_CONTEXT);
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
}

fn command_errors(t: &Cl) {
    let ctx = t.context();
    let q = t.queue(ctx, 0);
    let f = fmt(CL_RGBA, CL_UNORM_INT8);
    let a = image(
        t,
        ctx,
        CL_MEM_READ_WRITE,
        f,
        desc(CL_MEM_OBJECT_IMAGE2D, [4, 4, 0, 0], 0, 0),
        null(),
    );
    let g = image(
        t,
        ctx,
        CL_MEM_READ_WRITE,
        fmt(CL_RGBA, CL_FLOAT),
        desc(CL_MEM_OBJECT_IMAGE2D, [4, 4, 0, 0], 0, 0),
        null(),
    );
    let ho = image(
        t,
        ctx,
        CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS,
        f,
        desc(CL_MEM_OBJECT_IMAGE2D, [4, 4, 0, 0], 0, 0),
        null(),
    );
    let buf = buffer_with(t, ctx, &[0u8; 256]);
    let mut host = vec![0u8; 4096];
    let hp: *mut c_void = host.as_mut_ptr().cast();
    let rd = |m: cl_mem, o: [usize; 3], r: [usize; 3], rp: usize, sp: usize, p: *mut c_void| call!(t; clEnqueueReadImage(q, m, CL_TRUE, o.as_ptr(), r.as_ptr(), rp, sp, p, 0, null(), null()));
    assert_code!(
        rd(a, [1, 0, 0], [4, 1, 1], 0, 0, hp),
        CL_INVALID_VALUE,
        "past the width"
    );
    assert_code!(
        rd(a, [0, 0, 1], [1, 1, 1], 0, 0, hp),
        CL_INVALID_VALUE,
        "origin[2] of a 2D image"
    );
    assert_code!(
        rd(a, O, [1, 1, 2], 0, 0, hp),
        CL_INVALID_VALUE,
        "region[2] of a 2D image"
    );
    assert_code!(rd(a, O, [0, 1, 1], 0, 0, hp), CL_INVALID_VALUE, "region 0");
    assert_code!(
        rd(a, O, [1, 1, 1], 0, 0, null()),
        CL_INVALID_VALUE,
        "NULL ptr"
    );
    assert_code!(
        rd(a, O, [2, 2, 1], 4, 0, hp),
        CL_INVALID_VALUE,
        "row pitch below the region's row"
    );
    assert_code!(
        rd(a, O, [2, 2, 1], usize::MAX / 2 + 1, 0, hp),
        CL_INVALID_VALUE,
        "a row pitch whose rectangle overflows"
    );
    assert_code!(
        rd(a, O, [2, 2, 1], 0, 64, hp),
        CL_INVALID_VALUE,
        "slice pitch of a 2D image"
    );
    assert_code!(
        rd(buf, O, [1, 1, 1], 0, 0, hp),
        CL_INVALID_MEM_OBJECT,
        "a buffer is not an image"
    );
    assert_code!(
        rd(ho, O, [1, 1, 1], 0, 0, hp),
        CL_INVALID_OPERATION,
        "HOST_NO_ACCESS"
    );
    let r = [2usize, 2, 1];
    assert_code!(
        call!(t; clEnqueueCopyImage(q, a, g, O.as_ptr(), O.as_ptr(), r.as_ptr(), 0, null(), null())),
        CL_IMAGE_FORMAT_MISMATCH
    );
    assert_code!(
        call!(t; clEnqueueCopyImage(q, a, a, O.as_ptr(), [1usize, 1, 0].as_ptr(), r.as_ptr(), 0, null(), null())),
        CL_MEM_COPY_OVERLAP
    );
    assert_code!(
        call!(t; clEnqueueCopyImage(q, a, a, O.as_ptr(), [2usize, 2, 0].as_ptr(), r.as_ptr(), 0, null(), null())),
        CL_SUCCESS,
        "disjoint regions of one image"
    );
    assert_code!(
        call!(t; clEnqueueCopyImage(q, a, a, O.as_ptr(), [3usize, 0, 0].as_ptr(), r.as_ptr(), 0, null(), null())),
        CL_INVALID_VALUE,
        "destination out of bounds"
    );
    assert_code!(
        call!(t; clEnqueueCopyImageToBuffer(q, a, buf, O.as_ptr(), [4usize, 4, 1].as_ptr(), 200, 0, null(), null())),
        CL_INVALID_VALUE,
        "buffer region out of bounds"
    );
    assert_code!(
        call!(t; clEnqueueCopyBufferToImage(q, buf, a, 0, O.as_ptr(), [5usize, 1, 1].as_ptr(), 0, null(), null())),
        CL_INVALID_VALUE,
        "image region out of bounds"
    );
    assert_code!(
        call!(t; clEnqueueCopyImageToBuffer(q, a, a, O.as_ptr(), r.as_ptr(), 0, 0, null(), null())),
        CL_INVALID_MEM_OBJECT,
        "an image as the buffer"
    );
    let color = [0f32; 4];
    assert_code!(
        call!(t; clEnqueueFillImage(q, a, null(), O.as_ptr(), r.as_ptr(), 0, null(), null())),
        CL_INVALID_VALUE,
        "NULL fill_color"
    );
    assert_code!(
        call!(t; clEnqueueFillImage(q, a, color.as_ptr().cast(), O.as_ptr(), [5usize, 1, 1].as_ptr(), 0, null(), null())),
        CL_INVALID_VALUE
    );
    // Buffer commands refuse images.
    assert_code!(
        call!(t; clEnqueueReadBuffer(q, a, CL_TRUE, 0, 4, hp, 0, null(), null())),
        CL_INVALID_MEM_OBJECT,
        "clEnqueueReadBuffer of an image"
    );
    let mut e = 0;
    let mut rp = 0usize;
    let p = call!(t; clEnqueueMapImage(q, a, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, O.as_ptr(), r.as_ptr(), &mut rp, null(), 0, null(), null(), &mut e));
    assert!(p.is_null());
    assert_code!(e, CL_INVALID_VALUE, "READ with WRITE_INVALIDATE_REGION");
    assert_code!(call!(t; clFinish(q)), CL_SUCCESS);
    for o in [a, g, ho, buf] {
        assert_code!(call!(t; clReleaseMemObject(o)), CL_SUCCESS);
    }
    assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
}

fn sampler_objects(t: &Cl) {
    let ctx = t.context();
    let s = sampler(t, ctx, true, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR);
    let get = |s: cl_sampler, p: cl_sampler_info| {
        let mut v = 0u32;
        assert_code!(
            call!(t; clGetSamplerInfo(s, p, 4, (&mut v as *mut u32).cast(), null())),
            CL_SUCCESS
        );
        v
    };
    assert_eq!(get(s, CL_SAMPLER_NORMALIZED_COORDS), CL_TRUE);
    assert_eq!(get(s, CL_SAMPLER_ADDRESSING_MODE), CL_ADDRESS_REPEAT);
    assert_eq!(get(s, CL_SAMPLER_FILTER_MODE), CL_FILTER_LINEAR);
    assert_eq!(get(s, CL_SAMPLER_REFERENCE_COUNT), 1);
    assert_code!(call!(t; clRetainSampler(s)), CL_SUCCESS);
    assert_eq!(get(s, CL_SAMPLER_REFERENCE_COUNT), 2);
    assert_code!(call!(t; clReleaseSampler(s)), CL_SUCCESS);
    let mut c: cl_context = null();
    assert_code!(
        call!(t; clGetSamplerInfo(s, CL_SAMPLER_CONTEXT, 8, (&mut c as *mut cl_context).cast(), null())),
        CL_SUCCESS
    );
    assert_eq!(c, ctx);
    assert_code!(call!(t; clReleaseSampler(s)), CL_SUCCESS);
    // With properties: the defaults are normalized, CLAMP, NEAREST.
    let mut e = 0;
    let s = call!(t; clCreateSamplerWithProperties(ctx, null(), &mut e));
    assert_code!(e, CL_SUCCESS);
    assert_eq!(get(s, CL_SAMPLER_NORMALIZED_COORDS), CL_TRUE);
    assert_eq!(get(s, CL_SAMPLER_ADDRESSING_MODE), CL_ADDRESS_CLAMP);
    assert_eq!(get(s, CL_SAMPLER_FILTER_MODE), CL_FILTER_NEAREST);
    assert_code!(call!(t; clReleaseSampler(s)), CL_SUCCESS);
    let props: [cl_sampler_properties; 5] = [
        CL_SAMPLER_FILTER_MODE as _,
        CL_FILTER_LINEAR as _,
        CL_SAMPLER_NORMALIZED_COORDS as _,
        CL_FALSE as _,
        0,
    ];
    let s = call!(t; clCreateSamplerWithProperties(ctx, props.as_ptr(), &mut e));
    assert_code!(e, CL_SUCCESS);
    assert_eq!(get(s, CL_SAMPLER_FILTER_MODE), CL_FILTER_LINEAR);
    assert_eq!(get(s, CL_SAMPLER_NORMALIZED_COORDS), CL_FALSE);
    let mut back = [0u64; 5];
    let mut n = 0usize;
    assert_code!(
        call!(t; clGetSamplerInfo(s, CL_SAMPLER_PROPERTIES, 40, back.as_mut_ptr().cast(), &mut n)),
        CL_SUCCESS
    );
    assert_eq!((n, back), (40, props));
    assert_code!(call!(t; clReleaseSampler(s)), CL_SUCCESS);
    for (what, props) in [
        (
            "a property twice",
            [
                CL_SAMPLER_FILTER_MODE as u64,
                CL_FILTER_LINEAR as u64,
                CL_SAMPLER_FILTER_MODE as u64,
                CL_FILTER_LINEAR as u64,
                0,
            ],
        ),
        ("an unknown property", [0x9999, 1, 0, 0, 0]),
        (
            "a bad addressing mode",
            [CL_SAMPLER_ADDRESSING_MODE as u64, 0x7777, 0, 0, 0],
        ),
    ] {
        let s = call!(t; clCreateSamplerWithProperties(ctx, props.as_ptr(), &mut e));
        assert!(s.is_null(), "{what}");
        assert_code!(e, CL_INVALID_VALUE, "{what}");
    }
    let s = call!(t; clCreateSampler(ctx, CL_TRUE, 0x7777, CL_FILTER_NEAREST, &mut e));
    assert!(s.is_null());
    assert_code!(e, CL_INVALID_VALUE);
    let s = call!(t; clCreateSampler(ctx, CL_TRUE, CL_ADDRESS_CLAMP, 0x7777, &mut e));
    assert!(s.is_null());
    assert_code!(e, CL_INVALID_VALUE);
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
}

fn kernel_argument_errors(t: &Cl) {
    let ctx = t.context();
    let p = build(
        t,
        ctx,
        "kernel void k(read_only image2d_t a, write_only image2d_t b, sampler_t s, global int *p) {}",
        c"-cl-kernel-arg-info",
    );
    let k = kernel(t, p, c"k");
    let f = fmt(CL_RGBA, CL_UNORM_INT8);
    let d = desc(CL_MEM_OBJECT_IMAGE2D, [2, 2, 0, 0], 0, 0);
    let ro = image(t, ctx, CL_MEM_READ_ONLY, f, d, null());
    let wo = image(t, ctx, CL_MEM_WRITE_ONLY, f, d, null());
    let buf = buffer_with(t, ctx, &[0u8; 16]);
    let s = sampler(t, ctx, false, CL_ADDRESS_NONE, CL_FILTER_NEAREST);
    assert_code!(set_arg(t, k, 0, &ro), CL_SUCCESS);
    assert_code!(
        set_arg(t, k, 0, &wo),
        CL_INVALID_ARG_VALUE,
        "a write-only image for read_only"
    );
    assert_code!(
        set_arg(t, k, 1, &ro),
        CL_INVALID_ARG_VALUE,
        "a read-only image for write_only"
    );
    assert_code!(
        set_arg(t, k, 0, &buf),
        CL_INVALID_MEM_OBJECT,
        "a buffer for an image"
    );
    assert_code!(set_arg(t, k, 0, &0u32), CL_INVALID_ARG_SIZE);
    assert_code!(set_arg(t, k, 2, &s), CL_SUCCESS);
    assert_code!(
        set_arg(t, k, 2, &buf),
        CL_INVALID_SAMPLER,
        "a buffer for a sampler"
    );
    assert_code!(set_arg(t, k, 2, &0u32), CL_INVALID_ARG_SIZE);
    assert_code!(
        set_arg(t, k, 3, &ro),
        CL_INVALID_MEM_OBJECT,
        "an image for a pointer"
    );
    let mut tn = [0u8; 64];
    let mut n = 0usize;
    assert_code!(
        call!(t; clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_NAME, 64, tn.as_mut_ptr().cast(), &mut n)),
        CL_SUCCESS
    );
    assert_eq!(&tn[..n - 1], b"image2d_t");
    let mut access: cl_kernel_arg_access_qualifier = 0;
    assert_code!(
        call!(t; clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_ACCESS_QUALIFIER, 4, (&mut access as *mut u32).cast(), null())),
        CL_SUCCESS
    );
    assert_eq!(access, CL_KERNEL_ARG_ACCESS_WRITE_ONLY);
    assert_code!(call!(t; clReleaseSampler(s)), CL_SUCCESS);
    for o in [ro, wo, buf] {
        assert_code!(call!(t; clReleaseMemObject(o)), CL_SUCCESS);
    }
    assert_code!(call!(t; clReleaseKernel(k)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseProgram(p)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
}

// ------------------------------------------------------------ Rx and RGx

/// `CL_Rx` and `CL_RGx` on the host: stored as one and two channels (the
/// Khronos CTS's layout; the API spec's table calls them two- and
/// three-channel formats whose last channel is ignored), offered with the
/// same data types as `CL_R` and `CL_RG` for every access flag and image
/// type, the element size one (two) channels of the data type, raw bytes
/// through write/read, and a fill that stores r (and g) converted by the
/// spec's rules.
fn rx_rgx_formats(t: &Cl) {
    let ctx = t.context();
    let q = t.queue(ctx, 0);
    for flags in [
        CL_MEM_READ_ONLY,
        CL_MEM_WRITE_ONLY,
        CL_MEM_READ_WRITE,
        CL_MEM_KERNEL_READ_AND_WRITE,
    ] {
        for ty in [
            CL_MEM_OBJECT_IMAGE1D,
            CL_MEM_OBJECT_IMAGE1D_BUFFER,
            CL_MEM_OBJECT_IMAGE1D_ARRAY,
            CL_MEM_OBJECT_IMAGE2D,
            CL_MEM_OBJECT_IMAGE2D_ARRAY,
            CL_MEM_OBJECT_IMAGE3D,
        ] {
            let mut n: cl_uint = 0;
            assert_code!(
                call!(t; clGetSupportedImageFormats(ctx, flags, ty, 0, null(), &mut n)),
                CL_SUCCESS
            );
            let mut list = vec![fmt(0, 0); n as usize];
            assert_code!(
                call!(t; clGetSupportedImageFormats(ctx, flags, ty, n, list.as_mut_ptr(), null())),
                CL_SUCCESS
            );
            let types_of = |o| {
                let mut v: Vec<cl_channel_type> = list
                    .iter()
                    .filter(|f| f.image_channel_order == o)
                    .map(|f| f.image_channel_data_type)
                    .collect();
                v.sort();
                v
            };
            for (x, base) in [(CL_Rx, CL_R), (CL_RGx, CL_RG)] {
                assert!(
                    !types_of(x).is_empty(),
                    "{x:#x} listed for type {ty:#x} flags {flags:#x}"
                );
                assert_eq!(
                    types_of(x),
                    types_of(base),
                    "{x:#x} and {base:#x} types for type {ty:#x} flags {flags:#x}"
                );
            }
        }
    }
    // CL_IMAGE_ELEMENT_SIZE: channels × bytes of one channel.
    let d2 = desc(CL_MEM_OBJECT_IMAGE2D, [3, 2, 0, 0], 0, 0);
    for (ty, bytes) in [
        (CL_UNORM_INT8, 1usize),
        (CL_SNORM_INT16, 2),
        (CL_SIGNED_INT32, 4),
        (CL_UNSIGNED_INT16, 2),
        (CL_HALF_FLOAT, 2),
        (CL_FLOAT, 4),
    ] {
        for (o, channels) in [(CL_Rx, 1usize), (CL_RGx, 2)] {
            let m = image(t, ctx, CL_MEM_READ_WRITE, fmt(o, ty), d2, null());
            let es = channels * bytes;
            assert_eq!(
                image_info::<usize>(t, m, CL_IMAGE_ELEMENT_SIZE),
                es,
                "element size of {o:#x}/{ty:#x}"
            );
            assert_eq!(image_info::<usize>(t, m, CL_IMAGE_ROW_PITCH), 3 * es);
            // The bytes of a write come back from a read (pitch 3 × es).
            let data: Vec<u8> = (0..6 * es).map(|i| (i * 37 + 5) as u8).collect();
            write(t, q, m, O, [3, 2, 1], 0, 0, data.as_ptr().cast());
            let mut back = vec![0u8; 6 * es];
            read(t, q, m, O, [3, 2, 1], 0, 0, back.as_mut_ptr().cast());
            assert_eq!(back, data, "{o:#x}/{ty:#x} bytes");
            assert_code!(call!(t; clReleaseMemObject(m)), CL_SUCCESS);
        }
    }
    // Fills: UNORM_INT8 stores rte(c × 255) of r (and g); SIGNED_INT16 the
    // integer r (and g) saturated.
    let colour = [0.5f32, 0.25, 0.75, 0.0];
    let unorm = |c: f32| (c * 255.0).round_ties_even() as u8;
    let ints = [-5i32, 40000, 9, 11];
    for (o, channels) in [(CL_Rx, 1usize), (CL_RGx, 2)] {
        let m = image(t, ctx, CL_MEM_READ_WRITE, fmt(o, CL_UNORM_INT8), d2, null());
        assert_code!(
            call!(t; clEnqueueFillImage(q, m, colour.as_ptr().cast(), O.as_ptr(), [3usize, 2, 1].as_ptr(), 0, null(), null())),
            CL_SUCCESS
        );
        let mut back = vec![0u8; 6 * channels];
        read(t, q, m, O, [3, 2, 1], 0, 0, back.as_mut_ptr().cast());
        for px in back.chunks(channels) {
            let want: Vec<u8> = colour[..channels].iter().map(|&c| unorm(c)).collect();
            assert_eq!(px, &want[..], "{o:#x} UNORM_INT8 fill");
        }
        assert_code!(call!(t; clReleaseMemObject(m)), CL_SUCCESS);
        let m = image(
            t,
            ctx,
            CL_MEM_READ_WRITE,
            fmt(o, CL_SIGNED_INT16),
            d2,
            null(),
        );
        assert_code!(
            call!(t; clEnqueueFillImage(q, m, ints.as_ptr().cast(), O.as_ptr(), [3usize, 2, 1].as_ptr(), 0, null(), null())),
            CL_SUCCESS
        );
        let mut back = vec![0i16; 6 * channels];
        read(t, q, m, O, [3, 2, 1], 0, 0, back.as_mut_ptr().cast());
        for px in back.chunks(channels) {
            let want: Vec<i16> = ints[..channels]
                .iter()
                .map(|&c| c.clamp(-32768, 32767) as i16)
                .collect();
            assert_eq!(px, &want[..], "{o:#x} SIGNED_INT16 fill");
        }
        assert_code!(call!(t; clReleaseMemObject(m)), CL_SUCCESS);
    }
    assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
}

both_ways!(
    device_limits_and_formats,
    create_and_query_each_type,
    write_read_with_pitches,
    use_host_ptr_and_map,
    copy_fill_and_buffers,
    creation_errors,
    command_errors,
    sampler_objects,
    kernel_argument_errors,
    rx_rgx_formats,
);

// ------------------------------------------------------------ the reference

/// The spec's nearest-filter index along one axis of `n` texels; `None`
/// where the result is undefined (no addressing, outside the image).
fn ref_nearest(s: f32, n: i64, norm: bool, am: cl_addressing_mode) -> Option<i64> {
    let nf = n as f32;
    Some(match am {
        CL_ADDRESS_REPEAT => {
            let u = (s - s.floor()) * nf;
            let i = u.floor() as i64;
            if i > n - 1 {
                i - n
            } else {
                i
            }
        }
        CL_ADDRESS_MIRRORED_REPEAT => {
            let s2 = 2.0 * (0.5 * s).round_ties_even();
            let u = (s - s2).abs() * nf;
            (u.floor() as i64).min(n - 1)
        }
        _ => {
            let u = if norm { s * nf } else { s };
            let i = u.floor() as i64;
            match am {
                CL_ADDRESS_CLAMP_TO_EDGE => i.clamp(0, n - 1),
                CL_ADDRESS_CLAMP => i.clamp(-1, n),
                _ if (0..n).contains(&i) => i,
                _ => return None,
            }
        }
    })
}

/// The spec's linear-filter indices and weight along one axis.
fn ref_linear(s: f32, n: i64, norm: bool, am: cl_addressing_mode) -> Option<(i64, i64, f32)> {
    let nf = n as f32;
    let frac = |v: f32| v - v.floor();
    Some(match am {
        CL_ADDRESS_REPEAT => {
            let u = (s - s.floor()) * nf;
            let mut i0 = (u - 0.5).floor() as i64;
            let mut i1 = i0 + 1;
            if i0 < 0 {
                i0 += n;
            }
            if i1 > n - 1 {
                i1 -= n;
            }
            (i0, i1, frac(u - 0.5))
        }
        CL_ADDRESS_MIRRORED_REPEAT => {
            let s2 = 2.0 * (0.5 * s).round_ties_even();
            let u = (s - s2).abs() * nf;
            let i0 = (u - 0.5).floor() as i64;
            (i0.max(0), (i0 + 1).min(n - 1), frac(u - 0.5))
        }
        _ => {
            let u = if norm { s * nf } else { s };
            let i0 = (u - 0.5).floor() as i64;
            let a = frac(u - 0.5);
            match am {
                CL_ADDRESS_CLAMP_TO_EDGE => (i0.clamp(0, n - 1), (i0 + 1).clamp(0, n - 1), a),
                CL_ADDRESS_CLAMP => (i0.clamp(-1, n), (i0 + 1).clamp(-1, n), a),
                _ if i0 >= 0 && i0 + 1 < n => (i0, i0 + 1, a),
                _ => return None,
            }
        }
    })
}

/// A FLOAT RGBA image's contents: texel (x, y, z) of the store.
fn texel_value(x: i64, y: i64, z: i64, c: usize) -> f32 {
    (x + 10 * y + 100 * z) as f32 + 0.25 * c as f32
}

/// The reference read of a FLOAT RGBA image of store extent `e` (layers in
/// z), `axes` coordinates addressing texels and `layer` the coordinate
/// holding an array's layer; `None` where the spec leaves it undefined.
fn reference(
    e: [i64; 3],
    axes: usize,
    layer: Option<usize>,
    norm: bool,
    am: cl_addressing_mode,
    linear: bool,
    c: [f32; 4],
) -> Option<[f32; 4]> {
    let texel = |p: [i64; 3]| std::array::from_fn(|ch| texel_value(p[0], p[1], p[2], ch));
    reference_of(&texel, e, axes, layer, norm, am, linear, c)
}

/// [`reference`] of an image of RGBA texels `texel(p)` (an order with
/// alpha: the border colour is (0, 0, 0, 0)).
#[allow(clippy::too_many_arguments)]
fn reference_of(
    texel: &dyn Fn([i64; 3]) -> [f32; 4],
    e: [i64; 3],
    axes: usize,
    layer: Option<usize>,
    norm: bool,
    am: cl_addressing_mode,
    linear: bool,
    c: [f32; 4],
) -> Option<[f32; 4]> {
    let fetch = |p: [i64; 3]| -> [f32; 4] {
        if (0..3).all(|k| p[k] >= 0 && p[k] < e[k]) {
            texel(p)
        } else {
            [0.0; 4] // the border colour of RGBA
        }
    };
    let mut base = [0i64; 3];
    if let Some(l) = layer {
        base[2] = (c[l].round_ties_even() as i64).clamp(0, e[2] - 1);
    }
    if !linear {
        let mut p = base;
        for k in 0..axes {
            p[k] = ref_nearest(c[k], e[k], norm, am)?;
        }
        return Some(fetch(p));
    }
    let mut ax = Vec::new();
    for k in 0..axes {
        ax.push(ref_linear(c[k], e[k], norm, am)?);
    }
    let mut out = [0f32; 4];
    for corner in 0..(1 << axes) {
        let mut p = base;
        let mut w = 1f32;
        for (k, &(i0, i1, a)) in ax.iter().enumerate() {
            if corner >> k & 1 == 1 {
                p[k] = i1;
                w *= a;
            } else {
                p[k] = i0;
                w *= 1.0 - a;
            }
        }
        let t = fetch(p);
        for ch in 0..4 {
            out[ch] += w * t[ch];
        }
    }
    Some(out)
}

/// One image type of the sampling matrix.
struct Kind {
    ty: cl_mem_object_type,
    size: [usize; 4],
    /// Store extent (layers along z).
    extent: [i64; 3],
    axes: usize,
    layer: Option<usize>,
    /// The kernel's image type and coordinate type.
    cl: &'static str,
    coord: &'static str,
    /// How the coordinate is made from a float4 `c`.
    make: &'static str,
}

fn kinds() -> Vec<Kind> {
    vec![
        Kind {
            ty: CL_MEM_OBJECT_IMAGE1D,
            size: [5, 0, 0, 0],
            extent: [5, 1, 1],
            axes: 1,
            layer: None,
            cl: "image1d_t",
            coord: "float",
            make: "c.x",
        },
        Kind {
            ty: CL_MEM_OBJECT_IMAGE1D_ARRAY,
            size: [5, 0, 0, 3],
            extent: [5, 1, 3],
            axes: 1,
            layer: Some(1),
            cl: "image1d_array_t",
            coord: "float2",
            make: "c.xy",
        },
        Kind {
            ty: CL_MEM_OBJECT_IMAGE2D,
            size: [5, 4, 0, 0],
            extent: [5, 4, 1],
            axes: 2,
            layer: None,
            cl: "image2d_t",
            coord: "float2",
            make: "c.xy",
        },
        Kind {
            ty: CL_MEM_OBJECT_IMAGE2D_ARRAY,
            size: [5, 4, 0, 3],
            extent: [5, 4, 3],
            axes: 2,
            layer: Some(2),
            cl: "image2d_array_t",
            coord: "float4",
            make: "c",
        },
        Kind {
            ty: CL_MEM_OBJECT_IMAGE3D,
            size: [5, 4, 3, 0],
            extent: [5, 4, 3],
            axes: 3,
            layer: None,
            cl: "image3d_t",
            coord: "float4",
            make: "c",
        },
    ]
}

/// A FLOAT RGBA image of `kind` holding `texel_value`.
fn float_image(t: &Cl, ctx: cl_context, kind: &Kind) -> cl_mem {
    let [w, h, d] = kind.extent.map(|v| v as usize);
    let mut data = Vec::with_capacity(w * h * d * 4);
    for z in 0..d {
        for y in 0..h {
            for x in 0..w {
                for c in 0..4 {
                    data.push(texel_value(x as i64, y as i64, z as i64, c));
                }
            }
        }
    }
    image(
        t,
        ctx,
        CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
        fmt(CL_RGBA, CL_FLOAT),
        desc(kind.ty, kind.size, 0, 0),
        data.as_mut_ptr().cast(),
    )
}

/// Unnormalized sample positions along an axis of `n` texels: inside,
/// on texel centres and edges, and outside on both sides.
fn positions(n: i64) -> Vec<f32> {
    let n = n as f32;
    vec![
        -2.3,
        -0.6,
        -0.1,
        0.0,
        0.3,
        0.5,
        0.8,
        1.25,
        1.5,
        1.9,
        2.6,
        n - 1.4,
        n - 0.5,
        n - 0.2,
        n,
        n + 0.4,
        n + 1.7,
        2.0 * n + 0.3,
    ]
}

/// The coordinates of sample `i` (unnormalized along the texel axes).
fn sample_coord(kind: &Kind, i: usize) -> [f32; 4] {
    let mut c = [0f32; 4];
    for (k, v) in c.iter_mut().enumerate().take(kind.axes) {
        let p = positions(kind.extent[k]);
        *v = p[(i * (2 * k + 1) + 3 * k) % p.len()];
    }
    if let Some(l) = kind.layer {
        let layers = [-0.7f32, 0.4, 1.5, 2.5, 1.2, 5.3];
        c[l] = layers[i % layers.len()];
    }
    c
}

const SAMPLES: usize = 40;

/// Read every sample with a kernel and compare with the reference.
#[allow(clippy::too_many_arguments)]
fn check_samples(
    kind: &Kind,
    norm: bool,
    am: cl_addressing_mode,
    linear: bool,
    coords: &[[f32; 4]],
    got: &[[f32; 4]],
    what: &str,
) {
    for (i, (c, g)) in coords.iter().zip(got).enumerate() {
        let Some(want) = reference(kind.extent, kind.axes, kind.layer, norm, am, linear, *c) else {
            continue;
        };
        for ch in 0..4 {
            let ok = if linear {
                (g[ch] - want[ch]).abs() <= 1e-3 * want[ch].abs().max(1.0)
            } else {
                g[ch] == want[ch]
            };
            assert!(
                ok,
                "{what}: {} sample {i} at {c:?}: got {g:?}, want {want:?}",
                kind.cl
            );
        }
    }
}

fn sampling_matrix(t: &Cl) {
    let ctx = t.context();
    let q = t.queue(ctx, 0);
    for kind in kinds() {
        let src = format!(
            "kernel void k(read_only {img} im, sampler_t s, global const float4 *cs, global float4 *out) {{
                size_t i = get_global_id(0);
                float4 c = cs[i];
                out[i] = read_imagef(im, s, ({coord})({make}));
            }}",
            img = kind.cl,
            coord = kind.coord,
            make = kind.make
        );
        let p = build(t, ctx, &src, c"");
        let k = kernel(t, p, c"k");
        let im = float_image(t, ctx, &kind);
        let out = buffer_with(t, ctx, &[[0f32; 4]; SAMPLES]);
        assert_code!(set_arg(t, k, 0, &im), CL_SUCCESS);
        assert_code!(set_arg(t, k, 3, &out), CL_SUCCESS);
        for norm in [false, true] {
            for am in [
                CL_ADDRESS_NONE,
                CL_ADDRESS_CLAMP_TO_EDGE,
                CL_ADDRESS_CLAMP,
                CL_ADDRESS_REPEAT,
                CL_ADDRESS_MIRRORED_REPEAT,
            ] {
                if !norm && (am == CL_ADDRESS_REPEAT || am == CL_ADDRESS_MIRRORED_REPEAT) {
                    continue; // only with normalized coordinates
                }
                for filter in [CL_FILTER_NEAREST, CL_FILTER_LINEAR] {
                    let coords: Vec<[f32; 4]> = (0..SAMPLES)
                        .map(|i| {
                            let mut c = sample_coord(&kind, i);
                            if norm {
                                for (v, e) in c.iter_mut().zip(kind.extent).take(kind.axes) {
                                    *v /= e as f32;
                                }
                            }
                            c
                        })
                        .collect();
                    let cb = buffer_with(t, ctx, &coords);
                    let s = sampler(t, ctx, norm, am, filter);
                    assert_code!(set_arg(t, k, 1, &s), CL_SUCCESS);
                    assert_code!(set_arg(t, k, 2, &cb), CL_SUCCESS);
                    run(t, q, k, &[SAMPLES]);
                    let got: Vec<[f32; 4]> = read_buffer(t, q, out, SAMPLES);
                    let what = format!("normalized {norm}, addressing {am:#x}, filter {filter:#x}");
                    check_samples(
                        &kind,
                        norm,
                        am,
                        filter == CL_FILTER_LINEAR,
                        &coords,
                        &got,
                        &what,
                    );
                    assert_code!(call!(t; clReleaseSampler(s)), CL_SUCCESS);
                    assert_code!(call!(t; clReleaseMemObject(cb)), CL_SUCCESS);
                }
            }
        }
        for o in [im, out] {
            assert_code!(call!(t; clReleaseMemObject(o)), CL_SUCCESS);
        }
        assert_code!(call!(t; clReleaseKernel(k)), CL_SUCCESS);
        assert_code!(call!(t; clReleaseProgram(p)), CL_SUCCESS);
    }
    assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
}

/// RGBA and BGRA `UNORM_INT8` 2D images read as float through every
/// sampler (the lanes read four work-items in one call; these formats in
/// SIMD) and without one, each value written back to a FLOAT and a
/// `UNORM_INT8` image: every sample against the spec's formulas, every
/// written texel against the value read.
fn unorm8_reads_and_writes(t: &Cl) {
    const W: usize = 6;
    const H: usize = 5;
    let ctx = t.context();
    let q = t.queue(ctx, 0);
    let src = format!(
        "kernel void k(read_only image2d_t im, sampler_t s, global const float2 *cs,
                       global float4 *got, global float4 *direct,
                       write_only image2d_t outf, write_only image2d_t out8) {{
            int i = get_global_id(0);
            float4 v = read_imagef(im, s, cs[i]);
            got[i] = v;
            direct[i] = read_imagef(im, (int2)(i % {W}, (i / {W}) % {H}));
            int2 at = (int2)(i % 16, i / 16);
            write_imagef(outf, at, v);
            write_imagef(out8, at, v);
        }}"
    );
    let p = build(t, ctx, &src, c"");
    let k = kernel(t, p, c"k");
    // Channel bytes that differ between neighbours and channels, 0 and 255
    // among them.
    let byte = |x: i64, y: i64, c: usize| ((x * 67 + y * 29 + c as i64 * 101) % 256) as u8;
    let positions = |n: f32| {
        [
            -1.3,
            -0.4,
            0.0,
            0.2,
            0.5,
            0.9,
            1.5,
            2.25,
            3.7,
            n - 0.5,
            n - 0.1,
            n,
            n + 0.6,
        ]
    };
    let mut coords = Vec::new();
    for (i, x) in positions(W as f32).into_iter().enumerate() {
        for (j, y) in positions(H as f32).into_iter().enumerate() {
            if (i + j) % 2 == 0 {
                coords.push([x, y]);
            }
        }
    }
    let n = coords.len().next_multiple_of(16);
    coords.resize(n, [1.5, 1.5]);
    let rows = n / 16;
    for o in [CL_RGBA, CL_BGRA] {
        // Memory order: r, g, b, a or b, g, r, a.
        let mem = |x: i64, y: i64, m: usize| {
            let c = if o == CL_BGRA { [2, 1, 0, 3][m] } else { m };
            byte(x, y, c)
        };
        let mut data: Vec<u8> = (0..H * W * 4)
            .map(|b| mem(((b / 4) % W) as i64, (b / 4 / W) as i64, b % 4))
            .collect();
        let im = image(
            t,
            ctx,
            CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
            fmt(o, CL_UNORM_INT8),
            desc(CL_MEM_OBJECT_IMAGE2D, [W, H, 0, 0], 0, 0),
            data.as_mut_ptr().cast(),
        );
        let outf = image(
            t,
            ctx,
            CL_MEM_WRITE_ONLY,
            fmt(CL_RGBA, CL_FLOAT),
            desc(CL_MEM_OBJECT_IMAGE2D, [16, rows, 0, 0], 0, 0),
            std::ptr::null_mut(),
        );
        let out8 = image(
            t,
            ctx,
            CL_MEM_WRITE_ONLY,
            fmt(o, CL_UNORM_INT8),
            desc(CL_MEM_OBJECT_IMAGE2D, [16, rows, 0, 0], 0, 0),
            std::ptr::null_mut(),
        );
        let texel = |p: [i64; 3]| std::array::from_fn(|c| f32::from(byte(p[0], p[1], c)) / 255.0);
        for norm in [false, true] {
            for am in [
                CL_ADDRESS_NONE,
                CL_ADDRESS_CLAMP_TO_EDGE,
                CL_ADDRESS_CLAMP,
                CL_ADDRESS_REPEAT,
                CL_ADDRESS_MIRRORED_REPEAT,
            ] {
                if !norm && (am == CL_ADDRESS_REPEAT || am == CL_ADDRESS_MIRRORED_REPEAT) {
                    continue;
                }
                for filter in [CL_FILTER_NEAREST, CL_FILTER_LINEAR] {
                    let cs: Vec<[f32; 2]> = coords
                        .iter()
                        .map(|&[x, y]| {
                            if norm {
                                [x / W as f32, y / H as f32]
                            } else {
                                [x, y]
                            }
                        })
                        .collect();
                    let cb = buffer_with(t, ctx, &cs);
                    let got_b = buffer_with(t, ctx, &vec![[0f32; 4]; n]);
                    let direct_b = buffer_with(t, ctx, &vec![[0f32; 4]; n]);
                    let s = sampler(t, ctx, norm, am, filter);
                    for (i, m) in [im, s, cb, got_b, direct_b, outf, out8].iter().enumerate() {
                        assert_code!(set_arg(t, k, i as u32, m), CL_SUCCESS);
                    }
                    run(t, q, k, &[n]);
                    let got: Vec<[f32; 4]> = read_buffer(t, q, got_b, n);
                    let direct: Vec<[f32; 4]> = read_buffer(t, q, direct_b, n);
                    let mut back_f = vec![[0f32; 4]; n];
                    read(
                        t,
                        q,
                        outf,
                        O,
                        [16, rows, 1],
                        0,
                        0,
                        back_f.as_mut_ptr().cast(),
                    );
                    let mut back_8 = vec![[0u8; 4]; n];
                    read(
                        t,
                        q,
                        out8,
                        O,
                        [16, rows, 1],
                        0,
                        0,
                        back_8.as_mut_ptr().cast(),
                    );
                    let what = format!(
                        "order {o:#x}, normalized {norm}, addressing {am:#x}, filter {filter:#x}"
                    );
                    let linear = filter == CL_FILTER_LINEAR;
                    let e = [W as i64, H as i64, 1];
                    for i in 0..n {
                        let c = [cs[i][0], cs[i][1], 0.0, 0.0];
                        if let Some(want) = reference_of(&texel, e, 2, None, norm, am, linear, c) {
                            for ch in 0..4 {
                                let ok = if linear {
                                    (got[i][ch] - want[ch]).abs() <= 1e-5
                                } else {
                                    got[i][ch] == want[ch]
                                };
                                assert!(
                                    ok,
                                    "{what}: sample {i} at {c:?}: got {:?}, want {want:?}",
                                    got[i]
                                );
                            }
                        }
                        let (x, y) = ((i % W) as i64, ((i / W) % H) as i64);
                        assert_eq!(
                            direct[i],
                            texel([x, y, 0]),
                            "{what}: read_imagef(im, ({x}, {y}))"
                        );
                        let bits = |v: [f32; 4]| v.map(f32::to_bits);
                        assert_eq!(
                            bits(back_f[i]),
                            bits(got[i]),
                            "{what}: FLOAT texel {i} written"
                        );
                        let want8 = got[i].map(unorm8);
                        let want8 = if o == CL_BGRA {
                            [want8[2], want8[1], want8[0], want8[3]]
                        } else {
                            want8
                        };
                        assert_eq!(back_8[i], want8, "{what}: UNORM_INT8 texel {i} written");
                    }
                    assert_code!(call!(t; clReleaseSampler(s)), CL_SUCCESS);
                    for m in [cb, got_b, direct_b] {
                        assert_code!(call!(t; clReleaseMemObject(m)), CL_SUCCESS);
                    }
                }
            }
        }
        for m in [im, outf, out8] {
            assert_code!(call!(t; clReleaseMemObject(m)), CL_SUCCESS);
        }
    }
    assert_code!(call!(t; clReleaseKernel(k)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseProgram(p)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
}

/// Samplers written in the source: a program-scope `constant sampler_t`,
/// a local `sampler_t` variable and a literal at the call; integer coordinates with a sampler and
/// without one; every `get_image_*` query.
fn samplers_in_source_and_queries(t: &Cl) {
    let ctx = t.context();
    let q = t.queue(ctx, 0);
    let src = "
        constant sampler_t edge = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT | CLK_FILTER_LINEAR;
        kernel void k(read_only image2d_t im, global const float4 *cs, global float4 *a, global float4 *b,
                      global float4 *c, global float4 *d) {
            size_t i = get_global_id(0);
            float2 p = cs[i].xy;
            a[i] = read_imagef(im, edge, p);
            sampler_t local_s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
            b[i] = read_imagef(im, local_s, p);
            int2 ip = convert_int2_rtn(p);
            c[i] = read_imagef(im, CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST, ip);
            // (a literal sampler at the call)
            if (ip.x >= 0 && ip.y >= 0 && ip.x < get_image_width(im) && ip.y < get_image_height(im))
                d[i] = read_imagef(im, ip);
            else
                d[i] = (float4)(-1.0f);
        }
        kernel void queries(read_only image3d_t a, write_only image2d_array_t b, read_only image1d_array_t c,
                            read_only image1d_t e, global int *out, global long *sizes) {
            int4 d3 = get_image_dim(a);
            int2 d2 = get_image_dim(b);
            out[0] = get_image_width(a); out[1] = get_image_height(a); out[2] = get_image_depth(a);
            out[3] = d3.x; out[4] = d3.y; out[5] = d3.z; out[6] = d3.w;
            out[7] = d2.x; out[8] = d2.y; out[9] = get_image_width(c); out[10] = get_image_width(e);
            out[11] = get_image_channel_order(a); out[12] = get_image_channel_data_type(a);
            out[13] = get_image_channel_order(b) == CLK_R; out[14] = get_image_channel_data_type(b) == CLK_HALF_FLOAT;
            sizes[0] = get_image_array_size(b); sizes[1] = get_image_array_size(c);
        }";
    let p = build(t, ctx, src, c"-cl-std=CL3.0");
    let k = kernel(t, p, c"k");
    let kinds = kinds();
    let kind = &kinds[2];
    let im = float_image(t, ctx, kind);
    let coords: Vec<[f32; 4]> = (0..SAMPLES).map(|i| sample_coord(kind, i)).collect();
    let norm_coords: Vec<[f32; 4]> = coords
        .iter()
        .map(|c| [c[0] / 5.0, c[1] / 4.0, 0.0, 0.0])
        .collect();
    // The constant sampler reads normalized coordinates: a separate run.
    let cb = buffer_with(t, ctx, &coords);
    let ncb = buffer_with(t, ctx, &norm_coords);
    let outs: Vec<cl_mem> = (0..4)
        .map(|_| buffer_with(t, ctx, &[[0f32; 4]; SAMPLES]))
        .collect();
    assert_code!(set_arg(t, k, 0, &im), CL_SUCCESS);
    for (i, o) in outs.iter().enumerate() {
        assert_code!(set_arg(t, k, 2 + i as u32, o), CL_SUCCESS);
    }
    assert_code!(set_arg(t, k, 1, &ncb), CL_SUCCESS);
    run(t, q, k, &[SAMPLES]);
    let a: Vec<[f32; 4]> = read_buffer(t, q, outs[0], SAMPLES);
    check_samples(
        kind,
        true,
        CL_ADDRESS_MIRRORED_REPEAT,
        true,
        &norm_coords,
        &a,
        "constant sampler",
    );
    assert_code!(set_arg(t, k, 1, &cb), CL_SUCCESS);
    run(t, q, k, &[SAMPLES]);
    let b: Vec<[f32; 4]> = read_buffer(t, q, outs[1], SAMPLES);
    check_samples(
        kind,
        false,
        CL_ADDRESS_CLAMP,
        false,
        &coords,
        &b,
        "literal sampler",
    );
    let c: Vec<[f32; 4]> = read_buffer(t, q, outs[2], SAMPLES);
    let d: Vec<[f32; 4]> = read_buffer(t, q, outs[3], SAMPLES);
    for i in 0..SAMPLES {
        let ip = [coords[i][0].floor(), coords[i][1].floor(), 0.0, 0.0];
        let want = reference(
            kind.extent,
            2,
            None,
            false,
            CL_ADDRESS_CLAMP_TO_EDGE,
            false,
            ip,
        )
        .unwrap();
        assert_eq!(c[i], want, "integer coordinates {ip:?} with a sampler");
        let inside = ip[0] >= 0.0 && ip[1] >= 0.0 && ip[0] < 5.0 && ip[1] < 4.0;
        if inside {
            let want = reference(kind.extent, 2, None, false, CL_ADDRESS_NONE, false, ip).unwrap();
            assert_eq!(d[i], want, "a read without a sampler at {ip:?}");
        }
    }
    // The queries.
    let kq = kernel(t, p, c"queries");
    let a3 = image(
        t,
        ctx,
        CL_MEM_READ_ONLY,
        fmt(CL_RGBA, CL_UNORM_INT16),
        desc(CL_MEM_OBJECT_IMAGE3D, [6, 5, 4, 0], 0, 0),
        null(),
    );
    let b2 = image(
        t,
        ctx,
        CL_MEM_WRITE_ONLY,
        fmt(CL_R, CL_HALF_FLOAT),
        desc(CL_MEM_OBJECT_IMAGE2D_ARRAY, [9, 8, 0, 7], 0, 0),
        null(),
    );
    let c1 = image(
        t,
        ctx,
        CL_MEM_READ_ONLY,
        fmt(CL_RG, CL_FLOAT),
        desc(CL_MEM_OBJECT_IMAGE1D_ARRAY, [11, 0, 0, 5], 0, 0),
        null(),
    );
    let e1 = image(
        t,
        ctx,
        CL_MEM_READ_ONLY,
        fmt(CL_RGBA, CL_FLOAT),
        desc(CL_MEM_OBJECT_IMAGE1D, [13, 0, 0, 0], 0, 0),
        null(),
    );
    let out = buffer_with(t, ctx, &[0i32; 16]);
    let sizes = buffer_with(t, ctx, &[0i64; 2]);
    for (i, m) in [a3, b2, c1, e1, out, sizes].iter().enumerate() {
        assert_code!(set_arg(t, kq, i as u32, m), CL_SUCCESS);
    }
    run(t, q, kq, &[1]);
    let o: Vec<i32> = read_buffer(t, q, out, 15);
    assert_eq!(
        o,
        vec![
            6,
            5,
            4,
            6,
            5,
            4,
            0,
            9,
            8,
            11,
            13,
            CL_RGBA as i32,
            CL_UNORM_INT16 as i32,
            1,
            1
        ]
    );
    let s: Vec<i64> = read_buffer(t, q, sizes, 2);
    assert_eq!(s, vec![7, 5]);
    for m in [im, cb, ncb, a3, b2, c1, e1, out, sizes]
        .iter()
        .chain(&outs)
    {
        assert_code!(call!(t; clReleaseMemObject(*m)), CL_SUCCESS);
    }
    for kk in [k, kq] {
        assert_code!(call!(t; clReleaseKernel(kk)), CL_SUCCESS);
    }
    assert_code!(call!(t; clReleaseProgram(p)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
}

/// `float` to `half` bits, rounded to nearest even, written here from
/// IEEE 754's definition (for normal results).
fn half_rte(f: f32) -> u16 {
    let b = f.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = ((b >> 23) & 0xff) as i32 - 127 + 15;
    assert!((1..31).contains(&exp), "a normal half");
    let man = b & 0x7f_ffff;
    let mut h = ((exp as u32) << 10) | (man >> 13);
    let rest = man & 0x1fff;
    if rest > 0x1000 || (rest == 0x1000 && h & 1 == 1) {
        h += 1;
    }
    sign | h as u16
}

/// Writes and reads through every conversion rule: normalized integers
/// (round to nearest even, saturation), half (round to nearest even),
/// integers (saturation), missing channels on read.
fn conversions(t: &Cl) {
    let ctx = t.context();
    let q = t.queue(ctx, 0);
    let src = "
        kernel void wf(write_only image1d_t im, global const float4 *v) {
            int i = get_global_id(0); write_imagef(im, i, v[i]);
        }
        kernel void wi(write_only image1d_t im, global const int4 *v) {
            int i = get_global_id(0); write_imagei(im, i, v[i]);
        }
        kernel void wu(write_only image1d_t im, global const uint4 *v) {
            int i = get_global_id(0); write_imageui(im, i, v[i]);
        }
        kernel void rf(read_only image1d_t im, global float4 *o) {
            int i = get_global_id(0); o[i] = read_imagef(im, i);
        }
        kernel void ri(read_only image1d_t im, global int4 *o) {
            int i = get_global_id(0); o[i] = read_imagei(im, i);
        }
        kernel void ru(read_only image1d_t im, global uint4 *o) {
            int i = get_global_id(0); o[i] = read_imageui(im, i);
        }";
    let p = build(t, ctx, src, c"-cl-std=CL3.0");
    let n = 4usize;
    let d1 = desc(CL_MEM_OBJECT_IMAGE1D, [n, 0, 0, 0], 0, 0);
    let launch = |name: &std::ffi::CStr, im: cl_mem, buf: cl_mem| {
        let k = kernel(t, p, name);
        assert_code!(set_arg(t, k, 0, &im), CL_SUCCESS);
        assert_code!(set_arg(t, k, 1, &buf), CL_SUCCESS);
        run(t, q, k, &[n]);
        assert_code!(call!(t; clReleaseKernel(k)), CL_SUCCESS);
    };
    // UNORM_INT8 and SNORM_INT8 writes.
    let fv: Vec<[f32; 4]> = vec![
        [0.5, 1.5 / 255.0, 2.5 / 255.0, -0.1],
        [1.0, 2.0, f32::NAN, 0.25],
        [0.0, 0.999, 0.001, 100.0 / 255.0],
        [0.75, 0.2, 0.6, 0.9],
    ];
    let vb = buffer_with(t, ctx, &fv);
    let u8im = image(
        t,
        ctx,
        CL_MEM_READ_WRITE,
        fmt(CL_RGBA, CL_UNORM_INT8),
        d1,
        null(),
    );
    launch(c"wf", u8im, vb);
    let mut got = vec![0u8; n * 4];
    read(t, q, u8im, O, [n, 1, 1], 0, 0, got.as_mut_ptr().cast());
    let want: Vec<u8> = fv.iter().flatten().map(|&f| unorm8(f)).collect();
    assert_eq!(got, want, "write_imagef to UNORM_INT8");
    // Reading it back: c / 255.
    let fo = buffer_with(t, ctx, &[[0f32; 4]; 4]);
    launch(c"rf", u8im, fo);
    let back: Vec<[f32; 4]> = read_buffer(t, q, fo, n);
    for (i, px) in back.iter().enumerate() {
        for ch in 0..4 {
            let want = want[i * 4 + ch] as f32 / 255.0;
            assert!(
                (px[ch] - want).abs() <= want * 2.0 * f32::EPSILON,
                "read_imagef of UNORM_INT8 {}",
                want * 255.0
            );
        }
    }
    let s8im = image(
        t,
        ctx,
        CL_MEM_READ_WRITE,
        fmt(CL_RGBA, CL_SNORM_INT8),
        d1,
        null(),
    );
    launch(c"wf", s8im, vb);
    let mut got = vec![0i8; n * 4];
    read(t, q, s8im, O, [n, 1, 1], 0, 0, got.as_mut_ptr().cast());
    let want: Vec<i8> = fv
        .iter()
        .flatten()
        .map(|&f| {
            if f.is_nan() {
                0
            } else {
                (f * 127.0).round_ties_even().clamp(-128.0, 127.0) as i8
            }
        })
        .collect();
    assert_eq!(got, want, "write_imagef to SNORM_INT8");
    launch(c"rf", s8im, fo);
    let back: Vec<[f32; 4]> = read_buffer(t, q, fo, n);
    for (i, px) in back.iter().enumerate() {
        for ch in 0..4 {
            let want = (want[i * 4 + ch] as f32 / 127.0).max(-1.0);
            assert!((px[ch] - want).abs() <= want.abs() * 2.0 * f32::EPSILON);
        }
    }
    // HALF_FLOAT: round to nearest even.
    let one = 1.0f32;
    let ulp = f32::powi(2.0, -10);
    let hv: Vec<[f32; 4]> = vec![
        [
            one + ulp / 2.0,
            one + 1.5 * ulp,
            one + 0.75 * ulp,
            -2.0 - ulp / 2.0,
        ],
        [1000.3, 0.1, 3.0e-3, -7.7],
        [65504.0, 1.0e-2, 2.0, 0.5],
        [123.456, -0.333, 42.0, 1.0 / 3.0],
    ];
    let hb = buffer_with(t, ctx, &hv);
    let him = image(
        t,
        ctx,
        CL_MEM_READ_WRITE,
        fmt(CL_RGBA, CL_HALF_FLOAT),
        d1,
        null(),
    );
    launch(c"wf", him, hb);
    let mut got = vec![0u16; n * 4];
    read(t, q, him, O, [n, 1, 1], 0, 0, got.as_mut_ptr().cast());
    let want: Vec<u16> = hv.iter().flatten().map(|&f| half_rte(f)).collect();
    assert_eq!(got, want, "write_imagef to HALF_FLOAT");
    assert_eq!(got[0], 0x3c00, "1 + ulp/2 is a tie: to even");
    assert_eq!(got[1], 0x3c02, "1 + 1.5 ulp is a tie: to even");
    // Integers: saturation.
    let iv: Vec<[i32; 4]> = vec![
        [200, -200, 5, -5],
        [127, -128, 128, -129],
        [0, 1, -1, 1000000],
        [i32::MIN, i32::MAX, 3, 4],
    ];
    let ib = buffer_with(t, ctx, &iv);
    let i8im = image(
        t,
        ctx,
        CL_MEM_READ_WRITE,
        fmt(CL_RGBA, CL_SIGNED_INT8),
        d1,
        null(),
    );
    launch(c"wi", i8im, ib);
    let mut got = vec![0i8; n * 4];
    read(t, q, i8im, O, [n, 1, 1], 0, 0, got.as_mut_ptr().cast());
    let want: Vec<i8> = iv
        .iter()
        .flatten()
        .map(|&v| v.clamp(-128, 127) as i8)
        .collect();
    assert_eq!(got, want, "write_imagei to SIGNED_INT8");
    let io = buffer_with(t, ctx, &[[0i32; 4]; 4]);
    launch(c"ri", i8im, io);
    let back: Vec<[i32; 4]> = read_buffer(t, q, io, n);
    let back: Vec<i32> = back.into_iter().flatten().collect();
    assert_eq!(
        back,
        want.iter().map(|&v| v as i32).collect::<Vec<_>>(),
        "read_imagei sign-extends"
    );
    let uv: Vec<[u32; 4]> = vec![
        [70000, 65535, 65536, 0],
        [1, 2, 3, u32::MAX],
        [40000, 5, 6, 7],
        [8, 9, 10, 11],
    ];
    let ub = buffer_with(t, ctx, &uv);
    let u16im = image(
        t,
        ctx,
        CL_MEM_READ_WRITE,
        fmt(CL_RGBA, CL_UNSIGNED_INT16),
        d1,
        null(),
    );
    launch(c"wu", u16im, ub);
    let mut got = vec![0u16; n * 4];
    read(t, q, u16im, O, [n, 1, 1], 0, 0, got.as_mut_ptr().cast());
    let want: Vec<u16> = uv.iter().flatten().map(|&v| v.min(65535) as u16).collect();
    assert_eq!(got, want, "write_imageui to UNSIGNED_INT16");
    // Missing channels: R reads as (r, 0, 0, 1), RG as (r, g, 0, 1).
    let mut r = [3u32, 4, 5, 6];
    let rim = image(
        t,
        ctx,
        CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
        fmt(CL_R, CL_UNSIGNED_INT32),
        d1,
        r.as_mut_ptr().cast(),
    );
    let uo = buffer_with(t, ctx, &[[0u32; 4]; 4]);
    launch(c"ru", rim, uo);
    let back: Vec<[u32; 4]> = read_buffer(t, q, uo, n);
    assert_eq!(
        back,
        vec![[3, 0, 0, 1], [4, 0, 0, 1], [5, 0, 0, 1], [6, 0, 0, 1]]
    );
    let mut rg = [0.5f32, -2.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
    let rgim = image(
        t,
        ctx,
        CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
        fmt(CL_RG, CL_FLOAT),
        d1,
        rg.as_mut_ptr().cast(),
    );
    launch(c"rf", rgim, fo);
    let back: Vec<[f32; 4]> = read_buffer(t, q, fo, n);
    assert_eq!(back[0], [0.5, -2.0, 0.0, 1.0]);
    assert_eq!(back[3], [5.0, 6.0, 0.0, 1.0]);
    // BGRA UNORM_INT8: memory order b, g, r, a.
    let mut bgra = [10u8, 20, 30, 40, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    let bim = image(
        t,
        ctx,
        CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
        fmt(CL_BGRA, CL_UNORM_INT8),
        d1,
        bgra.as_mut_ptr().cast(),
    );
    launch(c"rf", bim, fo);
    let back: Vec<[f32; 4]> = read_buffer(t, q, fo, 1);
    assert_eq!(
        back[0],
        [30.0 / 255.0, 20.0 / 255.0, 10.0 / 255.0, 40.0 / 255.0]
    );
    for m in [
        vb, u8im, fo, s8im, hb, him, ib, i8im, io, ub, u16im, rim, uo, rgim, bim,
    ] {
        assert_code!(call!(t; clReleaseMemObject(m)), CL_SUCCESS);
    }
    assert_code!(call!(t; clReleaseProgram(p)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
}

/// sRGB to linear and back, from the sRGB standard's curve.
fn srgb_to_linear(c: f32) -> f32 {
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

fn linear_to_srgb(l: f32) -> f32 {
    if l <= 0.0031308 {
        l * 12.92
    } else {
        1.055 * l.powf(1.0 / 2.4) - 0.055
    }
}

/// Packed RGB formats (565, 555, 101010) and sRGBA: reads unpack and
/// normalize (and linearize), writes round to nearest even and pack (and
/// encode the sRGB curve, `cl_khr_srgb_image_writes`).
fn packed_and_srgb(t: &Cl) {
    let ctx = t.context();
    let q = t.queue(ctx, 0);
    let src = "
        kernel void wf(write_only image1d_t im, global const float4 *v) {
            int i = get_global_id(0); write_imagef(im, i, v[i]);
        }
        kernel void rf(read_only image1d_t im, global float4 *o) {
            int i = get_global_id(0); o[i] = read_imagef(im, i);
        }";
    let p = build(t, ctx, src, c"-cl-std=CL3.0");
    let n = 4usize;
    let d1 = desc(CL_MEM_OBJECT_IMAGE1D, [n, 0, 0, 0], 0, 0);
    let launch = |name: &std::ffi::CStr, im: cl_mem, buf: cl_mem| {
        let k = kernel(t, p, name);
        assert_code!(set_arg(t, k, 0, &im), CL_SUCCESS);
        assert_code!(set_arg(t, k, 1, &buf), CL_SUCCESS);
        run(t, q, k, &[n]);
        assert_code!(call!(t; clReleaseKernel(k)), CL_SUCCESS);
    };
    let fo = buffer_with(t, ctx, &[[0f32; 4]; 4]);
    let fv: Vec<[f32; 4]> = vec![
        [0.5, 0.25, 1.0, 1.0],
        [0.1, 0.9, 0.0, 0.3],
        [2.0, -1.0, 0.75, 0.0],
        [0.33, 0.66, 0.99, 1.0],
    ];
    let vb = buffer_with(t, ctx, &fv);
    // (order, type, bits of r g b, shifts, bytes)
    for (o, ty, bits, shifts, bytes) in [
        (
            CL_RGB,
            CL_UNORM_SHORT_565,
            [5u32, 6, 5],
            [11u32, 5, 0],
            2usize,
        ),
        (CL_RGB, CL_UNORM_SHORT_555, [5, 5, 5], [10, 5, 0], 2),
        (CL_RGBx, CL_UNORM_INT_101010, [10, 10, 10], [20, 10, 0], 4),
    ] {
        let im = image(t, ctx, CL_MEM_READ_WRITE, fmt(o, ty), d1, null());
        assert_eq!(image_info::<usize>(t, im, CL_IMAGE_ELEMENT_SIZE), bytes);
        launch(c"wf", im, vb);
        let mut raw = vec![0u8; n * bytes];
        read(t, q, im, O, [n, 1, 1], 0, 0, raw.as_mut_ptr().cast());
        for (i, px) in fv.iter().enumerate() {
            let word = if bytes == 2 {
                u32::from(u16::from_le_bytes([raw[2 * i], raw[2 * i + 1]]))
            } else {
                u32::from_le_bytes(raw[4 * i..4 * i + 4].try_into().unwrap())
            };
            for k in 0..3 {
                let max = (1u32 << bits[k]) - 1;
                let want = (px[k] * max as f32)
                    .round_ties_even()
                    .clamp(0.0, max as f32) as u32;
                assert_eq!(
                    (word >> shifts[k]) & max,
                    want,
                    "{ty:#x} texel {i} channel {k}"
                );
            }
        }
        launch(c"rf", im, fo);
        let back: Vec<[f32; 4]> = read_buffer(t, q, fo, n);
        for (i, px) in back.iter().enumerate() {
            for k in 0..3 {
                let max = ((1u32 << bits[k]) - 1) as f32;
                let want = (fv[i][k] * max).round_ties_even().clamp(0.0, max) / max;
                assert!(
                    (px[k] - want).abs() <= 1e-6,
                    "{ty:#x} read {i}.{k}: {} vs {want}",
                    px[k]
                );
            }
            assert_eq!(px[3], 1.0, "alpha of a packed RGB format");
        }
        assert_code!(call!(t; clReleaseMemObject(im)), CL_SUCCESS);
    }
    // sRGBA: reads linearize r, g, b; writes encode them.
    let mut bytes = [
        0u8, 10, 128, 255, 60, 200, 255, 7, 1, 2, 3, 4, 250, 100, 50, 25,
    ];
    let s = image(
        t,
        ctx,
        CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
        fmt(CL_sRGBA, CL_UNORM_INT8),
        d1,
        bytes.as_mut_ptr().cast(),
    );
    launch(c"rf", s, fo);
    let back: Vec<[f32; 4]> = read_buffer(t, q, fo, n);
    for (i, px) in back.iter().enumerate() {
        for k in 0..4 {
            let c = bytes[i * 4 + k] as f32 / 255.0;
            let want = if k < 3 { srgb_to_linear(c) } else { c };
            assert!(
                (px[k] - want).abs() <= 1e-6,
                "sRGBA read {i}.{k}: {} vs {want}",
                px[k]
            );
        }
    }
    launch(c"wf", s, vb);
    let mut raw = [0u8; 16];
    read(t, q, s, O, [n, 1, 1], 0, 0, raw.as_mut_ptr().cast());
    for (i, px) in fv.iter().enumerate() {
        for k in 0..4 {
            let v = px[k].clamp(0.0, 1.0);
            let want = unorm8(if k < 3 { linear_to_srgb(v) } else { v });
            assert!(
                raw[i * 4 + k].abs_diff(want) <= 1,
                "sRGBA write {i}.{k}: {} vs {want}",
                raw[i * 4 + k]
            );
        }
    }
    for m in [fo, vb, s] {
        assert_code!(call!(t; clReleaseMemObject(m)), CL_SUCCESS);
    }
    assert_code!(call!(t; clReleaseProgram(p)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
}

/// A `read_write` image read and written by one kernel (each work-item its
/// own texel), images in a kernel with a barrier, and 3D image writes.
fn read_write_and_3d_writes(t: &Cl) {
    let ctx = t.context();
    let q = t.queue(ctx, 0);
    let src = "
        kernel void inc(read_write image2d_t im) {
            int2 p = (int2)(get_global_id(0), get_global_id(1));
            uint4 v = read_imageui(im, p);
            atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, memory_order_acq_rel, memory_scope_work_item);
            write_imageui(im, p, v * 2u + (uint4)(1, 2, 3, 4));
        }
        kernel void tile(read_only image2d_t src, write_only image2d_t dst, local float4 *t) {
            int2 p = (int2)(get_global_id(0), get_global_id(1));
            int l = get_local_id(0);
            t[l] = read_imagef(src, p);
            barrier(CLK_LOCAL_MEM_FENCE);
            // Each work-item writes its right neighbour's texel (wrapping
            // in the work-group): the values cross work-items.
            write_imagef(dst, p, t[(l + 1) % get_local_size(0)] + (float4)(get_image_width(src)));
        }
        kernel void fill3d(write_only image3d_t im) {
            int4 p = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
            write_imagef(im, p, (float4)(p.x, p.y, p.z, 1.0f));
        }";
    let p = build(t, ctx, src, c"-cl-std=CL3.0");
    let (w, h) = (9usize, 5usize);
    let mut data: Vec<u32> = (0..w * h * 4).map(|i| i as u32).collect();
    let im = image(
        t,
        ctx,
        CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
        fmt(CL_RGBA, CL_UNSIGNED_INT32),
        desc(CL_MEM_OBJECT_IMAGE2D, [w, h, 0, 0], 0, 0),
        data.as_mut_ptr().cast(),
    );
    let k = kernel(t, p, c"inc");
    assert_code!(set_arg(t, k, 0, &im), CL_SUCCESS);
    run(t, q, k, &[w, h]);
    let mut got = vec![0u32; w * h * 4];
    read(t, q, im, O, [w, h, 1], 0, 0, got.as_mut_ptr().cast());
    let want: Vec<u32> = data
        .iter()
        .enumerate()
        .map(|(i, v)| v * 2 + (i % 4) as u32 + 1)
        .collect();
    assert_eq!(got, want);
    // Images in a kernel with a barrier (the region strategy).
    let src_data: Vec<f32> = (0..8 * 2 * 4).map(|i| i as f32).collect();
    let mut sd = src_data.clone();
    let src_im = image(
        t,
        ctx,
        CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
        fmt(CL_RGBA, CL_FLOAT),
        desc(CL_MEM_OBJECT_IMAGE2D, [8, 2, 0, 0], 0, 0),
        sd.as_mut_ptr().cast(),
    );
    let dst_im = image(
        t,
        ctx,
        CL_MEM_WRITE_ONLY,
        fmt(CL_RGBA, CL_FLOAT),
        desc(CL_MEM_OBJECT_IMAGE2D, [8, 2, 0, 0], 0, 0),
        null(),
    );
    let kt = kernel(t, p, c"tile");
    assert_code!(set_arg(t, kt, 0, &src_im), CL_SUCCESS);
    assert_code!(set_arg(t, kt, 1, &dst_im), CL_SUCCESS);
    assert_code!(call!(t; clSetKernelArg(kt, 2, 4 * 16, null())), CL_SUCCESS);
    let (global, local) = ([8usize, 2], [4usize, 1]);
    assert_code!(
        call!(t; clEnqueueNDRangeKernel(q, kt, 2, null(), global.as_ptr(), local.as_ptr(), 0, null(), null())),
        CL_SUCCESS
    );
    let mut got = vec![0f32; 8 * 2 * 4];
    read(t, q, dst_im, O, [8, 2, 1], 0, 0, got.as_mut_ptr().cast());
    for y in 0..2 {
        for x in 0..8 {
            let from = x / 4 * 4 + (x % 4 + 1) % 4;
            for c in 0..4 {
                assert_eq!(
                    got[(y * 8 + x) * 4 + c],
                    src_data[(y * 8 + from) * 4 + c] + 8.0,
                    "tile ({x}, {y})"
                );
            }
        }
    }
    for m in [src_im, dst_im] {
        assert_code!(call!(t; clReleaseMemObject(m)), CL_SUCCESS);
    }
    assert_code!(call!(t; clReleaseKernel(kt)), CL_SUCCESS);
    let k3 = kernel(t, p, c"fill3d");
    let im3 = image(
        t,
        ctx,
        CL_MEM_WRITE_ONLY,
        fmt(CL_RGBA, CL_FLOAT),
        desc(CL_MEM_OBJECT_IMAGE3D, [4, 3, 2, 0], 0, 0),
        null(),
    );
    assert_code!(set_arg(t, k3, 0, &im3), CL_SUCCESS);
    run(t, q, k3, &[4, 3, 2]);
    let mut got = vec![0f32; 4 * 3 * 2 * 4];
    read(t, q, im3, O, [4, 3, 2], 0, 0, got.as_mut_ptr().cast());
    for z in 0..2 {
        for y in 0..3 {
            for x in 0..4 {
                let o = ((z * 3 + y) * 4 + x) * 4;
                assert_eq!(&got[o..o + 4], &[x as f32, y as f32, z as f32, 1.0]);
            }
        }
    }
    for m in [im, im3] {
        assert_code!(call!(t; clReleaseMemObject(m)), CL_SUCCESS);
    }
    for kk in [k, k3] {
        assert_code!(call!(t; clReleaseKernel(kk)), CL_SUCCESS);
    }
    assert_code!(call!(t; clReleaseProgram(p)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
}

/// A 1D image buffer: its texels are its buffer's bytes (a sub-buffer's
/// too), read and written by kernels and commands; a 2D image from a
/// buffer; their errors.
fn image1d_buffer(t: &Cl) {
    let ctx = t.context();
    let q = t.queue(ctx, 0);
    let mut bytes: Vec<u8> = (0..64u8).collect();
    let mut e = 0;
    let buf = call!(t; clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 64, bytes.as_mut_ptr().cast(), &mut e));
    assert_code!(e, CL_SUCCESS);
    let f = fmt(CL_RGBA, CL_UNSIGNED_INT8);
    let mut d = desc(CL_MEM_OBJECT_IMAGE1D_BUFFER, [12, 0, 0, 0], 0, 0);
    d.buffer = buf;
    let im = image(t, ctx, 0, f, d, null());
    assert_eq!(image_info::<cl_mem>(t, im, CL_IMAGE_BUFFER), buf);
    // A row pitch of one row with no host pointer is accepted for an image
    // made from a buffer (the Khronos CTS's kernel_image_methods gives one).
    let mut d2 = desc(CL_MEM_OBJECT_IMAGE1D_BUFFER, [12, 0, 0, 0], 48, 0);
    d2.buffer = buf;
    let im2 = image(t, ctx, 0, f, d2, null());
    assert_eq!(image_info::<usize>(t, im2, CL_IMAGE_ROW_PITCH), 48);
    assert_code!(call!(t; clReleaseMemObject(im2)), CL_SUCCESS);
    let mut assoc: cl_mem = null();
    assert_code!(
        call!(t; clGetMemObjectInfo(im, CL_MEM_ASSOCIATED_MEMOBJECT, 8, (&mut assoc as *mut cl_mem).cast(), null())),
        CL_SUCCESS
    );
    assert_eq!(assoc, buf);
    let mut texel = [0u8; 4];
    read(
        t,
        q,
        im,
        [3, 0, 0],
        [1, 1, 1],
        0,
        0,
        texel.as_mut_ptr().cast(),
    );
    assert_eq!(
        texel,
        [12, 13, 14, 15],
        "texel 3 is bytes 12..16 of the buffer"
    );
    let src = "kernel void k(read_only image1d_buffer_t a, write_only image1d_buffer_t b) {
        int i = get_global_id(0);
        write_imageui(b, i, read_imageui(a, i) + (uint4)(100) + (uint4)(get_image_width(a)));
    }";
    let p = build(t, ctx, src, c"-cl-std=CL3.0");
    let k = kernel(t, p, c"k");
    // The destination: a 1D image buffer on a sub-buffer of another buffer.
    let out = buffer_with(t, ctx, &[0u8; 256]);
    let region = cl_buffer_region {
        origin: 128,
        size: 64,
    };
    let sub = call!(t; clCreateSubBuffer(out, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, (&region as *const cl_buffer_region).cast(), &mut e));
    assert_code!(e, CL_SUCCESS);
    let mut d2 = d;
    d2.buffer = sub;
    d2.image_width = 16;
    let im2 = image(t, ctx, CL_MEM_WRITE_ONLY, f, d2, null());
    assert_code!(set_arg(t, k, 0, &im), CL_SUCCESS);
    assert_code!(set_arg(t, k, 1, &im2), CL_SUCCESS);
    run(t, q, k, &[12]);
    let got: Vec<u8> = read_buffer(t, q, out, 256);
    assert!(
        got[..128].iter().all(|&b| b == 0),
        "the bytes before the sub-buffer"
    );
    for (i, &b) in got[128..128 + 48].iter().enumerate() {
        assert_eq!(b, (i + 112) as u8, "byte {i} of the sub-buffer");
    }
    // Errors: too small a buffer, an image as the buffer, contradicting flags.
    let mut bad = d;
    bad.image_width = 17;
    let (m, e) = try_image(t, ctx, 0, f, bad, null());
    assert!(m.is_null());
    assert_code!(e, CL_INVALID_IMAGE_DESCRIPTOR, "a buffer too small");
    let mut bad = d;
    bad.buffer = im;
    let (m, e) = try_image(t, ctx, 0, f, bad, null());
    assert!(m.is_null());
    assert_code!(e, CL_INVALID_IMAGE_DESCRIPTOR, "an image as the buffer");
    let mut e2 = 0;
    let ro = call!(t; clCreateBuffer(ctx, CL_MEM_READ_ONLY, 64, null(), &mut e2));
    assert_code!(e2, CL_SUCCESS);
    let mut bad = d;
    bad.buffer = ro;
    let (m, e) = try_image(t, ctx, CL_MEM_READ_WRITE, f, bad, null());
    assert!(m.is_null());
    assert_code!(e, CL_INVALID_VALUE, "READ_WRITE on a READ_ONLY buffer");
    let mut bad = d;
    bad.buffer = null();
    let (m, e) = try_image(t, ctx, 0, f, bad, null());
    assert!(m.is_null());
    assert_code!(e, CL_INVALID_IMAGE_DESCRIPTOR, "no buffer");
    // A 2D image from a buffer (cl_khr_image2d_from_buffer), with a row
    // pitch: its texels are the buffer's bytes at that pitch.
    assert_eq!(
        device_info::<cl_uint>(t, CL_DEVICE_IMAGE_PITCH_ALIGNMENT),
        1
    );
    let mut d2d = desc(CL_MEM_OBJECT_IMAGE2D, [3, 4, 0, 0], 16, 0);
    d2d.buffer = buf;
    let im2d = image(t, ctx, CL_MEM_READ_ONLY, f, d2d, null());
    assert_eq!(image_info::<usize>(t, im2d, CL_IMAGE_ROW_PITCH), 16);
    let mut texels = [0u8; 12 * 4];
    read(t, q, im2d, O, [3, 4, 1], 0, 0, texels.as_mut_ptr().cast());
    for y in 0..4 {
        for x in 0..3 {
            let o = (y * 3 + x) * 4;
            let b = (y * 16 + x * 4) as u8;
            assert_eq!(
                &texels[o..o + 4],
                &[b, b + 1, b + 2, b + 3],
                "2D texel ({x}, {y})"
            );
        }
    }
    let mut bad = d2d;
    bad.image_height = 5;
    let (m, e) = try_image(t, ctx, CL_MEM_READ_ONLY, f, bad, null());
    assert!(m.is_null());
    assert_code!(
        e,
        CL_INVALID_IMAGE_DESCRIPTOR,
        "a 2D image larger than its buffer"
    );
    let mut bad = d2d;
    bad.image_row_pitch = 14;
    let (m, e) = try_image(t, ctx, CL_MEM_READ_ONLY, f, bad, null());
    assert!(m.is_null());
    assert_code!(
        e,
        CL_INVALID_IMAGE_DESCRIPTOR,
        "a row pitch not a whole number of pixels"
    );
    let mut bad = d2d;
    bad.buffer = im;
    let (m, e) = try_image(t, ctx, CL_MEM_READ_ONLY, f, bad, null());
    assert!(m.is_null());
    assert_code!(e, CL_INVALID_IMAGE_DESCRIPTOR, "a 2D image from an image");
    let mut bad = d2d;
    bad.image_type = CL_MEM_OBJECT_IMAGE3D;
    bad.image_depth = 1;
    let (m, e) = try_image(t, ctx, CL_MEM_READ_ONLY, f, bad, null());
    assert!(m.is_null());
    assert_code!(e, CL_INVALID_IMAGE_DESCRIPTOR, "a 3D image from a buffer");
    for m in [im, im2, im2d, sub, out, buf, ro] {
        assert_code!(call!(t; clReleaseMemObject(m)), CL_SUCCESS);
    }
    assert_code!(call!(t; clReleaseKernel(k)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseProgram(p)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
}

/// `v` (finite) rounded to the nearest `half`, ties to even, as bits:
/// written here from IEEE 754's definition (the unit in the last place is
/// 2^(e - 10) for a value of exponent e >= -14, 2^-24 below), with
/// subnormal results and overflow to infinity.
fn half_of(v: f64) -> u16 {
    let sign = if v.is_sign_negative() { 0x8000u16 } else { 0 };
    let a = v.abs();
    if a == 0.0 {
        return sign;
    }
    let exp = |x: f64| ((x.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    let e = exp(a).max(-14);
    let ulp = 2f64.powi(e - 10);
    let r = (a / ulp).round_ties_even() * ulp;
    if r >= 65520.0 || r > 65504.0 {
        return sign | 0x7c00;
    }
    if r < 2f64.powi(-14) {
        // Subnormal: k units of 2^-24.
        return sign | (r / 2f64.powi(-24)) as u16;
    }
    let e = exp(r);
    let man = (r / 2f64.powi(e) - 1.0) * 1024.0;
    sign | (((e + 15) as u16) << 10) | man as u16
}

/// `half` bits to their value (exact), from IEEE 754's definition.
fn half_value(h: u16) -> f64 {
    let s = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = i32::from((h >> 10) & 0x1f);
    let m = f64::from(h & 0x3ff);
    match e {
        0 => s * m * 2f64.powi(-24),
        31 if m == 0.0 => s * f64::INFINITY,
        31 => f64::NAN,
        _ => s * (1.0 + m / 1024.0) * 2f64.powi(e - 15),
    }
}

/// `read_imageh` and `write_imageh` (`cl_khr_fp16`): every UNORM_INT8,
/// SNORM_INT8, UNORM_INT16 and SNORM_INT16 value read as
/// `round_to_half(c / 255)` (... / 65535, max(-1, c / 127), c / 32767),
/// HALF_FLOAT read exactly, FLOAT rounded to nearest even (ties, overflow,
/// subnormals), with and without a sampler; `half` colours written to
/// UNORM_INT8 (`convert_uchar_sat_rte(f * 255.0f)`), SNORM_INT16, HALF_FLOAT
/// and FLOAT exactly as the spec's conversion rules say.
fn half_reads_and_writes(t: &Cl) {
    let ctx = t.context();
    let q = t.queue(ctx, 0);
    let src = "
        #pragma OPENCL EXTENSION cl_khr_fp16 : enable
        kernel void rh(read_only image2d_t im, global half4 *o) {
            int x = get_global_id(0), y = get_global_id(1);
            o[y * get_global_size(0) + x] = read_imageh(im, (int2)(x, y));
        }
        kernel void rhs(read_only image2d_t im, sampler_t s, global half4 *o) {
            int x = get_global_id(0), y = get_global_id(1);
            o[y * get_global_size(0) + x] = read_imageh(im, s, (float2)(x + 0.5f, y + 0.5f));
        }
        kernel void wh(write_only image2d_t im, global const half4 *v) {
            int x = get_global_id(0), y = get_global_id(1);
            write_imageh(im, (int2)(x, y), v[y * get_global_size(0) + x]);
        }";
    let p = build(t, ctx, src, c"");
    let smp = sampler(t, ctx, false, CL_ADDRESS_NONE, CL_FILTER_NEAREST);
    // Runs `name` over a w x h image, `extra` the sampler, and returns the
    // half4 results' bits.
    let launch = |name: &std::ffi::CStr, im: cl_mem, w: usize, h: usize, buf: cl_mem| {
        let k = kernel(t, p, name);
        assert_code!(set_arg(t, k, 0, &im), CL_SUCCESS);
        if name == c"rhs" {
            assert_code!(set_arg(t, k, 1, &smp), CL_SUCCESS);
            assert_code!(set_arg(t, k, 2, &buf), CL_SUCCESS);
        } else {
            assert_code!(set_arg(t, k, 1, &buf), CL_SUCCESS);
        }
        run(t, q, k, &[w, h]);
        assert_code!(call!(t; clReleaseKernel(k)), CL_SUCCESS);
    };
    let read_h = |im: cl_mem, w: usize, h: usize, with_sampler: bool| -> Vec<u16> {
        let out = buffer_with(t, ctx, &vec![0u16; w * h * 4]);
        launch(if with_sampler { c"rhs" } else { c"rh" }, im, w, h, out);
        let got = read_buffer(t, q, out, w * h * 4);
        assert_code!(call!(t; clReleaseMemObject(out)), CL_SUCCESS);
        got
    };
    // Normalized integers: every value of each type, once per channel slot.
    let (w, h) = (128usize, 128usize);
    let mut u8s: Vec<u8> = (0..w * h * 4).map(|i| (i % 256) as u8).collect();
    let mut u16s: Vec<u16> = (0..w * h * 4).map(|i| (i % 65536) as u16).collect();
    type Value = Box<dyn Fn(usize) -> f64>;
    let cases: [(cl_channel_type, *mut c_void, Value); 4] = [
        (
            CL_UNORM_INT8,
            u8s.as_mut_ptr().cast(),
            Box::new(|i| f64::from((i % 256) as u8) / 255.0),
        ),
        (
            CL_SNORM_INT8,
            u8s.as_mut_ptr().cast(),
            Box::new(|i| (f64::from((i % 256) as u8 as i8) / 127.0).max(-1.0)),
        ),
        (
            CL_UNORM_INT16,
            u16s.as_mut_ptr().cast(),
            Box::new(|i| f64::from((i % 65536) as u16) / 65535.0),
        ),
        (
            CL_SNORM_INT16,
            u16s.as_mut_ptr().cast(),
            Box::new(|i| (f64::from((i % 65536) as u16 as i16) / 32767.0).max(-1.0)),
        ),
    ];
    for (ty, data, value) in cases {
        let im = image(
            t,
            ctx,
            CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
            fmt(CL_RGBA, ty),
            desc(CL_MEM_OBJECT_IMAGE2D, [w, h, 0, 0], 0, 0),
            data,
        );
        for with_sampler in [false, true] {
            let got = read_h(im, w, h, with_sampler);
            for (i, &g) in got.iter().enumerate() {
                let want = half_of(value(i));
                assert_eq!(
                    g,
                    want,
                    "read_imageh of channel type {ty:#x}, value {} (index {i}, sampler {with_sampler}): got {g:#06x} = {}, expected {want:#06x} = {}",
                    value(i),
                    half_value(g),
                    half_value(want)
                );
            }
        }
        assert_code!(call!(t; clReleaseMemObject(im)), CL_SUCCESS);
    }
    // HALF_FLOAT: every finite half (and the infinities) read back exactly.
    let mut halves: Vec<u16> = (0..w * h * 4)
        .map(|i| {
            let b = (i % 65536) as u16;
            if b & 0x7c00 == 0x7c00 && b & 0x3ff != 0 {
                0x7c00 // NaNs left out
            } else {
                b
            }
        })
        .collect();
    let him = image(
        t,
        ctx,
        CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
        fmt(CL_RGBA, CL_HALF_FLOAT),
        desc(CL_MEM_OBJECT_IMAGE2D, [w, h, 0, 0], 0, 0),
        halves.as_mut_ptr().cast(),
    );
    assert_eq!(
        read_h(him, w, h, false),
        halves,
        "read_imageh of HALF_FLOAT"
    );
    // FLOAT: rounded to nearest even, ties both ways, subnormal halves,
    // overflow to infinity, the largest half.
    let ulp = f32::powi(2.0, -10);
    let mut floats: Vec<f32> = vec![
        1.0 + ulp / 2.0,
        1.0 + 1.5 * ulp,
        1.0 + 0.75 * ulp,
        -(2.0 + ulp),
        65504.0,
        65519.0,
        65520.0,
        1.0e9,
        f32::powi(2.0, -24),
        f32::powi(2.0, -25),
        1.5 * f32::powi(2.0, -25),
        3.0e-6,
        -7.7,
        0.1,
        1.0 / 3.0,
        f32::INFINITY,
    ];
    let fw = floats.len() / 4;
    let fim = image(
        t,
        ctx,
        CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
        fmt(CL_RGBA, CL_FLOAT),
        desc(CL_MEM_OBJECT_IMAGE2D, [fw, 1, 0, 0], 0, 0),
        floats.as_mut_ptr().cast(),
    );
    let got = read_h(fim, fw, 1, false);
    let want: Vec<u16> = floats
        .iter()
        .map(|&f| {
            if f.is_infinite() {
                0x7c00
            } else {
                half_of(f64::from(f))
            }
        })
        .collect();
    assert_eq!(got, want, "read_imageh of FLOAT: {floats:?}");
    assert_eq!(&got[..3], &[0x3c00, 0x3c02, 0x3c01], "ties to even");
    // write_imageh: every half in [-0.5, 1.5] and some beyond, to UNORM_INT8
    // (convert_uchar_sat_rte(f * 255.0f)), SNORM_INT16
    // (convert_short_sat_rte(f * 32767.0f)), HALF_FLOAT and FLOAT.
    let colours: Vec<u16> = (0..w * h * 4)
        .map(|i| {
            let b = (i % 65536) as u16;
            if b & 0x7c00 == 0x7c00 {
                0x3c00 // no NaN or INF
            } else {
                b
            }
        })
        .collect();
    let cb = buffer_with(t, ctx, &colours);
    let write_to = |ty: cl_channel_type, bytes: usize| -> Vec<u8> {
        let im = image(
            t,
            ctx,
            CL_MEM_WRITE_ONLY,
            fmt(CL_RGBA, ty),
            desc(CL_MEM_OBJECT_IMAGE2D, [w, h, 0, 0], 0, 0),
            null(),
        );
        launch(c"wh", im, w, h, cb);
        let mut got = vec![0u8; w * h * 4 * bytes];
        read(t, q, im, O, [w, h, 1], 0, 0, got.as_mut_ptr().cast());
        assert_code!(call!(t; clReleaseMemObject(im)), CL_SUCCESS);
        got
    };
    let f32_of = |b: u16| half_value(b) as f32;
    let got = write_to(CL_UNORM_INT8, 1);
    for (i, &b) in colours.iter().enumerate() {
        let want = (f32_of(b) * 255.0).round_ties_even().clamp(0.0, 255.0) as u8;
        assert_eq!(got[i], want, "write_imageh {} to UNORM_INT8", f32_of(b));
    }
    let got = write_to(CL_SNORM_INT16, 2);
    for (i, &b) in colours.iter().enumerate() {
        let want = (f32_of(b) * 32767.0)
            .round_ties_even()
            .clamp(-32768.0, 32767.0) as i16;
        let g = i16::from_le_bytes([got[2 * i], got[2 * i + 1]]);
        assert_eq!(g, want, "write_imageh {} to SNORM_INT16", f32_of(b));
    }
    let got = write_to(CL_HALF_FLOAT, 2);
    for (i, &b) in colours.iter().enumerate() {
        let g = u16::from_le_bytes([got[2 * i], got[2 * i + 1]]);
        assert_eq!(g, b, "write_imageh {} to HALF_FLOAT", f32_of(b));
    }
    let got = write_to(CL_FLOAT, 4);
    for (i, &b) in colours.iter().enumerate() {
        let g = f32::from_le_bytes([got[4 * i], got[4 * i + 1], got[4 * i + 2], got[4 * i + 3]]);
        assert_eq!(
            g.to_bits(),
            f32_of(b).to_bits(),
            "write_imageh {} to FLOAT",
            f32_of(b)
        );
    }
    for m in [him, fim, cb] {
        assert_code!(call!(t; clReleaseMemObject(m)), CL_SUCCESS);
    }
    assert_code!(call!(t; clReleaseSampler(smp)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseProgram(p)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
}

/// Cases the Khronos CTS image binaries found: the border colour of the
/// orders without alpha (a `CL_ADDRESS_CLAMP` read outside the image).
fn cts_findings(t: &Cl) {
    let ctx = t.context();
    let q = t.queue(ctx, 0);
    let src = "
        kernel void rs(read_only image1d_t im, sampler_t s, global const float *x,
                       global float4 *o) {
            int i = get_global_id(0); o[i] = read_imagef(im, s, x[i]);
        }";
    let p = build(t, ctx, src, c"-cl-std=CL3.0");
    let k = kernel(t, p, c"rs");
    let smp = sampler(t, ctx, false, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST);
    // x = 5.0 and -3.0 lie outside a 2-texel image: the border colour; 1.5
    // is texel 1.
    let xs = [5.0f32, -3.0, 1.5];
    let xb = buffer_with(t, ctx, &xs);
    let ob = buffer_with(t, ctx, &[[9f32; 4]; 3]);
    let d1 = desc(CL_MEM_OBJECT_IMAGE1D, [2, 0, 0, 0], 0, 0);
    // CL_RGBx (the fourth channel ignored) reads alpha 1.0 in range, and its
    // border is (0, 0, 0, 1) too, as the CTS's reference requires (the
    // OpenCL C spec's border list names RGBx among the orders whose border
    // is (0, 0, 0, 0); see memory/src/image.rs). CL_RGB is (0, 0, 0, 1) by
    // the spec; CL_RGBA (0, 0, 0, 0).
    for (o, ty, texel1) in [
        (CL_RGBx, CL_UNORM_SHORT_565, vec![0xffu8, 0xff]),
        (CL_RGB, CL_UNORM_SHORT_565, vec![0xff, 0xff]),
        (CL_RGBx, CL_UNORM_INT_101010, vec![0xff, 0xff, 0xff, 0x3f]),
    ] {
        let mut host = vec![0u8; texel1.len()];
        host.extend_from_slice(&texel1);
        let im = image(
            t,
            ctx,
            CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
            fmt(o, ty),
            d1,
            host.as_mut_ptr().cast(),
        );
        assert_code!(set_arg(t, k, 0, &im), CL_SUCCESS);
        assert_code!(set_arg(t, k, 1, &smp), CL_SUCCESS);
        assert_code!(set_arg(t, k, 2, &xb), CL_SUCCESS);
        assert_code!(set_arg(t, k, 3, &ob), CL_SUCCESS);
        run(t, q, k, &[3]);
        let got: Vec<[f32; 4]> = read_buffer(t, q, ob, 3);
        assert_eq!(got[0], [0.0, 0.0, 0.0, 1.0], "{o:#x}/{ty:#x} border at x=5");
        assert_eq!(
            got[1],
            [0.0, 0.0, 0.0, 1.0],
            "{o:#x}/{ty:#x} border at x=-3"
        );
        assert_eq!(got[2], [1.0, 1.0, 1.0, 1.0], "{o:#x}/{ty:#x} texel 1");
        assert_code!(call!(t; clReleaseMemObject(im)), CL_SUCCESS);
    }
    let mut rgba = [0u8, 0, 0, 0, 255, 255, 255, 255];
    let im = image(
        t,
        ctx,
        CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
        fmt(CL_RGBA, CL_UNORM_INT8),
        d1,
        rgba.as_mut_ptr().cast(),
    );
    assert_code!(set_arg(t, k, 0, &im), CL_SUCCESS);
    run(t, q, k, &[3]);
    let got: Vec<[f32; 4]> = read_buffer(t, q, ob, 3);
    assert_eq!(got[0], [0.0; 4], "RGBA border");
    assert_eq!(got[2], [1.0; 4], "RGBA texel 1");
    for m in [im, xb, ob] {
        assert_code!(call!(t; clReleaseMemObject(m)), CL_SUCCESS);
    }
    assert_code!(call!(t; clReleaseSampler(smp)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseKernel(k)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseProgram(p)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
}

/// `cl_khr_depth_images`: the extension advertised, `CL_DEPTH` formats
/// for 2D images and 2D arrays only, kernels reading and writing
/// `image2d_depth_t` and `image2d_array_depth_t` (one float per texel:
/// UNORM_INT16 as c / 65535, written as rte(f × 65535) saturated; the
/// border value 0.0), and a fill with a single float.
fn depth_images(t: &Cl) {
    let mut ext = vec![0u8; 8192];
    let mut n = 0;
    assert_code!(
        call!(t; clGetDeviceInfo(t.device(), CL_DEVICE_EXTENSIONS, ext.len(), ext.as_mut_ptr().cast(), &mut n)),
        CL_SUCCESS
    );
    let ext = String::from_utf8_lossy(&ext[..n.saturating_sub(1)]).into_owned();
    assert!(
        ext.split_whitespace().any(|e| e == "cl_khr_depth_images"),
        "{ext}"
    );
    let ctx = t.context();
    let q = t.queue(ctx, 0);
    for (ty, want) in [
        (CL_MEM_OBJECT_IMAGE2D, true),
        (CL_MEM_OBJECT_IMAGE2D_ARRAY, true),
        (CL_MEM_OBJECT_IMAGE1D, false),
        (CL_MEM_OBJECT_IMAGE3D, false),
    ] {
        let mut list = vec![fmt(0, 0); 512];
        let mut m: cl_uint = 0;
        assert_code!(
            call!(t; clGetSupportedImageFormats(ctx, CL_MEM_READ_WRITE, ty, 512, list.as_mut_ptr(), &mut m)),
            CL_SUCCESS
        );
        for d in [CL_UNORM_INT16, CL_FLOAT] {
            let has = list[..m as usize]
                .iter()
                .any(|f| f.image_channel_order == CL_DEPTH && f.image_channel_data_type == d);
            assert_eq!(has, want, "CL_DEPTH {d:#x} for type {ty:#x}");
        }
    }
    let (_, e) = try_image(
        t,
        ctx,
        CL_MEM_READ_WRITE,
        fmt(CL_DEPTH, CL_FLOAT),
        desc(CL_MEM_OBJECT_IMAGE3D, [2, 2, 2, 0], 0, 0),
        null(),
    );
    assert_code!(e, CL_IMAGE_FORMAT_NOT_SUPPORTED, "a 3D depth image");
    let src = "
        kernel void rd(read_only image2d_depth_t im, sampler_t s, global const float2 *c,
                       global float *o) {
            int i = get_global_id(0); o[i] = read_imagef(im, s, c[i]);
        }
        kernel void ri(read_only image2d_depth_t im, global float *o, global int *info) {
            int i = get_global_id(0);
            o[i] = read_imagef(im, (int2)(i % 3, i / 3));
            info[0] = get_image_width(im); info[1] = get_image_height(im);
            info[2] = get_image_channel_order(im); info[3] = get_image_channel_data_type(im);
        }
        kernel void wr(write_only image2d_depth_t im, global const float *v) {
            int i = get_global_id(0); write_imagef(im, (int2)(i % 3, i / 3), v[i]);
        }
        kernel void ra(read_only image2d_array_depth_t im, global float *o) {
            int i = get_global_id(0); o[i] = read_imagef(im, (int4)(i % 2, 0, i / 2, 0));
        }";
    let p = build(t, ctx, src, c"-cl-std=CL3.0");
    // A 3 × 2 UNORM_INT16 depth image.
    let mut texels: [u16; 6] = [0, 65535, 32768, 1000, 20000, 65000];
    let d2 = desc(CL_MEM_OBJECT_IMAGE2D, [3, 2, 0, 0], 0, 0);
    let im = image(
        t,
        ctx,
        CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
        fmt(CL_DEPTH, CL_UNORM_INT16),
        d2,
        texels.as_mut_ptr().cast(),
    );
    assert_eq!(image_info::<usize>(t, im, CL_IMAGE_ELEMENT_SIZE), 2);
    let unorm = |c: u16| c as f32 / 65535.0;
    // Integer coordinates, and the queries.
    let ob = buffer_with(t, ctx, &[7f32; 6]);
    let info = buffer_with(t, ctx, &[0i32; 4]);
    let k = kernel(t, p, c"ri");
    assert_code!(set_arg(t, k, 0, &im), CL_SUCCESS);
    assert_code!(set_arg(t, k, 1, &ob), CL_SUCCESS);
    assert_code!(set_arg(t, k, 2, &info), CL_SUCCESS);
    run(t, q, k, &[6]);
    let got: Vec<f32> = read_buffer(t, q, ob, 6);
    for i in 0..6 {
        assert_eq!(got[i], unorm(texels[i]), "depth texel {i}");
    }
    let inf: Vec<i32> = read_buffer(t, q, info, 4);
    assert_eq!(inf, [3, 2, CL_DEPTH as i32, CL_UNORM_INT16 as i32]);
    assert_code!(call!(t; clReleaseKernel(k)), CL_SUCCESS);
    // A sampler: nearest (floor(x): x = 1.0 is texel 1), linear (x = 1.0
    // is halfway between texels 0 and 1 of row 0: u - 0.5 = 0.5), and the
    // border (0.0) with CLAMP.
    let coords: [[f32; 2]; 4] = [[1.5, 0.5], [1.0, 0.5], [-4.0, 0.5], [2.5, 9.0]];
    let cb = buffer_with(t, ctx, &coords);
    let k = kernel(t, p, c"rd");
    for (filter, want) in [
        (
            CL_FILTER_NEAREST,
            [unorm(texels[1]), unorm(texels[1]), 0.0, 0.0],
        ),
        (
            CL_FILTER_LINEAR,
            [
                unorm(texels[1]),
                0.5 * unorm(texels[0]) + 0.5 * unorm(texels[1]),
                0.0,
                0.0,
            ],
        ),
    ] {
        let smp = sampler(t, ctx, false, CL_ADDRESS_CLAMP, filter);
        assert_code!(set_arg(t, k, 0, &im), CL_SUCCESS);
        assert_code!(set_arg(t, k, 1, &smp), CL_SUCCESS);
        assert_code!(set_arg(t, k, 2, &cb), CL_SUCCESS);
        assert_code!(set_arg(t, k, 3, &ob), CL_SUCCESS);
        run(t, q, k, &[4]);
        let got: Vec<f32> = read_buffer(t, q, ob, 4);
        for i in 0..4 {
            assert!(
                (got[i] - want[i]).abs() <= 1e-6,
                "filter {filter:#x} sample {i}: {} vs {}",
                got[i],
                want[i]
            );
        }
        assert_code!(call!(t; clReleaseSampler(smp)), CL_SUCCESS);
    }
    assert_code!(call!(t; clReleaseKernel(k)), CL_SUCCESS);
    // Writes: rte(f × 65535), saturated.
    let vals = [0.5f32, 1.5, -0.25, 0.25, 1.0 / 65535.0 * 2.5, 0.999];
    let vb = buffer_with(t, ctx, &vals);
    let k = kernel(t, p, c"wr");
    assert_code!(set_arg(t, k, 0, &im), CL_SUCCESS);
    assert_code!(set_arg(t, k, 1, &vb), CL_SUCCESS);
    run(t, q, k, &[6]);
    let mut raw = [0u16; 6];
    read(t, q, im, O, [3, 2, 1], 0, 0, raw.as_mut_ptr().cast());
    for i in 0..6 {
        let want = (vals[i] * 65535.0).round_ties_even().clamp(0.0, 65535.0) as u16;
        assert_eq!(raw[i], want, "depth write {i} ({})", vals[i]);
    }
    assert_code!(call!(t; clReleaseKernel(k)), CL_SUCCESS);
    // A FLOAT depth array of 2 × 1 × 3, filled with one float (the fill
    // colour of a depth image is a single float), then one layer written.
    let arr = image(
        t,
        ctx,
        CL_MEM_READ_WRITE,
        fmt(CL_DEPTH, CL_FLOAT),
        desc(CL_MEM_OBJECT_IMAGE2D_ARRAY, [2, 1, 0, 3], 0, 0),
        null(),
    );
    let fill = 0.625f32;
    assert_code!(
        call!(t; clEnqueueFillImage(q, arr, (&fill as *const f32).cast(), O.as_ptr(), [2usize, 1, 3].as_ptr(), 0, null(), null())),
        CL_SUCCESS
    );
    let layer1 = [-2.0f32, 3.5];
    write(
        t,
        q,
        arr,
        [0, 0, 1],
        [2, 1, 1],
        0,
        0,
        layer1.as_ptr().cast(),
    );
    let k = kernel(t, p, c"ra");
    assert_code!(set_arg(t, k, 0, &arr), CL_SUCCESS);
    assert_code!(set_arg(t, k, 1, &ob), CL_SUCCESS);
    run(t, q, k, &[6]);
    let got: Vec<f32> = read_buffer(t, q, ob, 6);
    assert_eq!(got, [0.625, 0.625, -2.0, 3.5, 0.625, 0.625]);
    assert_code!(call!(t; clReleaseKernel(k)), CL_SUCCESS);
    for m in [im, arr, ob, info, cb, vb] {
        assert_code!(call!(t; clReleaseMemObject(m)), CL_SUCCESS);
    }
    assert_code!(call!(t; clReleaseProgram(p)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
}

/// A 2D image made from another 2D image: a view of the same store with a
/// compatible channel order (sRGBA of RGBA, DEPTH of R), the same data
/// type, the same descriptor; the spec's errors otherwise.
fn image_from_image(t: &Cl) {
    let ctx = t.context();
    let q = t.queue(ctx, 0);
    let mut bytes = [10u8, 128, 200, 77, 255, 3, 60, 250];
    let d2 = desc(CL_MEM_OBJECT_IMAGE2D, [2, 1, 0, 0], 0, 0);
    let rgba = image(
        t,
        ctx,
        CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
        fmt(CL_RGBA, CL_UNORM_INT8),
        d2,
        bytes.as_mut_ptr().cast(),
    );
    let mut dv = d2;
    dv.buffer = rgba;
    // Flags 0: the parent's access flags; no host pointer flags.
    let srgb = image(t, ctx, 0, fmt(CL_sRGBA, CL_UNORM_INT8), dv, null());
    let mut assoc: cl_mem = null();
    assert_code!(
        call!(t; clGetMemObjectInfo(srgb, CL_MEM_ASSOCIATED_MEMOBJECT, 8, (&mut assoc as *mut cl_mem).cast(), null())),
        CL_SUCCESS
    );
    assert_eq!(
        assoc, rgba,
        "CL_MEM_ASSOCIATED_MEMOBJECT is image_desc->mem_object"
    );
    let mut fl: cl_mem_flags = 0;
    assert_code!(
        call!(t; clGetMemObjectInfo(srgb, CL_MEM_FLAGS, 8, (&mut fl as *mut cl_mem_flags).cast(), null())),
        CL_SUCCESS
    );
    assert_eq!(
        fl & CL_MEM_READ_WRITE,
        CL_MEM_READ_WRITE,
        "inherited access flags"
    );
    let src = "
        kernel void rf(read_only image2d_t im, global float4 *o) {
            int i = get_global_id(0); o[i] = read_imagef(im, (int2)(i, 0));
        }
        kernel void rd(read_only image2d_depth_t im, global float *o) {
            int i = get_global_id(0); o[i] = read_imagef(im, (int2)(i, 0));
        }";
    let p = build(t, ctx, src, c"-cl-std=CL3.0");
    let ob = buffer_with(t, ctx, &[[0f32; 4]; 2]);
    let k = kernel(t, p, c"rf");
    assert_code!(set_arg(t, k, 0, &srgb), CL_SUCCESS);
    assert_code!(set_arg(t, k, 1, &ob), CL_SUCCESS);
    run(t, q, k, &[2]);
    let got: Vec<[f32; 4]> = read_buffer(t, q, ob, 2);
    for i in 0..2 {
        for c in 0..4 {
            let v = bytes[i * 4 + c] as f32 / 255.0;
            let want = if c < 3 { srgb_to_linear(v) } else { v };
            assert!(
                (got[i][c] - want).abs() <= 1e-6,
                "sRGBA view of RGBA, texel {i}.{c}: {} vs {want}",
                got[i][c]
            );
        }
    }
    // The store is shared: a write through the parent shows in the view.
    let new = [1u8, 2, 3, 4];
    write(t, q, rgba, [1, 0, 0], [1, 1, 1], 0, 0, new.as_ptr().cast());
    let mut back = [0u8; 8];
    read(t, q, srgb, O, [2, 1, 1], 0, 0, back.as_mut_ptr().cast());
    assert_eq!(back, [10, 128, 200, 77, 1, 2, 3, 4]);
    assert_code!(call!(t; clReleaseKernel(k)), CL_SUCCESS);
    // A DEPTH view of an R FLOAT image.
    let mut depths = [0.25f32, -7.5];
    let r = image(
        t,
        ctx,
        CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
        fmt(CL_R, CL_FLOAT),
        d2,
        depths.as_mut_ptr().cast(),
    );
    let mut dr = d2;
    dr.buffer = r;
    let dep = image(t, ctx, 0, fmt(CL_DEPTH, CL_FLOAT), dr, null());
    let k = kernel(t, p, c"rd");
    assert_code!(set_arg(t, k, 0, &dep), CL_SUCCESS);
    assert_code!(set_arg(t, k, 1, &ob), CL_SUCCESS);
    run(t, q, k, &[2]);
    let got: Vec<f32> = read_buffer(t, q, ob, 2);
    assert_eq!(got, depths);
    assert_code!(call!(t; clReleaseKernel(k)), CL_SUCCESS);
    // Errors: another data type or an incompatible order is
    // CL_INVALID_IMAGE_FORMAT_DESCRIPTOR; another size, or a 2D array from
    // an image, CL_INVALID_IMAGE_DESCRIPTOR; host pointer flags and access
    // flags the parent's contradict, CL_INVALID_VALUE.
    for f in [fmt(CL_RGBA, CL_UNORM_INT16), fmt(CL_BGRA, CL_UNORM_INT8)] {
        let (_, e) = try_image(t, ctx, 0, f, dv, null());
        assert_code!(
            e,
            CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
            "format {:#x}/{:#x}",
            f.image_channel_order,
            f.image_channel_data_type
        );
    }
    let mut wide = dv;
    wide.image_width = 3;
    let (_, e) = try_image(t, ctx, 0, fmt(CL_sRGBA, CL_UNORM_INT8), wide, null());
    assert_code!(e, CL_INVALID_IMAGE_DESCRIPTOR, "a view of another width");
    let mut arr = desc(CL_MEM_OBJECT_IMAGE2D_ARRAY, [2, 1, 0, 1], 0, 0);
    arr.buffer = rgba;
    let (_, e) = try_image(t, ctx, 0, fmt(CL_RGBA, CL_UNORM_INT8), arr, null());
    assert_code!(e, CL_INVALID_IMAGE_DESCRIPTOR, "a 2D array from an image");
    let (_, e) = try_image(
        t,
        ctx,
        CL_MEM_WRITE_ONLY,
        fmt(CL_DEPTH, CL_FLOAT),
        dr,
        null(),
    );
    assert_code!(e, CL_INVALID_VALUE, "WRITE_ONLY view of a READ_ONLY image");
    for m in [srgb, rgba, dep, r, ob] {
        assert_code!(call!(t; clReleaseMemObject(m)), CL_SUCCESS);
    }
    assert_code!(call!(t; clReleaseProgram(p)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
}

/// `CL_Rx` and `CL_RGx` in kernels: writes store r (and g) converted by the
/// spec's rules into one (two) channels; reads return (r, 0, 0, 1) and
/// (r, g, 0, 1) (the OpenCL C spec's table of image channel orders);
/// `get_image_channel_order` answers `CLK_Rx` / `CLK_RGx`; a clamping
/// sampler's border is (0, 0, 0, 1), as the Khronos CTS's reference gives
/// for orders without alpha (the OpenCL C spec's border list says
/// (0, 0, 0, 0) for Rx and RGx, as for RGBx: see `cts_findings`).
fn rx_rgx_kernels(t: &Cl) {
    let ctx = t.context();
    let q = t.queue(ctx, 0);
    let src = "
        kernel void wf(write_only image1d_t im, global const float4 *v) {
            int i = get_global_id(0); write_imagef(im, i, v[i]);
        }
        kernel void wi(write_only image1d_t im, global const int4 *v) {
            int i = get_global_id(0); write_imagei(im, i, v[i]);
        }
        kernel void wu(write_only image1d_t im, global const uint4 *v) {
            int i = get_global_id(0); write_imageui(im, i, v[i]);
        }
        kernel void rf(read_only image1d_t im, global float4 *o) {
            int i = get_global_id(0); o[i] = read_imagef(im, i);
        }
        kernel void ri(read_only image1d_t im, global int4 *o) {
            int i = get_global_id(0); o[i] = read_imagei(im, i);
        }
        kernel void ru(read_only image1d_t im, global uint4 *o) {
            int i = get_global_id(0); o[i] = read_imageui(im, i);
        }
        kernel void order(read_only image1d_t im, global int *o) {
            o[0] = get_image_channel_order(im);
            o[1] = get_image_channel_order(im) == CLK_Rx;
            o[2] = get_image_channel_order(im) == CLK_RGx;
        }
        kernel void rs(read_only image1d_t im, sampler_t s, global const float *x,
                       global float4 *o) {
            int i = get_global_id(0); o[i] = read_imagef(im, s, x[i]);
        }";
    let p = build(t, ctx, src, c"-cl-std=CL3.0");
    let n = 4usize;
    let d1 = desc(CL_MEM_OBJECT_IMAGE1D, [n, 0, 0, 0], 0, 0);
    let launch = |name: &std::ffi::CStr, im: cl_mem, buf: cl_mem, global: usize| {
        let k = kernel(t, p, name);
        assert_code!(set_arg(t, k, 0, &im), CL_SUCCESS);
        assert_code!(set_arg(t, k, 1, &buf), CL_SUCCESS);
        run(t, q, k, &[global]);
        assert_code!(call!(t; clReleaseKernel(k)), CL_SUCCESS);
    };
    // UNORM_INT8: rte(f × 255) saturated; read back as c / 255.
    let fv: Vec<[f32; 4]> = vec![
        [0.5, 0.25, 0.9, 0.1],
        [1.5, -0.5, 0.3, 0.2],
        [0.001, 0.999, 0.0, 1.0],
        [0.75, 0.2, 0.6, 0.9],
    ];
    let vb = buffer_with(t, ctx, &fv);
    let fo = buffer_with(t, ctx, &[[9f32; 4]; 4]);
    let ib = buffer_with(t, ctx, &[0i32; 3]);
    let unorm = |c: f32| (c * 255.0).round_ties_even().clamp(0.0, 255.0) as u8;
    for (o, channels) in [(CL_Rx, 1usize), (CL_RGx, 2)] {
        let im = image(t, ctx, CL_MEM_READ_WRITE, fmt(o, CL_UNORM_INT8), d1, null());
        launch(c"wf", im, vb, n);
        let mut raw = vec![0u8; n * channels];
        read(t, q, im, O, [n, 1, 1], 0, 0, raw.as_mut_ptr().cast());
        for (i, px) in fv.iter().enumerate() {
            for k in 0..channels {
                assert_eq!(
                    raw[i * channels + k],
                    unorm(px[k]),
                    "{o:#x} UNORM_INT8 texel {i} channel {k}"
                );
            }
        }
        launch(c"rf", im, fo, n);
        let back: Vec<[f32; 4]> = read_buffer(t, q, fo, n);
        for (i, px) in back.iter().enumerate() {
            let mut want = [0.0, 0.0, 0.0, 1.0];
            for k in 0..channels {
                want[k] = f32::from(unorm(fv[i][k])) / 255.0;
            }
            assert_eq!(*px, want, "{o:#x} UNORM_INT8 read {i}");
        }
        launch(c"order", im, ib, 1);
        let got: Vec<i32> = read_buffer(t, q, ib, 3);
        assert_eq!(
            got,
            [o as i32, (o == CL_Rx) as i32, (o == CL_RGx) as i32],
            "get_image_channel_order of {o:#x}"
        );
        assert_code!(call!(t; clReleaseMemObject(im)), CL_SUCCESS);
    }
    // FLOAT: r (and g) stored as given.
    for (o, channels) in [(CL_Rx, 1usize), (CL_RGx, 2)] {
        let im = image(t, ctx, CL_MEM_READ_WRITE, fmt(o, CL_FLOAT), d1, null());
        launch(c"wf", im, vb, n);
        let mut raw = vec![0f32; n * channels];
        read(t, q, im, O, [n, 1, 1], 0, 0, raw.as_mut_ptr().cast());
        let want: Vec<f32> = fv.iter().flat_map(|px| px[..channels].to_vec()).collect();
        assert_eq!(raw, want, "{o:#x} FLOAT texels");
        launch(c"rf", im, fo, n);
        let back: Vec<[f32; 4]> = read_buffer(t, q, fo, n);
        for (i, px) in back.iter().enumerate() {
            let mut want = [0.0, 0.0, 0.0, 1.0];
            want[..channels].copy_from_slice(&fv[i][..channels]);
            assert_eq!(*px, want, "{o:#x} FLOAT read {i}");
        }
        assert_code!(call!(t; clReleaseMemObject(im)), CL_SUCCESS);
    }
    // SIGNED_INT8 and UNSIGNED_INT16: saturated; reads (r, [g,] 0, 1).
    let iv: Vec<[i32; 4]> = vec![
        [-200, 5, 1, 2],
        [100, 300, 3, 4],
        [-7, -128, 5, 6],
        [0, 127, 7, 8],
    ];
    let uv: Vec<[u32; 4]> = vec![
        [70000, 1, 2, 3],
        [65535, 9, 4, 5],
        [0, 123456, 6, 7],
        [42, 65536, 8, 9],
    ];
    let ivb = buffer_with(t, ctx, &iv);
    let uvb = buffer_with(t, ctx, &uv);
    let io = buffer_with(t, ctx, &[[9i32; 4]; 4]);
    for (o, channels) in [(CL_Rx, 1usize), (CL_RGx, 2)] {
        let im = image(
            t,
            ctx,
            CL_MEM_READ_WRITE,
            fmt(o, CL_SIGNED_INT8),
            d1,
            null(),
        );
        launch(c"wi", im, ivb, n);
        let mut raw = vec![0i8; n * channels];
        read(t, q, im, O, [n, 1, 1], 0, 0, raw.as_mut_ptr().cast());
        let want: Vec<i8> = iv
            .iter()
            .flat_map(|px| px[..channels].iter().map(|&c| c.clamp(-128, 127) as i8))
            .collect();
        assert_eq!(raw, want, "{o:#x} SIGNED_INT8 texels");
        launch(c"ri", im, io, n);
        let back: Vec<[i32; 4]> = read_buffer(t, q, io, n);
        for (i, px) in back.iter().enumerate() {
            let mut want = [0, 0, 0, 1];
            for k in 0..channels {
                want[k] = iv[i][k].clamp(-128, 127);
            }
            assert_eq!(*px, want, "{o:#x} SIGNED_INT8 read {i}");
        }
        assert_code!(call!(t; clReleaseMemObject(im)), CL_SUCCESS);
        let im = image(
            t,
            ctx,
            CL_MEM_READ_WRITE,
            fmt(o, CL_UNSIGNED_INT16),
            d1,
            null(),
        );
        launch(c"wu", im, uvb, n);
        let mut raw = vec![0u16; n * channels];
        read(t, q, im, O, [n, 1, 1], 0, 0, raw.as_mut_ptr().cast());
        let want: Vec<u16> = uv
            .iter()
            .flat_map(|px| px[..channels].iter().map(|&c| c.min(65535) as u16))
            .collect();
        assert_eq!(raw, want, "{o:#x} UNSIGNED_INT16 texels");
        launch(c"ru", im, io, n);
        let back: Vec<[u32; 4]> = read_buffer(t, q, io, n);
        for (i, px) in back.iter().enumerate() {
            let mut want = [0, 0, 0, 1];
            for k in 0..channels {
                want[k] = uv[i][k].min(65535);
            }
            assert_eq!(*px, want, "{o:#x} UNSIGNED_INT16 read {i}");
        }
        assert_code!(call!(t; clReleaseMemObject(im)), CL_SUCCESS);
    }
    // A clamping sampler on a 2-texel FLOAT image: x = 5 and -3 read the
    // border (0, 0, 0, 1); nearest at 1.5 reads texel 1; linear at 0.0
    // weighs the border (i0 = -1) and texel 0 by one half each.
    let k = kernel(t, p, c"rs");
    let xs = [5.0f32, -3.0, 1.5, 0.0];
    let xb = buffer_with(t, ctx, &xs);
    let d2t = desc(CL_MEM_OBJECT_IMAGE1D, [2, 0, 0, 0], 0, 0);
    let texels = [[0.5f32, 0.25], [1.0, 0.75]];
    for (o, channels) in [(CL_Rx, 1usize), (CL_RGx, 2)] {
        let mut host: Vec<f32> = texels.iter().flat_map(|t| t[..channels].to_vec()).collect();
        let im = image(
            t,
            ctx,
            CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
            fmt(o, CL_FLOAT),
            d2t,
            host.as_mut_ptr().cast(),
        );
        let texel = |i: usize| {
            let mut v = [0.0f32, 0.0, 0.0, 1.0];
            v[..channels].copy_from_slice(&texels[i][..channels]);
            v
        };
        for filter in [CL_FILTER_NEAREST, CL_FILTER_LINEAR] {
            let smp = sampler(t, ctx, false, CL_ADDRESS_CLAMP, filter);
            assert_code!(set_arg(t, k, 0, &im), CL_SUCCESS);
            assert_code!(set_arg(t, k, 1, &smp), CL_SUCCESS);
            assert_code!(set_arg(t, k, 2, &xb), CL_SUCCESS);
            assert_code!(set_arg(t, k, 3, &fo), CL_SUCCESS);
            run(t, q, k, &[xs.len()]);
            let got: Vec<[f32; 4]> = read_buffer(t, q, fo, xs.len());
            let border = [0.0, 0.0, 0.0, 1.0];
            assert_eq!(got[0], border, "{o:#x} filter {filter:#x} border at x=5");
            assert_eq!(got[1], border, "{o:#x} filter {filter:#x} border at x=-3");
            if filter == CL_FILTER_NEAREST {
                assert_eq!(got[2], texel(1), "{o:#x} nearest at 1.5");
                assert_eq!(got[3], texel(0), "{o:#x} nearest at 0.0");
            } else {
                // 1.5 - 0.5 = 1.0: i0 = 1, i1 = 2 (the border), a = 0.
                assert_eq!(got[2], texel(1), "{o:#x} linear at 1.5");
                let t0 = texel(0);
                let want: Vec<f32> = (0..4).map(|c| 0.5 * border[c] + 0.5 * t0[c]).collect();
                assert_eq!(got[3].to_vec(), want, "{o:#x} linear at 0.0");
            }
            assert_code!(call!(t; clReleaseSampler(smp)), CL_SUCCESS);
        }
        assert_code!(call!(t; clReleaseMemObject(im)), CL_SUCCESS);
    }
    assert_code!(call!(t; clReleaseKernel(k)), CL_SUCCESS);
    for m in [vb, fo, ib, ivb, uvb, io, xb] {
        assert_code!(call!(t; clReleaseMemObject(m)), CL_SUCCESS);
    }
    assert_code!(call!(t; clReleaseProgram(p)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
}

/// The kernels run through the loader only (the direct table is the same
/// code, and each build takes a while).
mod kernels {
    #[test]
    fn sampling_matrix() {
        super::sampling_matrix(cranecl_conformance::cl())
    }
    #[test]
    fn unorm8_reads_and_writes() {
        super::unorm8_reads_and_writes(cranecl_conformance::cl())
    }
    #[test]
    fn samplers_in_source_and_queries() {
        super::samplers_in_source_and_queries(cranecl_conformance::cl())
    }
    #[test]
    fn conversions() {
        super::conversions(cranecl_conformance::cl())
    }
    #[test]
    fn image1d_buffer() {
        super::image1d_buffer(cranecl_conformance::cl())
    }
    #[test]
    fn packed_and_srgb() {
        super::packed_and_srgb(cranecl_conformance::cl())
    }
    #[test]
    fn read_write_and_3d_writes() {
        super::read_write_and_3d_writes(cranecl_conformance::cl())
    }
    #[test]
    fn half_reads_and_writes() {
        super::half_reads_and_writes(cranecl_conformance::cl())
    }
    #[test]
    fn cts_findings() {
        super::cts_findings(cranecl_conformance::cl())
    }
    #[test]
    fn depth_images() {
        super::depth_images(cranecl_conformance::cl())
    }
    #[test]
    fn image_from_image() {
        super::image_from_image(cranecl_conformance::cl())
    }
    #[test]
    fn rx_rgx_kernels() {
        super::rx_rgx_kernels(cranecl_conformance::cl())
    }
}
