//! Memory objects: buffers and sub-buffers, their data store, their mappings
//! and their destructor callbacks.
//!
//! A buffer's data store is either a `HostAllocation` of the global arena
//! (`CL_MEM_ALLOC_HOST_PTR`, `CL_MEM_COPY_HOST_PTR` or neither) or, with
//! `CL_MEM_USE_HOST_PTR`, the user's own memory: on a CPU the device reads and
//! writes the host pointer directly, so there is no cached copy to keep in
//! step. A sub-buffer is a window (`offset`, `size`) on its parent's store and
//! holds its parent alive. Every memory object knows the address of its first
//! byte (`base`), fixed for its whole life.
//!
//! Every buffer is registered in the memory registry while it lives (ours
//! with their guard region, and the user's memory behind `USE_HOST_PTR`,
//! which we do not own but whose range we know), and every sub-buffer as a
//! child of its buffer with its own bounds, so that a fault or a checked
//! access can name the object an address belongs to.
//!
//! Mappings are zero-copy: `clEnqueueMapBuffer` returns `base + offset`. The
//! active mappings of a buffer and of all its sub-buffers are recorded in one
//! list on the parent buffer, in parent offsets, so that a write mapping that
//! overlaps another mapping of the same bytes is seen whichever object it went
//! through (the spec makes that `CL_INVALID_OPERATION`).
//!
//! In checked mode (`CRANECL_CHECK=api`) a buffer also keeps the uses of
//! its data store (and its sub-buffers') by commands that may not be complete
//! yet, and answers which active mapping a command must not run beside
//! (`exec::api_check` has the rule).
//!
//! A memory object is freed when the user has released it and every command,
//! sub-buffer or kernel argument using it has dropped its `Arc`. Then (in
//! `Drop`) the destructor callbacks run, last registered first, and the data
//! store is freed after them, as the spec orders.

use super::context::{run_destructors, Context, UserData};
use super::handle::Obj;
use super::image::Image;
use crate::error::{err, CLResult};
use crate::exec::api_check::Uses;
use cranecl_memory::registry::{self, Kind, Registration};
use cranecl_memory::HostAllocation;
use opencl_sys::*;
use parking_lot::Mutex;
use std::ffi::c_void;
use std::sync::Arc;

/// The `pfn_notify` of `clSetMemObjectDestructorCallback`.
pub type MemDestructorFn = unsafe extern "C" fn(memobj: cl_mem, user_data: *mut c_void);

/// The read/write access flags (how kernels use the object).
pub const ACCESS_FLAGS: cl_mem_flags = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
/// The host pointer flags.
pub const HOST_PTR_FLAGS: cl_mem_flags =
    CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;
/// The host access flags (how the host uses the object through the API).
pub const HOST_ACCESS_FLAGS: cl_mem_flags =
    CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;

/// How a new buffer's data store starts.
pub enum Store {
    /// A fresh zeroed allocation.
    Alloc,
    /// A fresh allocation holding a copy of `size` bytes at this address.
    CopyFrom(*const u8),
    /// The user's memory itself (`CL_MEM_USE_HOST_PTR`).
    Use(*mut u8),
}

/// One active mapping, in offsets of the parent buffer.
struct Mapping {
    /// Which object it was made through (the address of its `Mem`).
    owner: usize,
    start: usize,
    len: usize,
    write: bool,
}

pub struct Mem {
    context: Arc<Obj<Context>>,
    flags: cl_mem_flags,
    size: usize,
    /// `CL_MEM_HOST_PTR`: the user's pointer for `CL_MEM_USE_HOST_PTR`.
    host_ptr: usize,
    /// `CL_MEM_PROPERTIES`: `None` unless created with a non-NULL list.
    properties: Option<Vec<cl_mem_properties>>,
    /// The buffer a sub-buffer was made from.
    parent: Option<Arc<Obj<Mem>>>,
    /// Offset in the parent (0 for a buffer).
    offset: usize,
    /// The first byte of the data store.
    base: *mut u8,
    /// The registry entry of the data store (dropped before the store).
    registered: Registration,
    /// The allocation `base` points into, if we own it.
    _store: Option<HostAllocation>,
    /// Active mappings (used on buffers only; sub-buffers record theirs here
    /// on their parent).
    maps: Mutex<Vec<Mapping>>,
    /// Checked mode (`api`): uses by commands perhaps not complete (on
    /// buffers only, like `maps`).
    uses: Mutex<Uses>,
    destructors: Mutex<Vec<(MemDestructorFn, UserData)>>,
    /// Checked `races`: the shadow of the data store (buffers only; made at
    /// the first checked launch that may write it).
    race_shadow: std::sync::OnceLock<Arc<cranecl_jit::runtime::check::Shadow>>,
    /// For an image: its format and geometry (`core::image`).
    image: Option<Image>,
}
crate::cl_object!(Mem, cl_mem, CL_INVALID_MEM_OBJECT, "memory object", true);

