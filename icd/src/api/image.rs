//! Image memory objects: `clCreateImage[WithProperties]`, the 1.x
//! `clCreateImage2D`/`3D`, `clGetSupportedImageFormats` and
//! `clGetImageInfo` (the image commands are in `image_commands`).
//!
//! Each entry point checks its arguments in the order the spec lists the
//! errors, the spec's sentence above each check. An image's data store is
//! made like a buffer's (`core::mem`): a fresh zeroed allocation with tight
//! pitches, a copy of the user's data (with the user's pitches), or the
//! user's memory itself with its pitches (`CL_MEM_USE_HOST_PTR`); a 1D
//! image buffer's store, and a 2D image's made from a buffer
//! (`cl_khr_image2d_from_buffer`) or from another 2D image (a view with
//! another channel order), is that memory object's
//! (`Mem::new_image_on_buffer`).

#![allow(non_snake_case, clippy::missing_safety_doc)]

use super::mem::{check_mem_flags, mem_properties};
use super::prelude::*;
use crate::core::context::Context;
use crate::core::device::device;
use crate::core::image::{
    Image, IMAGE2D_MAX, IMAGE3D_MAX, IMAGE_MAX_ARRAY_SIZE, IMAGE_MAX_BUFFER_SIZE,
};
use crate::core::mem::{Mem, Store};
use crate::core::mem::{ACCESS_FLAGS, HOST_ACCESS_FLAGS, HOST_PTR_FLAGS};
use crate::core::transfer::{self, RectSide};
use cranecl_memory::image::{self as img, ImageDesc};

/// The image types of `clGetSupportedImageFormats`.
const IMAGE_TYPES: [cl_mem_object_type; 6] = [
    CL_MEM_OBJECT_IMAGE1D,
    CL_MEM_OBJECT_IMAGE1D_BUFFER,
    CL_MEM_OBJECT_IMAGE2D,
    CL_MEM_OBJECT_IMAGE3D,
    CL_MEM_OBJECT_IMAGE1D_ARRAY,
    CL_MEM_OBJECT_IMAGE2D_ARRAY,
];

/// The formats offered for `image_type` (the same for every access flag;
/// the depth formats for 2D images and 2D arrays only).
fn formats_for(image_type: cl_mem_object_type) -> Vec<(u32, u32)> {
    img::supported_formats_for(image_type)
}

/// `image_format`: CL_INVALID_IMAGE_FORMAT_DESCRIPTOR if NULL or its values
/// are not valid.
fn read_format(image_format: *const cl_image_format) -> CLResult<cl_image_format> {
    if image_format.is_null() {
        return err(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "image_format is NULL");
    }
    // SAFETY: a non-NULL image_format points at a cl_image_format.
    let f = unsafe { image_format.read_unaligned() };
    if !img::known_order(f.image_channel_order) || !img::known_data_type(f.image_channel_data_type)
    {
        return err(
            CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
            format!(
                "image_format ({:#x}, {:#x}) is not a channel order and data type",
                f.image_channel_order, f.image_channel_data_type
            ),
        );
    }
    Ok(f)
}

/// The geometry of a new image after the descriptor's checks.
struct Geometry {
    image_type: cl_mem_object_type,
    width: usize,
    height: usize,
    depth: usize,
    array_size: usize,
    /// The pitches of the host data (0 given: tight), for COPY/USE_HOST_PTR.
    host_row_pitch: usize,
    host_slice_pitch: usize,
    /// `image_desc->buffer` of a 1D image buffer.
    buffer: cl_mem,
}

fn bad_desc<T>(msg: impl Into<String>) -> CLResult<T> {
    err(CL_INVALID_IMAGE_DESCRIPTOR, msg)
}

