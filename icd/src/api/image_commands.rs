//! The image commands behind `clEnqueue{Read,Write,Copy,Fill,Map}Image`,
//! `clEnqueueCopyImageToBuffer` and `clEnqueueCopyBufferToImage` (the
//! `extern "C"` stubs are in `enqueue`).
//!
//! An image's store is host memory with pitches, so every command is a
//! rectangle copy (`transfer::copy_rect`) between byte rectangles made by
//! `core::image::Image::rect` from the API's origin and region; a fill
//! converts the colour once (`cranecl_memory::image::store`) and repeats
//! the texel; a map is zero copy. Checks follow the order of each command's
//! error list, as in `mem_commands`, whose `Command` they share. The copy
//! and fill commands check their values and build their work in a `*_work`
//! function ([`ImageWork`]), which a command-buffer's `clCommand*KHR`
//! records after the same checks.

use super::mem_commands::{buffer_of, host_access, kind_for, mem_of, queue, triple, Command};
use super::prelude::*;
use crate::core::image::Image;
use crate::core::mem::Mem;
use crate::core::queue::Queue;
use crate::core::transfer::{self, rects_overlap, RectSide, SendPtr};
use crate::exec::api_check::Usage;
use crate::exec::Replay;
use cranecl_memory::image::{self as img, Texel};

/// CL_INVALID_MEM_OBJECT if `image` is not a valid image object;
/// CL_INVALID_CONTEXT if its context is not the queue's.
fn image_of(q: &Queue, image: cl_mem, what: &str) -> CLResult<Arc<Obj<Mem>>> {
    let m = mem_of(q, image, what)?;
    if m.image().is_none() {
        return err(
            CL_INVALID_MEM_OBJECT,
            format!("{what} is not an image object"),
        );
    }
    Ok(m)
}

fn image(m: &Mem) -> &Image {
    // `image_of` made sure it is one.
    m.image().expect("an image object")
}

/// `clEnqueueReadImage` and `clEnqueueWriteImage`.
#[allow(clippy::too_many_arguments)]
pub fn read_write_image(
    write: bool,
    command_queue: cl_command_queue,
    image_obj: cl_mem,
    blocking: cl_bool,
    origin: *const usize,
    region: *const usize,
    row_pitch: usize,
    slice_pitch: usize,
    ptr: *mut c_void,
    num_events: cl_uint,
    wait_list: *const cl_event,
    event: *mut cl_event,
) -> CLResult<()> {
    let q = queue(command_queue)?;
    let mem = image_of(&q, image_obj, "image")?;
    let im = image(&mem);
    // CL_INVALID_VALUE if the region being read or written specified by
    // origin and region is out of bounds, or if the values in origin and
    // region do not follow the rules for the image type.
    let origin = triple(origin, "origin")?;
    let region = triple(region, "region")?;
    let side = im.rect("image", origin, region)?;
    // CL_INVALID_VALUE if ptr is NULL.
    check(!ptr.is_null(), CL_INVALID_VALUE, "ptr is NULL")?;
    // The pitch rules of row_pitch and slice_pitch (CL_INVALID_VALUE).
    let host = im.host_side(region, row_pitch, slice_pitch)?;
    let command_type = if write {
        CL_COMMAND_WRITE_IMAGE
    } else {
        CL_COMMAND_READ_IMAGE
    };
    let cmd = Command::new(q, command_type, num_events, wait_list)?;
    // CL_INVALID_OPERATION if clEnqueueReadImage is called on an image
    // created with CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS, or
    // clEnqueueWriteImage on one created with CL_MEM_HOST_READ_ONLY or
    // CL_MEM_HOST_NO_ACCESS.
    host_access(&mem, !write, write)?;
    let usage = if write { Usage::Write } else { Usage::HostRead };
    let cmd = cmd.using(&mem, side.offset, side.end - side.offset, usage, "");
    let bytes = [im.row_bytes(region), region[1], region[2]];
    let p = SendPtr::new(ptr as *mut u8);
    cmd.enqueue(
        event,
        blocking,
        kind_for(bytes.iter().product()),
        move || {
            // SAFETY: the image rectangle is within the store (checked), which
            // `mem` keeps alive; the user keeps the host rectangle valid until
            // the command completes.
            unsafe {
                if write {
                    transfer::copy_rect(mem.base(), &side, p.get(), &host, bytes)
                } else {
                    transfer::copy_rect(p.get(), &host, mem.base(), &side, bytes)
                }
            }
            Ok(())
        },
    )
}