// SAFETY: `base` points into memory that lives as long as this object (our
// allocation, the parent's, or the user's under the `USE_HOST_PTR` contract);
// the object never reads through it by itself. Accesses to the bytes are made
// by commands that the program orders with events, as OpenCL requires.
unsafe impl Send for Mem {}
// SAFETY: as above; all mutable state is behind mutexes.
unsafe impl Sync for Mem {}

impl Mem {
    /// A new buffer of `size` bytes (validated by the caller: `size > 0`,
    /// flags consistent, `store` matching the flags).
    ///
    /// # Safety
    /// For `Store::CopyFrom` the pointer must be readable for `size` bytes;
    /// for `Store::Use` it must stay valid for reads and writes of `size`
    /// bytes for the life of the buffer (the spec's contract on `host_ptr`).
    pub unsafe fn new_buffer(
        context: Arc<Obj<Context>>,
        flags: cl_mem_flags,
        size: usize,
        store: Store,
        properties: Option<Vec<cl_mem_properties>>,
    ) -> CLResult<Arc<Obj<Mem>>> {
        // SAFETY: the caller's contract, passed on.
        unsafe { Self::new_store(context, flags, size, store, properties, None) }
    }

    /// A new image of `size` bytes whose data store is made as for a buffer
    /// (`CopyFrom` is not used: the caller copies with the pitches); `image`
    /// gets the store's address.
    ///
    /// # Safety
    /// As [`Self::new_buffer`].
    pub unsafe fn new_image(
        context: Arc<Obj<Context>>,
        flags: cl_mem_flags,
        size: usize,
        store: Store,
        properties: Option<Vec<cl_mem_properties>>,
        image: Image,
    ) -> CLResult<Arc<Obj<Mem>>> {
        // SAFETY: the caller's contract, passed on.
        unsafe { Self::new_store(context, flags, size, store, properties, Some(image)) }
    }

    unsafe fn new_store(
        context: Arc<Obj<Context>>,
        flags: cl_mem_flags,
        size: usize,
        store: Store,
        properties: Option<Vec<cl_mem_properties>>,
        mut image: Option<Image>,
    ) -> CLResult<Arc<Obj<Mem>>> {
        let (base, alloc, host_ptr, registered) = match store {
            Store::Use(p) => {
                let r = registry::register(Kind::HostBuffer, p as usize, size, 0);
                (p, None, p as usize, r)
            }
            Store::Alloc | Store::CopyFrom(_) => {
                let align = super::device::MEM_BASE_ADDR_ALIGN;
                let Some(a) = HostAllocation::zeroed(size, align) else {
                    return err(
                        CL_MEM_OBJECT_ALLOCATION_FAILURE,
                        format!("cannot allocate a buffer of {size} bytes"),
                    );
                };
                if let Store::CopyFrom(src) = store {
                    // SAFETY: the caller promised `size` readable bytes at
                    // `src`; `a` is a fresh allocation of `size` bytes.
                    unsafe { std::ptr::copy_nonoverlapping(src, a.as_ptr(), size) };
                }
                let r = registry::register(Kind::Buffer, a.as_ptr() as usize, size, a.guard_len());
                (a.as_ptr(), Some(a), 0, r)
            }
        };
        if let Some(i) = &mut image {
            i.desc.data = base;
        }
        Ok(Obj::new(Mem {
            context,
            flags,
            size,
            host_ptr,
            properties,
            parent: None,
            offset: 0,
            base,
            registered,
            _store: alloc,
            maps: Mutex::new(Vec::new()),
            uses: Mutex::new(Uses::default()),
            destructors: Mutex::new(Vec::new()),
            race_shadow: std::sync::OnceLock::new(),
            image,
        }))
    }

    /// A sub-buffer of `parent` covering `origin .. origin + size` (validated
    /// by the caller), with `flags` already merged with the inherited ones.
    pub fn new_sub_buffer(
        parent: &Arc<Obj<Mem>>,
        flags: cl_mem_flags,
        origin: usize,
        size: usize,
    ) -> Arc<Obj<Mem>> {
        Self::new_window(parent, flags, origin, size, None)
    }

    /// A 1D image buffer on `buffer`'s data store (a buffer or sub-buffer,
    /// validated by the caller): a window on the buffer's root, like a
    /// sub-buffer, so that mappings and checked uses of either are seen by
    /// both; `image` gets the store's address.
    pub fn new_image_on_buffer(
        buffer: &Arc<Obj<Mem>>,
        flags: cl_mem_flags,
        size: usize,
        image: Image,
    ) -> Arc<Obj<Mem>> {
        let (root, origin) = match &buffer.parent {
            Some(p) => (p, buffer.offset),
            None => (buffer, 0),
        };
        Self::new_window(root, flags, origin, size, Some(image))
    }