/// CL_INVALID_IMAGE_DESCRIPTOR if values specified in image_desc are not
/// valid or if image_desc is NULL; CL_INVALID_IMAGE_SIZE if the dimensions
/// exceed the device's maximums.
fn read_desc(desc: *const cl_image_desc, elem: usize, host_ptr: *mut c_void) -> CLResult<Geometry> {
    if desc.is_null() {
        return bad_desc("image_desc is NULL");
    }
    // SAFETY: a non-NULL image_desc points at a cl_image_desc.
    let d = unsafe { desc.read_unaligned() };
    let t = d.image_type;
    if !IMAGE_TYPES.contains(&t) {
        return bad_desc(format!("image_type {t:#x} is not an image type"));
    }
    if d.num_mip_levels != 0 || d.num_samples != 0 {
        return bad_desc("num_mip_levels and num_samples must be 0");
    }
    let mem_object = d.buffer;
    // A memory object only for a 1D image buffer and a 2D image from a
    // buffer (cl_khr_image2d_from_buffer) or from another 2D image.
    if !matches!(t, CL_MEM_OBJECT_IMAGE1D_BUFFER | CL_MEM_OBJECT_IMAGE2D) && !mem_object.is_null() {
        return bad_desc("image_desc->buffer must be NULL for this image type");
    }
    let (w, h, dd, a) = (
        d.image_width,
        d.image_height,
        d.image_depth,
        d.image_array_size,
    );
    let uses = |used: bool, v: usize| !used || v >= 1;
    let has_h = matches!(
        t,
        CL_MEM_OBJECT_IMAGE2D | CL_MEM_OBJECT_IMAGE2D_ARRAY | CL_MEM_OBJECT_IMAGE3D
    );
    let has_d = t == CL_MEM_OBJECT_IMAGE3D;
    let has_a = matches!(t, CL_MEM_OBJECT_IMAGE1D_ARRAY | CL_MEM_OBJECT_IMAGE2D_ARRAY);
    if w == 0 || !uses(has_h, h) || !uses(has_d, dd) || !uses(has_a, a) {
        return bad_desc("an image dimension used by image_type is 0");
    }
    let (h, dd, a) = (
        if has_h { h } else { 1 },
        if has_d { dd } else { 1 },
        if has_a { a } else { 1 },
    );
    // CL_INVALID_IMAGE_SIZE if image dimensions specified in image_desc
    // exceed the maximum image dimensions for all devices in context.
    let max = if has_d {
        IMAGE3D_MAX
    } else if t == CL_MEM_OBJECT_IMAGE1D_BUFFER {
        IMAGE_MAX_BUFFER_SIZE
    } else {
        IMAGE2D_MAX
    };
    if w > max || h > max || dd > IMAGE3D_MAX || a > IMAGE_MAX_ARRAY_SIZE {
        return err(
            CL_INVALID_IMAGE_SIZE,
            format!("image of {w} x {h} x {dd} (array {a}) exceeds the device's maximums"),
        );
    }
    // image_row_pitch: 0 if host_ptr is NULL (unless the image is made from
    // a buffer: a 2D image's row pitch in it, a 1D image buffer's one row);
    // else 0 or ≥ width × element size, and a multiple of the element size
    // (for a 2D image from a buffer, of CL_DEVICE_IMAGE_PITCH_ALIGNMENT, 1,
    // pixels).
    let (rp, sp) = (d.image_row_pitch, d.image_slice_pitch);
    let from_buffer =
        (t == CL_MEM_OBJECT_IMAGE2D || t == CL_MEM_OBJECT_IMAGE1D_BUFFER) && !mem_object.is_null();
    if host_ptr.is_null() && !from_buffer && (rp != 0 || sp != 0) {
        return bad_desc("image_row_pitch and image_slice_pitch must be 0 when host_ptr is NULL");
    }
    let Some(row) = w.checked_mul(elem) else {
        return err(CL_INVALID_IMAGE_SIZE, "image size overflows");
    };
    if rp != 0 && (rp < row || !rp.is_multiple_of(elem)) {
        return bad_desc(format!(
            "image_row_pitch {rp} is less than width x element size ({row}) or not a multiple of the element size"
        ));
    }
    let row = if rp == 0 { row } else { rp };
    // image_slice_pitch: 0 or ≥ row pitch × height (≥ row pitch for a 1D
    // array), and a multiple of the row pitch; 0 for 1D and 2D images.
    let plane = if t == CL_MEM_OBJECT_IMAGE1D_ARRAY {
        row
    } else {
        row.saturating_mul(h)
    };
    if sp != 0 && (has_d || has_a) && (sp < plane || !sp.is_multiple_of(row)) {
        return bad_desc(format!(
            "image_slice_pitch {sp} is less than one slice ({plane}) or not a multiple of the row pitch"
        ));
    }
    Ok(Geometry {
        image_type: t,
        width: w,
        height: h,
        depth: dd,
        array_size: a,
        // A 1D image buffer is one row: its pitch says nothing more.
        host_row_pitch: if t == CL_MEM_OBJECT_IMAGE1D_BUFFER {
            0
        } else {
            rp
        },
        host_slice_pitch: if has_d || has_a { sp } else { 0 },
        buffer: mem_object,
    })
}

