//! The buffer commands behind `clEnqueue{Read,Write,Copy}Buffer[Rect]`,
//! `clEnqueueFillBuffer`, `clEnqueueMapBuffer`, `clEnqueueUnmapMemObject` and
//! `clEnqueueMigrateMemObjects` (the `extern "C"` stubs are in `enqueue`),
//! and the answer for native kernels, which the device does not support
//! (the image commands are in `image_commands`, the SVM ones in `svm`).
//!
//! Each command is checked in the order of the spec's error list: the queue;
//! the memory objects and their context; the values (regions with
//! overflow-safe arithmetic, pointers, patterns, flags); the wait list; then
//! `CL_MEM_COPY_OVERLAP` and the host-access rules (`CL_INVALID_OPERATION`),
//! which the spec lists last. It then becomes a work closure for `exec`.
//! The copies and the fill build theirs in `*_work` (checks on the values,
//! then an `exec::Replay`), which a command-buffer's `clCommand*KHR` records
//! too; their wait list is checked after those checks.
//!
//! A closure owns an `Arc` of every memory object it touches, so a buffer the
//! user releases right after a non-blocking enqueue lives until the command is
//! done. User host pointers are used inside the closure: the spec makes the
//! user keep them valid until the command completes. Small transfers run as
//! `Kind::Small` (on whichever thread finds them ready: no hand-off), which is
//! what makes a 4-byte blocking write cost about a microsecond.

use super::mem::mem_in_context;
use super::prelude::*;
use crate::core::mem::Mem;
use crate::core::queue::Queue;
use crate::core::transfer::{
    self, check_region, in_bounds, ranges_overlap, rects_overlap, Pattern, RectSide, SendPtr,
};
use crate::exec::api_check::{Access, Usage};
use crate::exec::{self, validate_wait_list, Kind, Replay};

/// Transfers up to this many bytes run inline (`Kind::Small`).
const SMALL_TRANSFER: usize = 64 << 10;

pub(super) fn kind_for(bytes: usize) -> Kind {
    if bytes <= SMALL_TRANSFER {
        Kind::Small
    } else {
        Kind::Command
    }
}

/// CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue.
pub(super) fn queue(command_queue: cl_command_queue) -> CLResult<Arc<Obj<Queue>>> {
    Obj::get(command_queue)
}

/// A memory object used by a command of `queue`: CL_INVALID_MEM_OBJECT if
/// buffer is not a valid buffer object; CL_INVALID_CONTEXT if the context
/// associated with command_queue and buffer are not the same.
pub fn buffer_of(queue: &Queue, buffer: cl_mem, what: &str) -> CLResult<Arc<Obj<Mem>>> {
    let m = mem_of(queue, buffer, what)?;
    if m.image().is_some() {
        return err(
            CL_INVALID_MEM_OBJECT,
            format!("{what} is an image, not a buffer object"),
        );
    }
    Ok(m)
}

/// A memory object of any kind used by a command of `queue` (unmap,
/// migrate): CL_INVALID_MEM_OBJECT / CL_INVALID_CONTEXT as for a buffer.
pub(super) fn mem_of(queue: &Queue, memobj: cl_mem, what: &str) -> CLResult<Arc<Obj<Mem>>> {
    mem_in_context(queue.context(), memobj, what)
}

/// CL_INVALID_VALUE if the region specified by offset and size is out of
/// bounds of the buffer.
fn check_range(mem: &Mem, offset: usize, size: usize, what: &str) -> CLResult<()> {
    if in_bounds(offset, size, mem.size()) {
        Ok(())
    } else {
        err(
            CL_INVALID_VALUE,
            format!("{what} region ({offset}, {size} bytes) is out of bounds"),
        )
    }
}

/// A `const size_t[3]` argument; CL_INVALID_VALUE if NULL.
pub(super) fn triple(p: *const usize, what: &str) -> CLResult<[usize; 3]> {
    if p.is_null() {
        return err(CL_INVALID_VALUE, format!("{what} is NULL"));
    }
    // SAFETY: a non-NULL origin or region points at three size_t (the spec's
    // contract); read unaligned in case the caller's array is packed.
    Ok(unsafe { (p as *const [usize; 3]).read_unaligned() })
}