    fn new_window(
        parent: &Arc<Obj<Mem>>,
        flags: cl_mem_flags,
        origin: usize,
        size: usize,
        mut image: Option<Image>,
    ) -> Arc<Obj<Mem>> {
        let host_ptr = if parent.host_ptr != 0 {
            parent.host_ptr + origin
        } else {
            0
        };
        // `origin + size <= parent.size` was checked: still inside.
        let base = parent.base.wrapping_add(origin);
        let kind = Kind::SubBuffer {
            origin,
            parent_size: parent.size,
        };
        let registered = registry::register_child(&parent.registered, kind, base as usize, size);
        if let Some(i) = &mut image {
            i.desc.data = base;
        }
        Obj::new(Mem {
            context: parent.context.clone(),
            flags,
            size,
            host_ptr,
            properties: None,
            parent: Some(parent.clone()),
            offset: origin,
            base,
            registered,
            _store: None,
            maps: Mutex::new(Vec::new()),
            uses: Mutex::new(Uses::default()),
            destructors: Mutex::new(Vec::new()),
            race_shadow: std::sync::OnceLock::new(),
            image,
        })
    }

    pub fn context(&self) -> &Arc<Obj<Context>> {
        &self.context
    }

    /// `CL_MEM_FLAGS` (for a sub-buffer, with the inherited flags).
    pub fn flags(&self) -> cl_mem_flags {
        self.flags
    }

    /// `CL_MEM_SIZE`.
    pub fn size(&self) -> usize {
        self.size
    }

    /// `CL_MEM_HOST_PTR`.
    pub fn host_ptr(&self) -> *mut c_void {
        self.host_ptr as *mut c_void
    }

    /// `CL_MEM_PROPERTIES`.
    pub fn properties(&self) -> Option<&[cl_mem_properties]> {
        self.properties.as_deref()
    }

    /// `CL_MEM_ASSOCIATED_MEMOBJECT`.
    pub fn parent(&self) -> Option<&Arc<Obj<Mem>>> {
        self.parent.as_ref()
    }

    /// `CL_MEM_OFFSET`.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The address of the first byte of the data store.
    pub fn base(&self) -> *mut u8 {
        self.base
    }

    /// The image part of an image object (`None` for a buffer).
    pub fn image(&self) -> Option<&Image> {
        self.image.as_ref()
    }

    /// The buffer whose data store this object uses (itself for a buffer).
    pub fn root(&self) -> &Mem {
        self.parent.as_deref().map_or(self, |p| &p.inner)
    }

    /// How far past the end of its buffer's data store (its own, or its
    /// parent's for a sub-buffer) something wrote into the red zone there
    /// (`cranecl_memory::global`); `None` when untouched, or when there is
    /// none (a large buffer's guard faults instead; a `USE_HOST_PTR`
    /// buffer's memory is the user's). `head_only`: as a launch looks
    /// (`HostAllocation::overrun`).
    pub fn overrun(&self, head_only: bool) -> Option<usize> {
        self.root()._store.as_ref()?.overrun(head_only)
    }

    /// Zero the red zone again after its [`overrun`](Self::overrun) was
    /// reported.
    pub fn clear_overrun(&self) {
        if let Some(store) = &self.root()._store {
            store.clear_overrun();
        }
    }

    /// Checked `races`: the shadow of this object's data store (its
    /// buffer's, for a sub-buffer).
    pub fn race_shadow(&self) -> Arc<cranecl_jit::runtime::check::Shadow> {
        let root = self.root();
        root.race_shadow
            .get_or_init(|| {
                Arc::new(cranecl_jit::runtime::check::Shadow::new(
                    root.base as u64,
                    root.size as u64,
                ))
            })
            .clone()
    }

    /// Whether `self` and `other` share a data store (so that copies between
    /// them must be checked for overlap, in offsets of the root).
    pub fn same_store(&self, other: &Mem) -> bool {
        std::ptr::eq(self.root(), other.root())
    }