#[allow(clippy::too_many_arguments)]
fn create_image(
    context: cl_context,
    properties: *const cl_mem_properties,
    flags: cl_mem_flags,
    image_format: *const cl_image_format,
    image_desc: *const cl_image_desc,
    host_ptr: *mut c_void,
) -> CLResult<cl_mem> {
    // CL_INVALID_CONTEXT if context is not a valid context.
    let context: Arc<Obj<Context>> = Obj::get(context)?;
    // CL_INVALID_PROPERTY if a property name in properties is not a
    // supported property name.
    let properties = mem_properties(properties)?;
    // CL_INVALID_VALUE if values specified in flags are not valid.
    check_mem_flags(flags)?;
    // CL_INVALID_IMAGE_FORMAT_DESCRIPTOR if values specified in image_format
    // are not valid or if image_format is NULL.
    let format = read_format(image_format)?;
    let (o, t) = (format.image_channel_order, format.image_channel_data_type);
    let elem = img::element_size(o, t);
    // CL_INVALID_IMAGE_DESCRIPTOR / CL_INVALID_IMAGE_SIZE.
    let g = read_desc(image_desc, elem.max(1), host_ptr)?;
    // CL_INVALID_HOST_PTR if host_ptr is NULL and CL_MEM_USE_HOST_PTR or
    // CL_MEM_COPY_HOST_PTR are set in flags or if host_ptr is not NULL but
    // CL_MEM_COPY_HOST_PTR or CL_MEM_USE_HOST_PTR are not set in flags.
    let wants_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR) != 0;
    check(
        wants_ptr != host_ptr.is_null(),
        CL_INVALID_HOST_PTR,
        if wants_ptr {
            "host_ptr is NULL with USE_HOST_PTR or COPY_HOST_PTR"
        } else {
            "host_ptr given without USE_HOST_PTR or COPY_HOST_PTR"
        },
    )?;
    // CL_IMAGE_FORMAT_NOT_SUPPORTED if the image_format is not supported.
    if !formats_for(g.image_type).contains(&(o, t)) {
        return err(
            CL_IMAGE_FORMAT_NOT_SUPPORTED,
            format!("image format ({o:#x}, {t:#x}) is not supported for this image type"),
        );
    }
    // CL_INVALID_OPERATION if there are no devices in context that support
    // images.
    check(
        device().image_support(),
        CL_INVALID_OPERATION,
        "no device in the context supports images",
    )?;
    if g.image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER || !g.buffer.is_null() {
        return image_on_buffer(&context, flags, format, elem, &g);
    }
    let layers = g.depth * g.array_size;
    let tight_row = g.width * elem;
    let tight_slice = if g.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY {
        tight_row
    } else {
        tight_row * g.height
    };
    // The store's pitches: the user's with USE_HOST_PTR, else tight.
    let use_host = flags & CL_MEM_USE_HOST_PTR != 0;
    let (row_pitch, slice_pitch) = if use_host {
        let r = if g.host_row_pitch == 0 {
            tight_row
        } else {
            g.host_row_pitch
        };
        let plane = if g.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY {
            r
        } else {
            r.saturating_mul(g.height)
        };
        let s = if g.host_slice_pitch == 0 {
            plane
        } else {
            g.host_slice_pitch
        };
        (r, s)
    } else {
        (tight_row, tight_slice)
    };
    let Some(size) = slice_pitch.checked_mul(layers) else {
        return err(CL_INVALID_IMAGE_SIZE, "image size overflows");
    };
    if size as u64 > device().max_mem_alloc_size() {
        return err(
            CL_INVALID_IMAGE_SIZE,
            "the image is larger than CL_DEVICE_MAX_MEM_ALLOC_SIZE",
        );
    }
    let image = Image {
        format,
        image_type: g.image_type,
        desc: ImageDesc {
            data: ptr::null_mut(),
            width: g.width as u64,
            height: g.height as u64,
            depth: g.depth as u64,
            array_size: g.array_size as u64,
            row_pitch: row_pitch as u64,
            slice_pitch: slice_pitch as u64,
            elem_size: elem as u32,
            order: o,
            data_type: t,
            image_type: g.image_type,
        },
        buffer: None,
    };
    let store = if use_host {
        Store::Use(host_ptr as *mut u8)
    } else {
        Store::Alloc
    };
    // CL_MEM_OBJECT_ALLOCATION_FAILURE if there is a failure to allocate
    // memory for the image object.
    // SAFETY: with USE_HOST_PTR the spec makes the user keep `size` bytes
    // (the image with its pitches) at host_ptr for the image's life.
    let mem = unsafe { Mem::new_image(context, flags, size, store, properties, image)? };
    if flags & CL_MEM_COPY_HOST_PTR != 0 {
        // The user's data with its pitches into the tight store.
        let rows = if g.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY {
            1
        } else {
            g.height
        };
        let region = [tight_row, rows, layers];
        let hr = if g.host_row_pitch == 0 {
            tight_row
        } else {
            g.host_row_pitch
        };
        let hs = if g.host_slice_pitch == 0 {
            hr.saturating_mul(rows)
        } else {
            g.host_slice_pitch
        };
        let src = RectSide::new("host", [0; 3], region, hr, hs)?;
        let dst = RectSide::new("image", [0; 3], region, row_pitch, slice_pitch)?;
        // SAFETY: the user guarantees the image's bytes at host_ptr with
        // these pitches; the store holds `size` bytes with its own.
        unsafe { transfer::copy_rect(mem.base(), &dst, host_ptr as *const u8, &src, region) };
    }
    Ok(Obj::into_handle(mem))
}