/// The queue's order plus the wait list, and the command's work.
pub(super) struct Command {
    queue: Arc<Obj<Queue>>,
    command_type: cl_command_type,
    wait: crate::core::handle::HandleList<crate::core::event::Event>,
    /// Checked mode (`api`): the buffers the command uses.
    accesses: Vec<Access>,
}

impl Command {
    /// CL_INVALID_EVENT_WAIT_LIST / CL_INVALID_CONTEXT for the wait list.
    pub(super) fn new(
        queue: Arc<Obj<Queue>>,
        command_type: cl_command_type,
        num_events: cl_uint,
        wait_list: *const cl_event,
    ) -> CLResult<Command> {
        let wait = validate_wait_list(queue.context(), num_events, wait_list)?;
        Ok(Command {
            queue,
            command_type,
            wait,
            accesses: Vec::new(),
        })
    }

    /// Checked mode (`api`): the command uses `size` bytes at `offset` of
    /// `mem` (`what` names the use when it has two). Nothing without `api`.
    pub(super) fn using(
        mut self,
        mem: &Arc<Obj<Mem>>,
        offset: usize,
        size: usize,
        usage: Usage,
        what: &str,
    ) -> Self {
        if self.queue.context().checks().api {
            self.accesses.push(Access {
                mem: mem.clone(),
                offset,
                size,
                usage,
                what: what.into(),
            });
        }
        self
    }

    pub(super) fn enqueue(
        self,
        event: *mut cl_event,
        blocking: cl_bool,
        kind: Kind,
        work: impl FnOnce() -> CLResult<()> + Send + 'static,
    ) -> CLResult<()> {
        exec::enqueue_using(
            &self.queue,
            self.command_type,
            &self.wait,
            event,
            blocking != CL_FALSE,
            kind,
            Some(exec::Work::call(work)),
            self.accesses,
        )
    }

    /// A command that moves nothing (the host sees the buffers' own bytes):
    /// it only orders, and holds `keep` (the memory objects it names) until
    /// it is done.
    pub(super) fn enqueue_holding(
        self,
        event: *mut cl_event,
        blocking: cl_bool,
        keep: impl Send + 'static,
    ) -> CLResult<()> {
        self.enqueue(event, blocking, Kind::Small, move || {
            drop(keep);
            Ok(())
        })
    }
}

/// The host side of `clEnqueue{Read,Write}Buffer[Rect]`, checked after the
/// buffer's region: the host pointer, the wait list, the host-access flags.
fn host_transfer(
    q: Arc<Obj<Queue>>,
    mem: &Mem,
    write: bool,
    ptr: *mut c_void,
    command_type: cl_command_type,
    num_events: cl_uint,
    wait_list: *const cl_event,
) -> CLResult<(Command, SendPtr)> {
    // CL_INVALID_VALUE if ptr is NULL.
    check(!ptr.is_null(), CL_INVALID_VALUE, "ptr is NULL")?;
    let cmd = Command::new(q, command_type, num_events, wait_list)?;
    // CL_INVALID_OPERATION if clEnqueueRead* is called on buffer which has
    // been created with CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS, or
    // clEnqueueWrite* on one created with CL_MEM_HOST_READ_ONLY or
    // CL_MEM_HOST_NO_ACCESS.
    host_access(mem, !write, write)?;
    Ok((cmd, SendPtr::new(ptr as *mut u8)))
}