    /// Whether the host may read it through the API (`CL_MEM_HOST_WRITE_ONLY`
    /// and `CL_MEM_HOST_NO_ACCESS` forbid it).
    pub fn host_readable(&self) -> bool {
        self.flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS) == 0
    }

    /// Whether the host may write it through the API.
    pub fn host_writable(&self) -> bool {
        self.flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS) == 0
    }

    fn id(&self) -> usize {
        self as *const Mem as usize
    }

    /// `CL_MEM_MAP_COUNT`.
    pub fn map_count(&self) -> cl_uint {
        let id = self.id();
        let n = self
            .root()
            .maps
            .lock()
            .iter()
            .filter(|m| m.owner == id)
            .count();
        cl_uint::try_from(n).unwrap_or(cl_uint::MAX)
    }

    /// Record a mapping of `offset .. offset + len` (in this object) and
    /// return its host pointer. Fails with `CL_INVALID_OPERATION` if a write
    /// mapping would overlap another mapping of the same bytes.
    pub fn map(&self, offset: usize, len: usize, write: bool) -> CLResult<*mut u8> {
        let start = self.offset + offset;
        let mut maps = self.root().maps.lock();
        let clash = maps
            .iter()
            .any(|m| (write || m.write) && start < m.start + m.len && m.start < start + len);
        if clash {
            return err(
                CL_INVALID_OPERATION,
                "mapping would overlap a region mapped for writing",
            );
        }
        maps.push(Mapping {
            owner: self.id(),
            start,
            len,
            write,
        });
        Ok(self.base.wrapping_add(offset))
    }

    /// Whether `ptr` was returned by a map of this object not yet unmapped.
    pub fn is_mapped(&self, ptr: *mut c_void) -> bool {
        let id = self.id();
        let root = self.root();
        let maps = root.maps.lock();
        maps.iter()
            .any(|m| m.owner == id && root.base.wrapping_add(m.start) == ptr as *mut u8)
    }

    /// Forget one mapping made through this object whose pointer is `ptr`.
    /// Fails with `CL_INVALID_VALUE` if there is none.
    pub fn unmap(&self, ptr: *mut c_void) -> CLResult<()> {
        let id = self.id();
        let root = self.root();
        let mut maps = root.maps.lock();
        let found = maps
            .iter()
            .rposition(|m| m.owner == id && root.base.wrapping_add(m.start) == ptr as *mut u8);
        match found {
            Some(i) => {
                maps.remove(i);
                Ok(())
            }
            None => err(
                CL_INVALID_VALUE,
                "mapped_ptr was not returned by a map of this memory object",
            ),
        }
    }

    /// Checked mode (`api`): an active mapping that a command using
    /// `offset .. offset + len` of this object (writing if `write`) must not
    /// run beside, as `(start, len, mapped for writing)` in parent offsets.
    /// The spec ("Accessing Mapped Regions of a Memory Object"): while an
    /// object is mapped for writing, no command may read or write it, one of
    /// its sub-buffers or its parent; while mapped for reading, none may
    /// write them; an object counts as mapped whatever region is mapped. A
    /// sibling sub-buffer conflicts only where the two share bytes.
    pub fn conflicting_map(
        &self,
        offset: usize,
        len: usize,
        write: bool,
    ) -> Option<(usize, usize, bool)> {
        let root = self.root();
        let (id, root_id) = (self.id(), root.id());
        let start = self.offset + offset;
        let maps = root.maps.lock();
        maps.iter()
            .find(|m| {
                let associated = m.owner == id || m.owner == root_id || id == root_id;
                let shared = start < m.start + m.len && m.start < start + len;
                (m.write || write) && (associated || shared)
            })
            .map(|m| (m.start, m.len, m.write))
    }

    /// Checked mode (`api`): the uses recorded on this buffer's data store
    /// (pruned of finished commands), for `f` to read or extend.
    pub fn with_uses<R>(&self, f: impl FnOnce(&mut Uses) -> R) -> R {
        // Events looked at are dropped after the lock is released (the last
        // reference to one may drop a command's work, and a memory object
        // whose destructor calls the user back).
        let mut held = Vec::new();
        let mut uses = self.root().uses.lock();
        uses.sweep(&mut held);
        f(&mut uses)
    }

    /// `clSetMemObjectDestructorCallback`.
    pub fn add_destructor(&self, f: MemDestructorFn, data: UserData) {
        self.destructors.lock().push((f, data));
    }
}

impl Drop for Mem {
    fn drop(&mut self) {
        if self.parent.is_some() {
            // Mappings the user left open through this sub-buffer.
            let id = self.id();
            self.root().maps.lock().retain(|m| m.owner != id);
        }
        // The spec: the callbacks, last registered first, and then the
        // object's resources are freed (the fields drop after this).
        let callbacks = std::mem::take(self.destructors.get_mut());
        if !callbacks.is_empty() {
            run_destructors(callbacks, Obj::handle_of_inner(self));
        }
        // A write into the red zone that no launch's look caught (past its
        // head): said now, once, for a buffer (a sub-buffer's is its
        // parent's).
        if self.parent.is_none() {
            if let Some(past) = self.overrun(false) {
                let message = format!(
                    "a kernel wrote past the end of a buffer of {} bytes: bytes up to \
                     {past} past the end were changed, found when the buffer was \
                     released; CRANECL_CHECK=bounds reports each access",
                    self.size
                );
                eprintln!("cranecl: {message}");
                self.context.notify(&message);
            }
        }
    }
}