/// A 2D image made from another 2D image ("a new 2D image object that
/// shares the image data store with mem_object but views the pixels with a
/// different image channel order"): the spec's restrictions, and the
/// parent's row pitch and store size. The descriptor's values must match
/// the parent's (a row pitch of 0 stands for the parent's) — else
/// CL_INVALID_IMAGE_DESCRIPTOR —; the channel data type must be the
/// parent's and the channel order the same or compatible by the spec's
/// "Compatible Image Channel Orders" table (sRGBA/RGBA, sBGRA/BGRA,
/// sRGB/RGB, sRGBx/RGBx, DEPTH from R) — else
/// CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, the values in image_format not valid.
fn image_from_image(
    format: cl_image_format,
    g: &Geometry,
    parent: &Image,
) -> CLResult<(usize, usize)> {
    let pd = &parent.desc;
    if g.image_type != CL_MEM_OBJECT_IMAGE2D || parent.image_type != CL_MEM_OBJECT_IMAGE2D {
        return bad_desc("an image can be made only as a 2D image from another 2D image");
    }
    let row = pd.row_pitch as usize;
    if g.width as u64 != pd.width
        || g.height as u64 != pd.height
        || (g.host_row_pitch != 0 && g.host_row_pitch != row)
    {
        return bad_desc(format!(
            "image_desc ({} x {}, row pitch {}) does not match image_desc->mem_object's ({} x {}, row pitch {row})",
            g.width, g.height, g.host_row_pitch, pd.width, pd.height
        ));
    }
    let (o, t) = (format.image_channel_order, format.image_channel_data_type);
    let (po, pt) = (
        parent.format.image_channel_order,
        parent.format.image_channel_data_type,
    );
    const COMPATIBLE: [(cl_channel_order, cl_channel_order); 9] = [
        (CL_sBGRA, CL_BGRA),
        (CL_BGRA, CL_sBGRA),
        (CL_sRGBA, CL_RGBA),
        (CL_RGBA, CL_sRGBA),
        (CL_sRGB, CL_RGB),
        (CL_RGB, CL_sRGB),
        (CL_sRGBx, CL_RGBx),
        (CL_RGBx, CL_sRGBx),
        (CL_DEPTH, CL_R),
    ];
    let compatible = o == po || COMPATIBLE.contains(&(o, po));
    if t != pt || !compatible {
        return err(
            CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
            format!(
                "image format ({o:#x}, {t:#x}) is not compatible with image_desc->mem_object's ({po:#x}, {pt:#x})"
            ),
        );
    }
    Ok((row, row * g.height))
}