/// `clEnqueueReadBuffer` and `clEnqueueWriteBuffer`.
#[allow(clippy::too_many_arguments)]
pub fn read_write_buffer(
    write: bool,
    command_queue: cl_command_queue,
    buffer: cl_mem,
    blocking: cl_bool,
    offset: usize,
    size: usize,
    ptr: *mut c_void,
    num_events: cl_uint,
    wait_list: *const cl_event,
    event: *mut cl_event,
) -> CLResult<()> {
    let q = queue(command_queue)?;
    let mem = buffer_of(&q, buffer, "buffer")?;
    // CL_INVALID_VALUE if the region being read or written specified by
    // offset and size is out of bounds.
    check_range(&mem, offset, size, "buffer")?;
    let command_type = if write {
        CL_COMMAND_WRITE_BUFFER
    } else {
        CL_COMMAND_READ_BUFFER
    };
    let (cmd, host) = host_transfer(q, &mem, write, ptr, command_type, num_events, wait_list)?;
    let usage = if write { Usage::Write } else { Usage::HostRead };
    let cmd = cmd.using(&mem, offset, size, usage, "");
    cmd.enqueue(event, blocking, kind_for(size), move || {
        let buf = mem.base().wrapping_add(offset);
        // SAFETY: `offset + size` is within the buffer, which `mem` keeps
        // alive; the user keeps `ptr` valid for `size` bytes until the
        // command completes.
        unsafe {
            if write {
                transfer::copy(buf, host.get(), size)
            } else {
                transfer::copy(host.get(), buf, size)
            }
        }
        Ok(())
    })
}

/// CL_INVALID_OPERATION for host reads (writes) of a buffer created with
/// CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS (CL_MEM_HOST_READ_ONLY or
/// CL_MEM_HOST_NO_ACCESS).
pub(super) fn host_access(mem: &Mem, read: bool, write: bool) -> CLResult<()> {
    check(
        !read || mem.host_readable(),
        CL_INVALID_OPERATION,
        "the buffer was created with CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS",
    )?;
    check(
        !write || mem.host_writable(),
        CL_INVALID_OPERATION,
        "the buffer was created with CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS",
    )
}

/// `clEnqueueCopyBuffer`.
#[allow(clippy::too_many_arguments)]
pub fn copy_buffer(
    command_queue: cl_command_queue,
    src_buffer: cl_mem,
    dst_buffer: cl_mem,
    src_offset: usize,
    dst_offset: usize,
    size: usize,
    num_events: cl_uint,
    wait_list: *const cl_event,
    event: *mut cl_event,
) -> CLResult<()> {
    let q = queue(command_queue)?;
    let src = buffer_of(&q, src_buffer, "src_buffer")?;
    let dst = buffer_of(&q, dst_buffer, "dst_buffer")?;
    let work = copy_buffer_work(&src, &dst, src_offset, dst_offset, size)?;
    let cmd = Command::new(q, CL_COMMAND_COPY_BUFFER, num_events, wait_list)?
        .using(&src, src_offset, size, Usage::Read, "source")
        .using(&dst, dst_offset, size, Usage::Write, "destination");
    cmd.enqueue(event, CL_FALSE, kind_for(size), move || work())
}

/// The checks of `clEnqueueCopyBuffer` on its values, and the copy (for a
/// queue, or a command-buffer's `clCommandCopyBufferKHR`).
pub fn copy_buffer_work(
    src: &Arc<Obj<Mem>>,
    dst: &Arc<Obj<Mem>>,
    src_offset: usize,
    dst_offset: usize,
    size: usize,
) -> CLResult<Replay> {
    // CL_INVALID_VALUE if the region specified by src_offset and size is out
    // of bounds of src_buffer, or by dst_offset and size of dst_buffer.
    check_range(src, src_offset, size, "source")?;
    check_range(dst, dst_offset, size, "destination")?;
    // CL_MEM_COPY_OVERLAP if src_buffer and dst_buffer are the same buffer or
    // sub-buffer object and the source and destination regions overlap, or if
    // they are different sub-buffers of the same buffer and they overlap.
    check(
        !(src.same_store(dst)
            && ranges_overlap(
                src.offset() + src_offset,
                size,
                dst.offset() + dst_offset,
                size,
            )),
        CL_MEM_COPY_OVERLAP,
        "the source and destination regions overlap",
    )?;
    let (src, dst) = (src.clone(), dst.clone());
    Ok(Arc::new(move || {
        // SAFETY: both regions are within their buffers, kept alive by the
        // `Arc`s, and do not overlap.
        unsafe {
            transfer::copy(
                dst.base().wrapping_add(dst_offset),
                src.base().wrapping_add(src_offset),
                size,
            )
        };
        Ok(())
    }))
}