/// One memory object's span that a command reads or writes: checked mode's
/// (`api`) record, for a queue's [`Command`] or a command-buffer's.
pub struct Span {
    pub mem: Arc<Obj<Mem>>,
    pub offset: usize,
    pub len: usize,
    pub usage: Usage,
    pub what: &'static str,
}

impl Span {
    fn of(mem: &Arc<Obj<Mem>>, side: &RectSide, usage: Usage, what: &'static str) -> Span {
        Span {
            mem: mem.clone(),
            offset: side.offset,
            len: side.end - side.offset,
            usage,
            what,
        }
    }
}

/// An image command after the checks of its values: its work (run once by
/// a queue, or by a command-buffer at each of its enqueues), the spans it
/// uses and the bytes it moves.
pub struct ImageWork {
    pub work: Replay,
    pub spans: Vec<Span>,
    pub bytes: usize,
}

impl ImageWork {
    /// The command on a queue, after its wait list's checks.
    fn enqueue(
        self,
        q: Arc<Obj<Queue>>,
        command_type: cl_command_type,
        num_events: cl_uint,
        wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> CLResult<()> {
        let mut cmd = Command::new(q, command_type, num_events, wait_list)?;
        for s in &self.spans {
            cmd = cmd.using(&s.mem, s.offset, s.len, s.usage, s.what);
        }
        let work = self.work;
        cmd.enqueue(event, CL_FALSE, kind_for(self.bytes), move || work())
    }
}

/// `clEnqueueCopyImage`.
#[allow(clippy::too_many_arguments)]
pub fn copy_image(
    command_queue: cl_command_queue,
    src_image: cl_mem,
    dst_image: cl_mem,
    src_origin: *const usize,
    dst_origin: *const usize,
    region: *const usize,
    num_events: cl_uint,
    wait_list: *const cl_event,
    event: *mut cl_event,
) -> CLResult<()> {
    let q = queue(command_queue)?;
    let src = image_of(&q, src_image, "src_image")?;
    let dst = image_of(&q, dst_image, "dst_image")?;
    copy_image_work(&src, &dst, src_origin, dst_origin, region)?.enqueue(
        q,
        CL_COMMAND_COPY_IMAGE,
        num_events,
        wait_list,
        event,
    )
}

/// The checks of `clEnqueueCopyImage` on its values, and the copy (for a
/// queue, or a command-buffer's `clCommandCopyImageKHR`).
pub fn copy_image_work(
    src: &Arc<Obj<Mem>>,
    dst: &Arc<Obj<Mem>>,
    src_origin: *const usize,
    dst_origin: *const usize,
    region: *const usize,
) -> CLResult<ImageWork> {
    let (si, di) = (image(src), image(dst));
    // CL_IMAGE_FORMAT_MISMATCH if src_image and dst_image do not use the
    // same image format.
    let (sf, df) = (si.format, di.format);
    check(
        sf.image_channel_order == df.image_channel_order
            && sf.image_channel_data_type == df.image_channel_data_type,
        CL_IMAGE_FORMAT_MISMATCH,
        "src_image and dst_image have different image formats",
    )?;
    // CL_INVALID_VALUE if the 2D or 3D rectangular region specified by
    // src_origin and src_origin + region refers to a region outside
    // src_image, or if dst_origin and dst_origin + region refers to a region
    // outside dst_image; or the origins and region break the type's rules.
    let so = triple(src_origin, "src_origin")?;
    let d_o = triple(dst_origin, "dst_origin")?;
    let region = triple(region, "region")?;
    let s_side = si.rect("src", so, region)?;
    let d_side = di.rect("dst", d_o, region)?;
    let bytes = [si.row_bytes(region), region[1], region[2]];
    // CL_MEM_COPY_OVERLAP if src_image and dst_image are the same image
    // object and the source and destination regions overlap.
    if src.same_store(dst) && rects_overlap(&s_side, &d_side, bytes) {
        return err(
            CL_MEM_COPY_OVERLAP,
            "the source and destination regions overlap",
        );
    }
    let spans = vec![
        Span::of(src, &s_side, Usage::Read, "src"),
        Span::of(dst, &d_side, Usage::Write, "dst"),
    ];
    let (src, dst) = (src.clone(), dst.clone());
    Ok(ImageWork {
        work: Arc::new(move || {
            // SAFETY: both rectangles are within their stores (checked), kept
            // alive by `src` and `dst`; they do not overlap.
            unsafe { transfer::copy_rect(dst.base(), &d_side, src.base(), &s_side, bytes) };
            Ok(())
        }),
        spans,
        bytes: bytes.iter().product(),
    })
}

/// The tight rectangle of a buffer at `offset` holding `region` of `im`;
/// CL_INVALID_VALUE if it runs past the buffer's end.
fn buffer_side(im: &Image, buf: &Mem, offset: usize, region: [usize; 3]) -> CLResult<RectSide> {
    let row = im.row_bytes(region);
    let slice = row * region[1];
    let len = slice * region[2];
    check(
        transfer::in_bounds(offset, len, buf.size()),
        CL_INVALID_VALUE,
        "the buffer region is out of bounds",
    )?;
    Ok(RectSide {
        offset,
        row_pitch: row,
        slice_pitch: slice,
        end: offset + len,
    })
}

/// The names of the image and the buffer of `clEnqueueCopyImageToBuffer`
/// (`to_buffer`) or `clEnqueueCopyBufferToImage`.
fn image_buffer_names(to_buffer: bool) -> (&'static str, &'static str) {
    if to_buffer {
        ("src_image", "dst_buffer")
    } else {
        ("dst_image", "src_buffer")
    }
}

/// `clEnqueueCopyImageToBuffer` (`to_buffer`) and `clEnqueueCopyBufferToImage`.
#[allow(clippy::too_many_arguments)]
pub fn copy_image_buffer(
    to_buffer: bool,
    command_queue: cl_command_queue,
    image_obj: cl_mem,
    buffer: cl_mem,
    origin: *const usize,
    region: *const usize,
    offset: usize,
    num_events: cl_uint,
    wait_list: *const cl_event,
    event: *mut cl_event,
) -> CLResult<()> {
    let q = queue(command_queue)?;
    let (im_what, buf_what) = image_buffer_names(to_buffer);
    // CL_INVALID_MEM_OBJECT if the image is not a valid image object or the
    // buffer not a valid buffer object.
    let (mem, buf) = if to_buffer {
        (
            image_of(&q, image_obj, im_what)?,
            buffer_of(&q, buffer, buf_what)?,
        )
    } else {
        let b = buffer_of(&q, buffer, buf_what)?;
        (image_of(&q, image_obj, im_what)?, b)
    };
    let command_type = if to_buffer {
        CL_COMMAND_COPY_IMAGE_TO_BUFFER
    } else {
        CL_COMMAND_COPY_BUFFER_TO_IMAGE
    };
    copy_image_buffer_work(to_buffer, &mem, &buf, origin, region, offset)?.enqueue(
        q,
        command_type,
        num_events,
        wait_list,
        event,
    )
}

/// The checks of `clEnqueueCopyImageToBuffer` (`to_buffer`) or
/// `clEnqueueCopyBufferToImage` on their values, and the copy (for a queue,
/// or a command-buffer's `clCommandCopyImageToBufferKHR` and
/// `clCommandCopyBufferToImageKHR`).
pub fn copy_image_buffer_work(
    to_buffer: bool,
    mem: &Arc<Obj<Mem>>,
    buf: &Arc<Obj<Mem>>,
    origin: *const usize,
    region: *const usize,
    offset: usize,
) -> CLResult<ImageWork> {
    let (im_what, buf_what) = image_buffer_names(to_buffer);
    let im = image(mem);
    // CL_INVALID_VALUE if the image region is outside the image, or the
    // buffer region (offset + region × element size) outside the buffer.
    let origin = triple(origin, "origin")?;
    let region = triple(region, "region")?;
    let side = im.rect(im_what, origin, region)?;
    let b_side = buffer_side(im, buf, offset, region)?;
    let bytes = [im.row_bytes(region), region[1], region[2]];
    let (iu, bu) = if to_buffer {
        (Usage::Read, Usage::Write)
    } else {
        (Usage::Write, Usage::Read)
    };
    let spans = vec![
        Span::of(mem, &side, iu, im_what),
        Span::of(buf, &b_side, bu, buf_what),
    ];
    let (mem, buf) = (mem.clone(), buf.clone());
    Ok(ImageWork {
        work: Arc::new(move || {
            // SAFETY: both rectangles are within their stores (checked), kept
            // alive by `mem` and `buf`.
            unsafe {
                if to_buffer {
                    transfer::copy_rect(buf.base(), &b_side, mem.base(), &side, bytes)
                } else {
                    transfer::copy_rect(mem.base(), &side, buf.base(), &b_side, bytes)
                }
            }
            Ok(())
        }),
        spans,
        bytes: bytes.iter().product(),
    })
}

/// `clEnqueueFillImage`.
#[allow(clippy::too_many_arguments)]
pub fn fill_image(
    command_queue: cl_command_queue,
    image_obj: cl_mem,
    fill_color: *const c_void,
    origin: *const usize,
    region: *const usize,
    num_events: cl_uint,
    wait_list: *const cl_event,
    event: *mut cl_event,
) -> CLResult<()> {
    let q = queue(command_queue)?;
    let mem = image_of(&q, image_obj, "image")?;
    fill_image_work(&mem, fill_color, origin, region)?.enqueue(
        q,
        CL_COMMAND_FILL_IMAGE,
        num_events,
        wait_list,
        event,
    )
}

/// The checks of `clEnqueueFillImage` on its values, and the fill (for a
/// queue, or a command-buffer's `clCommandFillImageKHR`). The colour is
/// converted now: the user may reuse `fill_color` when the call returns.
pub fn fill_image_work(
    mem: &Arc<Obj<Mem>>,
    fill_color: *const c_void,
    origin: *const usize,
    region: *const usize,
) -> CLResult<ImageWork> {
    let im = image(mem);
    // CL_INVALID_VALUE if fill_color is NULL.
    check(
        !fill_color.is_null(),
        CL_INVALID_VALUE,
        "fill_color is NULL",
    )?;
    // CL_INVALID_VALUE if the region being filled as specified by origin and
    // region is out of bounds, or breaks the type's rules.
    let origin = triple(origin, "origin")?;
    let region = triple(region, "region")?;
    let side = im.rect("fill", origin, region)?;
    // The colour: float4 for normalized, half and float channels, int4 for
    // signed and uint4 for unsigned integer channels; converted once.
    let (o, t) = (
        im.format.image_channel_order,
        im.format.image_channel_data_type,
    );
    let kind = if img::is_signed_int(t) {
        Texel::Int
    } else if img::is_unsigned_int(t) {
        Texel::UInt
    } else {
        Texel::Float
    };
    // SAFETY: the user gives a four-component colour of 16 bytes, or for a
    // CL_DEPTH image a single float (the spec's words): 4 bytes only.
    let color = unsafe {
        if o == img::order::DEPTH {
            [(fill_color as *const u32).read_unaligned(), 0, 0, 0]
        } else {
            (fill_color as *const [u32; 4]).read_unaligned()
        }
    };
    let es = im.element_size();
    let mut texel = [0u8; 16];
    // SAFETY: `texel` holds the largest element (16 bytes).
    unsafe { img::store(o, t, kind, color, texel.as_mut_ptr()) };
    let spans = vec![Span::of(mem, &side, Usage::Write, "")];
    let row = im.row_bytes(region);
    let [_, h, d] = region;
    let mem = mem.clone();
    Ok(ImageWork {
        work: Arc::new(move || {
            let base = mem.base();
            for z in 0..d {
                for y in 0..h {
                    let at = side.offset + z * side.slice_pitch + y * side.row_pitch;
                    for x in (0..row).step_by(es) {
                        // SAFETY: each texel of the rectangle is within the
                        // store (checked), kept alive by `mem`.
                        unsafe {
                            std::ptr::copy_nonoverlapping(texel.as_ptr(), base.add(at + x), es)
                        };
                    }
                }
            }
            Ok(())
        }),
        spans,
        bytes: row * h * d,
    })
}

/// `clEnqueueMapImage`: zero copy, the pointer is into the image's store;
/// the pitches are the image's own.
#[allow(clippy::too_many_arguments)]
pub fn map_image(
    command_queue: cl_command_queue,
    image_obj: cl_mem,
    blocking: cl_bool,
    map_flags: cl_map_flags,
    origin: *const usize,
    region: *const usize,
    row_pitch: *mut usize,
    slice_pitch: *mut usize,
    num_events: cl_uint,
    wait_list: *const cl_event,
    event: *mut cl_event,
) -> CLResult<*mut c_void> {
    let q = queue(command_queue)?;
    let mem = image_of(&q, image_obj, "image")?;
    let im = image(&mem);
    // CL_INVALID_VALUE if the region being mapped given by (origin,
    // origin + region) is out of bounds or if values specified in map_flags
    // are not valid.
    let origin = triple(origin, "origin")?;
    let region = triple(region, "region")?;
    let side = im.rect("mapped", origin, region)?;
    let all = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
    check(
        map_flags & !all == 0,
        CL_INVALID_VALUE,
        "unknown bits in map_flags",
    )?;
    check(
        !(map_flags & CL_MAP_WRITE_INVALIDATE_REGION != 0
            && map_flags & (CL_MAP_READ | CL_MAP_WRITE) != 0),
        CL_INVALID_VALUE,
        "CL_MAP_WRITE_INVALIDATE_REGION excludes CL_MAP_READ and CL_MAP_WRITE",
    )?;
    // CL_INVALID_VALUE if image_row_pitch is NULL; if image is a 3D image,
    // 1D or 2D image array object and image_slice_pitch is NULL.
    check(
        !row_pitch.is_null(),
        CL_INVALID_VALUE,
        "image_row_pitch is NULL",
    )?;
    let needs_slice = matches!(
        im.image_type,
        CL_MEM_OBJECT_IMAGE3D | CL_MEM_OBJECT_IMAGE1D_ARRAY | CL_MEM_OBJECT_IMAGE2D_ARRAY
    );
    check(
        !(needs_slice && slice_pitch.is_null()),
        CL_INVALID_VALUE,
        "image_slice_pitch is NULL for a 3D image or an image array",
    )?;
    let cmd = Command::new(q, CL_COMMAND_MAP_IMAGE, num_events, wait_list)?;
    // CL_INVALID_OPERATION for the host-access flags, as for a buffer.
    let write = map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION) != 0;
    host_access(&mem, map_flags & CL_MAP_READ != 0, write)?;
    let len = side.end - side.offset;
    let mapped = mem.map(side.offset, len, write)?;
    // SAFETY: both pointers were checked (or are optional and non-NULL).
    unsafe {
        row_pitch.write_unaligned(im.desc.row_pitch as usize);
        if !slice_pitch.is_null() {
            let s = if needs_slice {
                im.desc.slice_pitch as usize
            } else {
                0
            };
            slice_pitch.write_unaligned(s);
        }
    }
    let cmd = cmd.using(&mem, side.offset, len, Usage::HostMap, "");
    match cmd.enqueue_holding(event, blocking, mem.clone()) {
        Ok(()) => Ok(mapped as *mut c_void),
        Err(e) => {
            let _ = mem.unmap(mapped as *mut c_void);
            Err(e)
        }
    }
}