/// A 1D image buffer, or a 2D image from a buffer or from another 2D
/// image: checks of the memory object and of the flags against its own,
/// then a window on its store.
fn image_on_buffer(
    context: &Arc<Obj<Context>>,
    flags: cl_mem_flags,
    format: cl_image_format,
    elem: usize,
    g: &Geometry,
) -> CLResult<cl_mem> {
    // CL_INVALID_IMAGE_DESCRIPTOR: image_desc->mem_object must be a valid
    // buffer object of the context holding the image (width × element size
    // bytes for a 1D image buffer, row pitch × height for a 2D image), or
    // for a 2D image a 2D image of the context (below).
    let buffer = match Obj::<Mem>::get(g.buffer) {
        Ok(b) if Arc::ptr_eq(b.context(), context) => b,
        _ => return bad_desc("image_desc->mem_object is not a memory object of the context"),
    };
    let (row, size) = if let Some(parent) = buffer.image() {
        image_from_image(format, g, parent)?
    } else {
        let row = if g.host_row_pitch == 0 {
            g.width * elem
        } else {
            g.host_row_pitch
        };
        let Some(size) = row.checked_mul(g.height) else {
            return err(CL_INVALID_IMAGE_SIZE, "image size overflows");
        };
        if size > buffer.size() {
            return bad_desc(format!(
                "the image needs {size} bytes; image_desc->buffer has {}",
                buffer.size()
            ));
        }
        (row, size)
    };
    // CL_INVALID_VALUE if an image is being created from a buffer and: the
    // buffer was created with CL_MEM_WRITE_ONLY and flags specify
    // CL_MEM_READ_WRITE or CL_MEM_READ_ONLY; with CL_MEM_READ_ONLY and flags
    // specify CL_MEM_READ_WRITE or CL_MEM_WRITE_ONLY; flags specify
    // CL_MEM_USE_HOST_PTR, CL_MEM_ALLOC_HOST_PTR or CL_MEM_COPY_HOST_PTR; the
    // buffer was created with CL_MEM_HOST_WRITE_ONLY and flags specify
    // CL_MEM_HOST_READ_ONLY, with CL_MEM_HOST_READ_ONLY and flags specify
    // CL_MEM_HOST_WRITE_ONLY, or with CL_MEM_HOST_NO_ACCESS and flags
    // specify CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_WRITE_ONLY.
    let bf = buffer.flags();
    let clash = (bf & CL_MEM_WRITE_ONLY != 0
        && flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY) != 0)
        || (bf & CL_MEM_READ_ONLY != 0 && flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY) != 0)
        || flags & HOST_PTR_FLAGS != 0
        || (bf & CL_MEM_HOST_WRITE_ONLY != 0 && flags & CL_MEM_HOST_READ_ONLY != 0)
        || (bf & CL_MEM_HOST_READ_ONLY != 0 && flags & CL_MEM_HOST_WRITE_ONLY != 0)
        || (bf & CL_MEM_HOST_NO_ACCESS != 0
            && flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY) != 0);
    check(
        !clash,
        CL_INVALID_VALUE,
        "flags contradict the flags of image_desc->buffer",
    )?;
    // Access and host-access flags not given are the buffer's.
    let mut flags = flags;
    if flags & ACCESS_FLAGS == 0 {
        flags |= bf & ACCESS_FLAGS;
    }
    if flags & HOST_ACCESS_FLAGS == 0 {
        flags |= bf & HOST_ACCESS_FLAGS;
    }
    let image = Image {
        format,
        image_type: g.image_type,
        desc: ImageDesc {
            data: ptr::null_mut(),
            width: g.width as u64,
            height: g.height as u64,
            depth: 1,
            array_size: 1,
            row_pitch: row as u64,
            slice_pitch: size as u64,
            elem_size: elem as u32,
            order: format.image_channel_order,
            data_type: format.image_channel_data_type,
            image_type: g.image_type,
        },
        buffer: Some(buffer.clone()),
    };
    let mem = Mem::new_image_on_buffer(&buffer, flags, size, image);
    Ok(Obj::into_handle(mem))
}