/// The geometry of a `*Rect` command's two sides (`a`: the first named).
pub struct RectArgs {
    region: [usize; 3],
    a: RectSide,
    b: RectSide,
}

impl RectArgs {
    /// The bytes each side's rectangle spans, as (offset, size): the first
    /// named side, then the second.
    pub fn spans(&self) -> [(usize, usize); 2] {
        [
            (self.a.offset, self.a.end - self.a.offset),
            (self.b.offset, self.b.end - self.b.offset),
        ]
    }
}

#[allow(clippy::too_many_arguments)]
fn rect_args(
    names: [&str; 2],
    origin_names: [&str; 2],
    a_origin: *const usize,
    b_origin: *const usize,
    region: *const usize,
    a_pitches: [usize; 2],
    b_pitches: [usize; 2],
) -> CLResult<RectArgs> {
    // CL_INVALID_VALUE if the origins or region is NULL.
    let a_origin = triple(a_origin, origin_names[0])?;
    let b_origin = triple(b_origin, origin_names[1])?;
    let region = triple(region, "region")?;
    // CL_INVALID_VALUE if any region array element is zero.
    check_region(region)?;
    // CL_INVALID_VALUE if a row pitch is not 0 and is less than region[0]; if
    // a slice pitch is not 0 and is less than region[1] times the row pitch,
    // or is not a multiple of the row pitch.
    let a = RectSide::new(names[0], a_origin, region, a_pitches[0], a_pitches[1])?;
    let b = RectSide::new(names[1], b_origin, region, b_pitches[0], b_pitches[1])?;
    Ok(RectArgs { region, a, b })
}

/// `clEnqueueReadBufferRect` and `clEnqueueWriteBufferRect`.
#[allow(clippy::too_many_arguments)]
pub fn read_write_buffer_rect(
    write: bool,
    command_queue: cl_command_queue,
    buffer: cl_mem,
    blocking: cl_bool,
    buffer_origin: *const usize,
    host_origin: *const usize,
    region: *const usize,
    buffer_pitches: [usize; 2],
    host_pitches: [usize; 2],
    ptr: *mut c_void,
    num_events: cl_uint,
    wait_list: *const cl_event,
    event: *mut cl_event,
) -> CLResult<()> {
    let q = queue(command_queue)?;
    let mem = buffer_of(&q, buffer, "buffer")?;
    let r = rect_args(
        ["buffer", "host"],
        ["buffer_origin", "host_origin"],
        buffer_origin,
        host_origin,
        region,
        buffer_pitches,
        host_pitches,
    )?;
    // CL_INVALID_VALUE if the region being read or written specified by
    // buffer_origin, region, buffer_row_pitch and buffer_slice_pitch is out
    // of bounds.
    check(
        r.a.end <= mem.size(),
        CL_INVALID_VALUE,
        "the buffer rectangle is out of bounds",
    )?;
    let command_type = if write {
        CL_COMMAND_WRITE_BUFFER_RECT
    } else {
        CL_COMMAND_READ_BUFFER_RECT
    };
    let (cmd, host) = host_transfer(q, &mem, write, ptr, command_type, num_events, wait_list)?;
    let usage = if write { Usage::Write } else { Usage::HostRead };
    let cmd = cmd.using(&mem, r.a.offset, r.a.end - r.a.offset, usage, "");
    let bytes = r.region.iter().product();
    cmd.enqueue(event, blocking, kind_for(bytes), move || {
        // SAFETY: the buffer rectangle is within the buffer (checked), which
        // `mem` keeps alive; the user keeps the host rectangle valid until
        // the command completes.
        unsafe {
            if write {
                transfer::copy_rect(mem.base(), &r.a, host.get(), &r.b, r.region)
            } else {
                transfer::copy_rect(host.get(), &r.b, mem.base(), &r.a, r.region)
            }
        }
        Ok(())
    })
}