#[no_mangle]
pub unsafe extern "C" fn clCreateImage(
    context: cl_context,
    flags: cl_mem_flags,
    image_format: *const cl_image_format,
    image_desc: *const cl_image_desc,
    host_ptr: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    api_create(errcode_ret, ptr::null_mut(), || {
        create_image(
            context,
            ptr::null(),
            flags,
            image_format,
            image_desc,
            host_ptr,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn clCreateImageWithProperties(
    context: cl_context,
    properties: *const cl_mem_properties,
    flags: cl_mem_flags,
    image_format: *const cl_image_format,
    image_desc: *const cl_image_desc,
    host_ptr: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    api_create(errcode_ret, ptr::null_mut(), || {
        create_image(
            context,
            properties,
            flags,
            image_format,
            image_desc,
            host_ptr,
        )
    })
}

/// A descriptor for the 1.x entry points.
fn legacy_desc(
    image_type: cl_mem_object_type,
    size: [usize; 3],
    row_pitch: usize,
    slice_pitch: usize,
) -> cl_image_desc {
    // SAFETY: cl_image_desc is plain data; all-zero is a valid value.
    let mut d: cl_image_desc = unsafe { std::mem::zeroed() };
    d.image_type = image_type;
    d.image_width = size[0];
    d.image_height = size[1];
    d.image_depth = size[2];
    d.image_row_pitch = row_pitch;
    d.image_slice_pitch = slice_pitch;
    d
}

/// The 1.x calls: CL_INVALID_IMAGE_SIZE (not _DESCRIPTOR) for a zero size.
fn legacy_sizes(size: &[usize]) -> CLResult<()> {
    check(
        !size.contains(&0),
        CL_INVALID_IMAGE_SIZE,
        "an image dimension is 0",
    )
}

/// The 1.x calls: "CL_INVALID_IMAGE_SIZE if ... values specified by
/// image_row_pitch [and image_slice_pitch] do not follow rules described in
/// the argument description": what `clCreateImage` calls a bad descriptor.
fn legacy_codes(r: CLResult<cl_mem>) -> CLResult<cl_mem> {
    r.map_err(|e| {
        if e.code == CL_INVALID_IMAGE_DESCRIPTOR {
            ClError::new(CL_INVALID_IMAGE_SIZE, e.message)
        } else {
            e
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn clCreateImage2D(
    context: cl_context,
    flags: cl_mem_flags,
    image_format: *const cl_image_format,
    image_width: size_t,
    image_height: size_t,
    image_row_pitch: size_t,
    host_ptr: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    api_create(errcode_ret, ptr::null_mut(), || {
        Obj::<Context>::get(context)?;
        check_mem_flags(flags)?;
        read_format(image_format)?;
        legacy_sizes(&[image_width, image_height])?;
        let d = legacy_desc(
            CL_MEM_OBJECT_IMAGE2D,
            [image_width, image_height, 0],
            image_row_pitch,
            0,
        );
        legacy_codes(create_image(
            context,
            ptr::null(),
            flags,
            image_format,
            &d,
            host_ptr,
        ))
    })
}

#[no_mangle]
pub unsafe extern "C" fn clCreateImage3D(
    context: cl_context,
    flags: cl_mem_flags,
    image_format: *const cl_image_format,
    image_width: size_t,
    image_height: size_t,
    image_depth: size_t,
    image_row_pitch: size_t,
    image_slice_pitch: size_t,
    host_ptr: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    api_create(errcode_ret, ptr::null_mut(), || {
        Obj::<Context>::get(context)?;
        check_mem_flags(flags)?;
        read_format(image_format)?;
        legacy_sizes(&[image_width, image_height, image_depth])?;
        // CL_INVALID_IMAGE_SIZE if image_depth ≤ 1 (a 3D image has depth > 1).
        check(
            image_depth > 1,
            CL_INVALID_IMAGE_SIZE,
            "clCreateImage3D needs image_depth > 1",
        )?;
        let d = legacy_desc(
            CL_MEM_OBJECT_IMAGE3D,
            [image_width, image_height, image_depth],
            image_row_pitch,
            image_slice_pitch,
        );
        legacy_codes(create_image(
            context,
            ptr::null(),
            flags,
            image_format,
            &d,
            host_ptr,
        ))
    })
}

fn supported_image_formats(
    context: cl_context,
    flags: cl_mem_flags,
    image_type: cl_mem_object_type,
    num_entries: cl_uint,
    image_formats: *mut cl_image_format,
    num_image_formats: *mut cl_uint,
) -> CLResult<()> {
    // CL_INVALID_CONTEXT if context is not a valid context.
    Obj::<Context>::get(context)?;
    // CL_INVALID_VALUE if flags or image_type are not valid, or if
    // num_entries is 0 and image_formats is not NULL.
    check_mem_flags(flags)?;
    check(
        IMAGE_TYPES.contains(&image_type),
        CL_INVALID_VALUE,
        "image_type is not an image type",
    )?;
    check(
        num_entries != 0 || image_formats.is_null(),
        CL_INVALID_VALUE,
        "num_entries is 0 and image_formats is not NULL",
    )?;
    let list = if device().image_support() {
        formats_for(image_type)
    } else {
        Vec::new()
    };
    if !image_formats.is_null() {
        for (i, &(o, t)) in list.iter().take(num_entries as usize).enumerate() {
            // SAFETY: the user gave room for num_entries formats.
            unsafe {
                image_formats.add(i).write_unaligned(cl_image_format {
                    image_channel_order: o,
                    image_channel_data_type: t,
                })
            };
        }
    }
    if !num_image_formats.is_null() {
        // SAFETY: a non-NULL num_image_formats points at a cl_uint.
        unsafe { num_image_formats.write_unaligned(list.len() as cl_uint) };
    }
    Ok(())
}

#[no_mangle]
pub unsafe extern "C" fn clGetSupportedImageFormats(
    context: cl_context,
    flags: cl_mem_flags,
    image_type: cl_mem_object_type,
    num_entries: cl_uint,
    image_formats: *mut cl_image_format,
    num_image_formats: *mut cl_uint,
) -> cl_int {
    api_call(|| {
        supported_image_formats(
            context,
            flags,
            image_type,
            num_entries,
            image_formats,
            num_image_formats,
        )
    })
}

fn image_info(image: cl_mem, param: cl_image_info, out: InfoOut) -> CLResult<()> {
    // CL_INVALID_MEM_OBJECT if image is not a valid image object.
    let mem = Obj::<Mem>::get(image)?;
    let Some(i) = mem.image() else {
        return err(CL_INVALID_MEM_OBJECT, "not an image object");
    };
    let d = &i.desc;
    let t = i.image_type;
    let zero_unless = |used: bool, v: u64| if used { v as usize } else { 0 };
    match param {
        CL_IMAGE_FORMAT => out.value(i.format),
        CL_IMAGE_ELEMENT_SIZE => out.value::<usize>(i.element_size()),
        CL_IMAGE_ROW_PITCH => out.value::<usize>(d.row_pitch as usize),
        CL_IMAGE_SLICE_PITCH => out.value::<usize>(zero_unless(
            matches!(
                t,
                CL_MEM_OBJECT_IMAGE1D_ARRAY | CL_MEM_OBJECT_IMAGE2D_ARRAY | CL_MEM_OBJECT_IMAGE3D
            ),
            d.slice_pitch,
        )),
        CL_IMAGE_WIDTH => out.value::<usize>(d.width as usize),
        CL_IMAGE_HEIGHT => out.value::<usize>(zero_unless(
            matches!(
                t,
                CL_MEM_OBJECT_IMAGE2D | CL_MEM_OBJECT_IMAGE2D_ARRAY | CL_MEM_OBJECT_IMAGE3D
            ),
            d.height,
        )),
        CL_IMAGE_DEPTH => out.value::<usize>(zero_unless(t == CL_MEM_OBJECT_IMAGE3D, d.depth)),
        CL_IMAGE_ARRAY_SIZE => out.value::<usize>(zero_unless(
            matches!(t, CL_MEM_OBJECT_IMAGE1D_ARRAY | CL_MEM_OBJECT_IMAGE2D_ARRAY),
            d.array_size,
        )),
        // The buffer an image was made from (NULL for a 2D image made from
        // another image: CL_MEM_ASSOCIATED_MEMOBJECT names that one).
        CL_IMAGE_BUFFER => out.value(
            i.buffer
                .as_ref()
                .filter(|b| b.image().is_none())
                .map_or(ptr::null_mut(), Obj::handle),
        ),
        CL_IMAGE_NUM_MIP_LEVELS | CL_IMAGE_NUM_SAMPLES => out.value::<cl_uint>(0),
        // CL_INVALID_VALUE if param_name is not valid.
        _ => err(
            CL_INVALID_VALUE,
            format!("unknown cl_image_info {param:#x}"),
        ),
    }
}

info_entry_points! {
    fn clGetImageInfo(image: cl_mem, param_name: cl_image_info) = image_info;
}