/// `clEnqueueCopyBufferRect`.
#[allow(clippy::too_many_arguments)]
pub fn copy_buffer_rect(
    command_queue: cl_command_queue,
    src_buffer: cl_mem,
    dst_buffer: cl_mem,
    src_origin: *const usize,
    dst_origin: *const usize,
    region: *const usize,
    src_pitches: [usize; 2],
    dst_pitches: [usize; 2],
    num_events: cl_uint,
    wait_list: *const cl_event,
    event: *mut cl_event,
) -> CLResult<()> {
    let q = queue(command_queue)?;
    let src = buffer_of(&q, src_buffer, "src_buffer")?;
    let dst = buffer_of(&q, dst_buffer, "dst_buffer")?;
    let (work, r) = copy_buffer_rect_work(
        &src,
        &dst,
        src_origin,
        dst_origin,
        region,
        src_pitches,
        dst_pitches,
    )?;
    let cmd = Command::new(q, CL_COMMAND_COPY_BUFFER_RECT, num_events, wait_list)?
        .using(
            &src,
            r.a.offset,
            r.a.end - r.a.offset,
            Usage::Read,
            "source",
        )
        .using(
            &dst,
            r.b.offset,
            r.b.end - r.b.offset,
            Usage::Write,
            "destination",
        );
    let bytes = r.region.iter().product();
    cmd.enqueue(event, CL_FALSE, kind_for(bytes), move || work())
}

/// The checks of `clEnqueueCopyBufferRect` on its values, and the copy (for
/// a queue, or `clCommandCopyBufferRectKHR`); with the two rectangles.
#[allow(clippy::too_many_arguments)]
pub fn copy_buffer_rect_work(
    src: &Arc<Obj<Mem>>,
    dst: &Arc<Obj<Mem>>,
    src_origin: *const usize,
    dst_origin: *const usize,
    region: *const usize,
    src_pitches: [usize; 2],
    dst_pitches: [usize; 2],
) -> CLResult<(Replay, RectArgs)> {
    let r = rect_args(
        ["src", "dst"],
        ["src_origin", "dst_origin"],
        src_origin,
        dst_origin,
        region,
        src_pitches,
        dst_pitches,
    )?;
    // CL_INVALID_VALUE if the region specified by src_origin, region,
    // src_row_pitch and src_slice_pitch is out of bounds of src_buffer (and
    // the same for dst).
    check(
        r.a.end <= src.size(),
        CL_INVALID_VALUE,
        "the source rectangle is out of bounds",
    )?;
    check(
        r.b.end <= dst.size(),
        CL_INVALID_VALUE,
        "the destination rectangle is out of bounds",
    )?;
    // CL_INVALID_VALUE if src_buffer and dst_buffer are the same buffer
    // object and src_row_pitch is not equal to dst_row_pitch, or
    // src_slice_pitch is not equal to dst_slice_pitch.
    let same = Arc::ptr_eq(src, dst);
    check(
        !same || (r.a.row_pitch == r.b.row_pitch && r.a.slice_pitch == r.b.slice_pitch),
        CL_INVALID_VALUE,
        "same buffer with different source and destination pitches",
    )?;
    // CL_MEM_COPY_OVERLAP if src_buffer and dst_buffer are the same buffer or
    // sub-buffer object, or sub-buffers of the same buffer, and the source
    // and destination regions overlap.
    if src.same_store(dst) {
        let mut a = r.a;
        let mut b = r.b;
        a.offset += src.offset();
        a.end += src.offset();
        b.offset += dst.offset();
        b.end += dst.offset();
        check(
            !rects_overlap(&a, &b, r.region),
            CL_MEM_COPY_OVERLAP,
            "the source and destination rectangles overlap",
        )?;
    }
    let (src, dst) = (src.clone(), dst.clone());
    let (a, b, region) = (r.a, r.b, r.region);
    let work: Replay = Arc::new(move || {
        // SAFETY: both rectangles are within their buffers (checked), kept
        // alive by the `Arc`s, and do not overlap.
        unsafe { transfer::copy_rect(dst.base(), &b, src.base(), &a, region) };
        Ok(())
    });
    Ok((work, r))
}

/// `clEnqueueFillBuffer`.
#[allow(clippy::too_many_arguments)]
pub fn fill_buffer(
    command_queue: cl_command_queue,
    buffer: cl_mem,
    pattern: *const c_void,
    pattern_size: usize,
    offset: usize,
    size: usize,
    num_events: cl_uint,
    wait_list: *const cl_event,
    event: *mut cl_event,
) -> CLResult<()> {
    let q = queue(command_queue)?;
    let mem = buffer_of(&q, buffer, "buffer")?;
    let work = fill_buffer_work(&mem, pattern, pattern_size, offset, size)?;
    let cmd = Command::new(q, CL_COMMAND_FILL_BUFFER, num_events, wait_list)?.using(
        &mem,
        offset,
        size,
        Usage::Write,
        "",
    );
    cmd.enqueue(event, CL_FALSE, kind_for(size), move || work())
}

/// The checks of `clEnqueueFillBuffer` on its values, and the fill (for a
/// queue, or `clCommandFillBufferKHR`). The pattern is copied now.
pub fn fill_buffer_work(
    mem: &Arc<Obj<Mem>>,
    pattern: *const c_void,
    pattern_size: usize,
    offset: usize,
    size: usize,
) -> CLResult<Replay> {
    // CL_INVALID_VALUE if the region being filled specified by offset and
    // size is out of bounds.
    check_range(mem, offset, size, "fill")?;
    // CL_INVALID_VALUE if pattern is NULL.
    check(!pattern.is_null(), CL_INVALID_VALUE, "pattern is NULL")?;
    // CL_INVALID_VALUE if pattern_size is zero, not a power of two, or
    // greater than 128.
    // SAFETY: the user gave `pattern_size` readable bytes at `pattern`; it is
    // copied now (the spec lets the user reuse it when the call returns).
    let pattern = unsafe { Pattern::new(pattern as *const u8, pattern_size)? };
    // CL_INVALID_VALUE if offset or size is not a multiple of pattern_size.
    check(
        offset.is_multiple_of(pattern_size) && size.is_multiple_of(pattern_size),
        CL_INVALID_VALUE,
        "offset and size must be multiples of pattern_size",
    )?;
    let mem = mem.clone();
    Ok(Arc::new(move || {
        // SAFETY: the region is within the buffer, which `mem` keeps alive.
        unsafe { pattern.fill(mem.base().wrapping_add(offset), size) };
        Ok(())
    }))
}

/// `clEnqueueMapBuffer`: zero copy, the pointer is into the buffer itself.
#[allow(clippy::too_many_arguments)]
pub fn map_buffer(
    command_queue: cl_command_queue,
    buffer: cl_mem,
    blocking: cl_bool,
    map_flags: cl_map_flags,
    offset: usize,
    size: usize,
    num_events: cl_uint,
    wait_list: *const cl_event,
    event: *mut cl_event,
) -> CLResult<*mut c_void> {
    let q = queue(command_queue)?;
    let mem = buffer_of(&q, buffer, "buffer")?;
    // CL_INVALID_VALUE if the region being mapped specified by offset and
    // size is out of bounds, if size is zero, or if values specified in
    // map_flags are not valid.
    check_range(&mem, offset, size, "mapped")?;
    check(size != 0, CL_INVALID_VALUE, "size is 0")?;
    let all = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
    check(
        map_flags & !all == 0,
        CL_INVALID_VALUE,
        "unknown bits in map_flags",
    )?;
    // CL_MAP_READ or CL_MAP_WRITE and CL_MAP_WRITE_INVALIDATE_REGION are
    // mutually exclusive.
    check(
        !(map_flags & CL_MAP_WRITE_INVALIDATE_REGION != 0
            && map_flags & (CL_MAP_READ | CL_MAP_WRITE) != 0),
        CL_INVALID_VALUE,
        "CL_MAP_WRITE_INVALIDATE_REGION excludes CL_MAP_READ and CL_MAP_WRITE",
    )?;
    let cmd = Command::new(q, CL_COMMAND_MAP_BUFFER, num_events, wait_list)?;
    // CL_INVALID_OPERATION if buffer was created with CL_MEM_HOST_WRITE_ONLY
    // or CL_MEM_HOST_NO_ACCESS and CL_MAP_READ is set in map_flags, or with
    // CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS and CL_MAP_WRITE or
    // CL_MAP_WRITE_INVALIDATE_REGION is set in map_flags.
    let write = map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION) != 0;
    host_access(&mem, map_flags & CL_MAP_READ != 0, write)?;
    // CL_INVALID_OPERATION if mapping would lead to overlapping regions being
    // mapped for writing.
    let mapped = mem.map(offset, size, write)?;
    let cmd = cmd.using(&mem, offset, size, Usage::HostMap, "");
    // The command holds the buffer so that it outlives the map.
    let result = cmd.enqueue_holding(event, blocking, mem.clone());
    match result {
        Ok(()) => Ok(mapped as *mut c_void),
        Err(e) => {
            // The command failed (a blocking map whose wait list failed):
            // there is no mapping to unmap.
            let _ = mem.unmap(mapped as *mut c_void);
            Err(e)
        }
    }
}

/// `clEnqueueUnmapMemObject`.
pub fn unmap_mem_object(
    command_queue: cl_command_queue,
    memobj: cl_mem,
    mapped_ptr: *mut c_void,
    num_events: cl_uint,
    wait_list: *const cl_event,
    event: *mut cl_event,
) -> CLResult<()> {
    let q = queue(command_queue)?;
    let mem = mem_of(&q, memobj, "memobj")?;
    // CL_INVALID_VALUE if mapped_ptr is not a valid pointer returned by
    // clEnqueueMapBuffer or clEnqueueMapImage for memobj.
    check(
        mem.is_mapped(mapped_ptr),
        CL_INVALID_VALUE,
        "mapped_ptr was not returned by a map of this memory object",
    )?;
    let cmd = Command::new(q, CL_COMMAND_UNMAP_MEM_OBJECT, num_events, wait_list)?;
    // Forget the mapping now: a second unmap of the same pointer is an error,
    // and the map count drops when the unmap is enqueued.
    mem.unmap(mapped_ptr)?;
    cmd.enqueue_holding(event, CL_FALSE, mem)
}

/// `clEnqueueMigrateMemObjects`: one device, whose memory is the host's, so
/// the command only orders.
#[allow(clippy::too_many_arguments)]
pub fn migrate_mem_objects(
    command_queue: cl_command_queue,
    num_mem_objects: cl_uint,
    mem_objects: *const cl_mem,
    flags: cl_mem_migration_flags,
    num_events: cl_uint,
    wait_list: *const cl_event,
    event: *mut cl_event,
) -> CLResult<()> {
    let q = queue(command_queue)?;
    // CL_INVALID_VALUE if num_mem_objects is zero or if mem_objects is NULL.
    check(
        num_mem_objects != 0 && !mem_objects.is_null(),
        CL_INVALID_VALUE,
        "no memory objects",
    )?;
    // CL_INVALID_MEM_OBJECT if any of the memory objects in mem_objects is not
    // a valid memory object; CL_INVALID_CONTEXT if the context associated with
    // command_queue and memory objects in mem_objects are not the same.
    // SAFETY: the user gave `num_mem_objects` handles at `mem_objects`.
    let handles = unsafe { std::slice::from_raw_parts(mem_objects, num_mem_objects as usize) };
    let mems = handles
        .iter()
        .map(|&m| mem_of(&q, m, "mem_objects"))
        .collect::<CLResult<Vec<_>>>()?;
    // CL_INVALID_VALUE if flags is not 0 or is not any of the values described
    // in the table above.
    check(
        flags & !(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED) == 0,
        CL_INVALID_VALUE,
        "unknown bits in flags",
    )?;
    let cmd = Command::new(q, CL_COMMAND_MIGRATE_MEM_OBJECTS, num_events, wait_list)?;
    cmd.enqueue_holding(event, CL_FALSE, mems)
}

/// `clEnqueueNativeKernel`: the device lacks `CL_EXEC_NATIVE_KERNEL`.
pub fn native_kernel(command_queue: cl_command_queue) -> CLResult<()> {
    queue(command_queue)?;
    // CL_INVALID_OPERATION if the device associated with command_queue cannot
    // execute the native kernel.
    err(
        CL_INVALID_OPERATION,
        "the device cannot execute native kernels",
    )
}
