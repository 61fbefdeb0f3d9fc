//! The handle model: how a CL object is laid out, handed to the user, validated
//! and reference counted.
//!
//! Every object is an `Arc<Obj<T>>`. `Obj<T>` is `#[repr(C)]` and starts with
//! the ICD dispatch-table pointer (the loader reads it to find our entry points),
//! then a type tag and the CL reference count. The raw handle the user holds is
//! the `Arc`'s pointer; each CL reference the user holds is one strong count of
//! that `Arc`. Internal users (a queue keeping its context, a command keeping its
//! buffers) hold ordinary `Arc` clones, so an object lives until both the user
//! and every command using it are done with it, as the spec asks.
//!
//! A handle from the user is validated against a registry of live objects
//! before it is dereferenced: NULL, a pointer to something else, a handle of the
//! wrong type or one whose object is gone gives the type's own `CL_INVALID_*`
//! code and is never read. The registry holds `Weak`s, so it keeps no object
//! alive; an object removes itself from it when it is dropped.

use crate::error::{err, CLResult};
use opencl_sys::cl_icd::cl_icd_dispatch;
use opencl_sys::{cl_int, cl_uint};
use parking_lot::RwLock;
use std::any::Any;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::ops::Deref;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, OnceLock, Weak};

/// A CL object type: its tag, its handle type and the error a bad handle gets.
pub trait ClObject: Send + Sync + Sized + 'static {
    /// The raw handle type (`cl_context`, ...).
    type Handle: Copy;
    /// `CL_INVALID_CONTEXT` for contexts, and so on.
    const INVALID: cl_int;
    /// The type's name, for messages.
    const NAME: &'static str;
    /// Its objects belong to a context (a failed call whose first such
    /// handle is one reports to that context's callback).
    const IN_CONTEXT: bool = false;
    /// Its handles are looked up again and again (kernels, queues,
    /// buffers): each thread remembers the latest few it looked up
    /// (`live_object_remembered`). Events are looked up once or twice each.
    const REMEMBERED: bool = true;
    fn to_raw(h: Self::Handle) -> *const Obj<Self>;
    fn from_raw(p: *const Obj<Self>) -> Self::Handle;
}

/// Objects from a user array of handles ([`Obj::get_list`]).
pub type HandleList<T> = smallvec::SmallVec<[Arc<Obj<T>>; 4]>;

/// The in-memory header every handle points at, then the object itself.
#[repr(C)]
pub struct Obj<T> {
    dispatch: *const cl_icd_dispatch,
    refcount: AtomicU32,
    /// In the registry (a handle to it may have reached the user).
    registered: AtomicBool,
    pub inner: T,
}

// SAFETY: `dispatch` points at the immutable static dispatch table; everything
// else is `T`, which is Send + Sync by `ClObject`'s bound.
unsafe impl<T: Send> Send for Obj<T> {}
// SAFETY: as above.
unsafe impl<T: Sync> Sync for Obj<T> {}

impl<T> Deref for Obj<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.inner
    }
}

/// Hashes an object address: the keys are distinct heap addresses, so one
/// multiply (Fibonacci hashing) spreads them well, far cheaper than SipHash on
/// the path every API call takes.
#[derive(Default)]
struct AddrHasher(u64);

impl Hasher for AddrHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_usize(&mut self, n: usize) {
        self.0 = (n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// Live objects by address. Lookups (every call) take the read lock; only
/// creation and destruction write.
type Registry = RwLock<HashMap<usize, Weak<dyn Any + Send + Sync>, BuildHasherDefault<AddrHasher>>>;

fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(|| RwLock::new(HashMap::default()))
}

/// The live registered object at `addr`, of any type.
pub fn live_object(addr: usize) -> Option<Arc<dyn Any + Send + Sync>> {
    live_object_remembered(addr, false)
}

/// A registered object's address and a weak reference to it.
type Remembered = Option<(usize, Weak<dyn Any + Send + Sync>)>;

/// How many objects each thread remembers ([`RECENT`]).
const RECENT_OBJECTS: usize = 4;

thread_local! {
    /// The objects this thread looked up lately (the kernel, queue and
    /// buffers of a launch loop), so that the next lookup of one takes no
    /// lock: a launch as users make them validates six handles, and the
    /// registry's lock and its cache line, shared with the thread that ran
    /// the previous command, were a seventh of its cost. A remembered
    /// `Weak` keeps its allocation from being freed, so no other object can
    /// have the address while the entry lives: a hit is the object itself,
    /// or (upgrade fails) an object that is gone. The next slot to replace
    /// is kept beside the entries.
    static RECENT: std::cell::RefCell<([Remembered; RECENT_OBJECTS], usize)> =
        const { std::cell::RefCell::new(([None, None, None, None], 0)) };
}

/// [`live_object`]; `remember`: keep the object among this thread's recent
/// lookups (objects looked up again and again; not events, whose handles
/// are mostly looked up once).
fn live_object_remembered(addr: usize, remember: bool) -> Option<Arc<dyn Any + Send + Sync>> {
    let recent = RECENT.try_with(|r| {
        let r = r.try_borrow().ok()?;
        r.0.iter()
            .flatten()
            .find(|(a, _)| *a == addr)
            .map(|(_, w)| w.upgrade())
    });
    match recent {
        Ok(Some(Some(obj))) => return Some(obj),
        // Remembered but gone: not in the registry either.
        Ok(Some(None)) => return None,
        _ => {}
    }
    let weak = registry().read().get(&addr)?.clone();
    let obj = weak.upgrade()?;
    if remember {
        let _ = RECENT.try_with(|r| {
            if let Ok(mut r) = r.try_borrow_mut() {
                let (entries, next) = &mut *r;
                entries[*next] = Some((addr, weak));
                *next = (*next + 1) % RECENT_OBJECTS;
            }
        });
    }
    Some(obj)
}

/// Number of live registered objects (for leak tests).
pub fn live_objects() -> usize {
    registry().read().len()
}

impl<T> Drop for Obj<T> {
    fn drop(&mut self) {
        if *self.registered.get_mut() {
            registry().write().remove(&(self as *const Self as usize));
        }
    }
}

impl<T: ClObject> Obj<T> {
    /// A new object, registered as live. Its CL reference count is 0 until a
    /// handle to it is given to the user (`into_handle`).
    pub fn new(inner: T) -> Arc<Obj<T>> {
        let obj = Obj::new_unregistered(inner);
        Obj::register(&obj);
        obj
    }

    /// A new object that enters the registry only when a handle to it is
    /// made (`into_handle`, `handle`): the event of a command enqueued with
    /// a NULL `event` never does, so a stream of such commands does not take
    /// the registry's lock twice per command on two threads.
    pub fn new_unregistered(inner: T) -> Arc<Obj<T>> {
        Arc::new(Obj {
            dispatch: crate::dispatch::table(),
            refcount: AtomicU32::new(0),
            registered: AtomicBool::new(false),
            inner,
        })
    }

    /// Out of the registry: its handle is no longer valid (an object the
    /// spec has deleted, that we keep for reuse: a released, complete event).
    pub fn unregister(&self) {
        if self.registered.swap(false, Ordering::AcqRel) {
            registry().write().remove(&(self as *const Self as usize));
        }
    }

    /// Nothing but `this` refers to the object, as far as can be seen
    /// without taking it ([`Obj::unused_mut`] makes sure).
    pub fn unused(this: &Arc<Obj<T>>) -> bool {
        Arc::strong_count(this) == 1 && this.refcount.load(Ordering::Acquire) == 0
    }

    /// The object, to be made a new one of its type in the same allocation
    /// (a queue's spent event becoming its next command's), when nothing
    /// but `this` refers to it any more: the user released every CL
    /// reference, and no command, queue or lookup holds it. Its handle is
    /// invalid from here on, until a handle to the new object (the same
    /// address) is made.
    pub fn unused_mut(this: &mut Arc<Obj<T>>) -> Option<&mut T> {
        if !Obj::unused(this) {
            return None;
        }
        // The registry's `Weak` would keep `get_mut` from succeeding.
        this.unregister();
        Arc::get_mut(this).map(|obj| &mut obj.inner)
    }

    fn register(this: &Arc<Obj<T>>) {
        if this.registered.load(Ordering::Acquire) || this.registered.swap(true, Ordering::AcqRel) {
            return;
        }
        let weak: Weak<dyn Any + Send + Sync> = Arc::downgrade(this) as _;
        registry().write().insert(Arc::as_ptr(this) as usize, weak);
    }

    /// The handle for the user: the strong reference `this` becomes the
    /// user's, counted as one CL reference.
    pub fn into_handle(this: Arc<Obj<T>>) -> T::Handle {
        Obj::register(&this);
        this.refcount.fetch_add(1, Ordering::AcqRel);
        T::from_raw(Arc::into_raw(this))
    }

    /// The handle of an object without giving the user a reference (for
    /// `clGet*Info` answers such as `CL_QUEUE_CONTEXT`).
    pub fn handle(this: &Arc<Obj<T>>) -> T::Handle {
        Obj::register(this);
        T::from_raw(Arc::as_ptr(this))
    }

    /// Validate a handle from the user and take an internal reference to it.
    pub fn get(h: T::Handle) -> CLResult<Arc<Obj<T>>> {
        let p = T::to_raw(h);
        if p.is_null() {
            return err(T::INVALID, format!("{} is NULL", T::NAME));
        }
        let found = live_object_remembered(p as usize, T::REMEMBERED);
        if T::IN_CONTEXT && found.is_some() {
            super::context::note_call_object(p as usize);
        }
        match found.map(|any| any.downcast::<Obj<T>>()) {
            Some(Ok(obj)) => Ok(obj),
            _ => err(T::INVALID, format!("not a valid {}", T::NAME)),
        }
    }

    /// Validate a possibly-NULL handle: `Ok(None)` for NULL.
    pub fn get_opt(h: T::Handle) -> CLResult<Option<Arc<Obj<T>>>> {
        if T::to_raw(h).is_null() {
            Ok(None)
        } else {
            Obj::get(h).map(Some)
        }
    }

    /// Validate a user array of handles (`num` entries at `list`); a few
    /// (a wait list of one event) are held without an allocation.
    // The pointer is the C caller's, passed through unchanged; its validity is
    // the OpenCL API's contract with that caller, as for every entry point.
    #[allow(clippy::not_unsafe_ptr_arg_deref)]
    pub fn get_list(list: *const T::Handle, num: usize) -> CLResult<HandleList<T>> {
        if list.is_null() || num == 0 {
            return Ok(HandleList::new());
        }
        // SAFETY: the caller of the API promised `num` readable handles at `list`
        // (the spec's contract); we read them by value and validate each.
        let handles = unsafe { std::slice::from_raw_parts(list, num) };
        handles.iter().map(|&h| Obj::get(h)).collect()
    }

    /// `clRetain*`. An object the user released but that is still alive
    /// through an implicit reference (a context whose queue lives: the spec
    /// has the queue hold it) may be retained again through the handle a
    /// query gave (`CL_QUEUE_CONTEXT`): pyopencl does exactly that for
    /// `CommandQueue(create_some_context())`, and other platforms count the
    /// implicit references in the CL count, so the handle stays valid there.
    pub fn retain(h: T::Handle) -> CLResult<()> {
        let obj = Obj::<T>::get(h)?;
        obj.refcount.fetch_add(1, Ordering::AcqRel);
        // SAFETY: `obj` is a live strong reference to this allocation, so the
        // count is ≥ 1 and may be incremented; the increment is the user's.
        unsafe { Arc::increment_strong_count(Arc::as_ptr(&obj)) };
        Ok(())
    }

    /// `clRelease*`. Returns the object (still alive through the returned
    /// reference) and whether the CL count reached zero, so the caller can run
    /// what the spec says happens then (destructor callbacks, ...).
    pub fn release(h: T::Handle) -> CLResult<(Arc<Obj<T>>, bool)> {
        let obj = Obj::<T>::get(h)?;
        let old = obj
            .refcount
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |c| {
                (c > 0).then(|| c - 1)
            })
            .or_else(|_| err(T::INVALID, format!("{} was already released", T::NAME)))?;
        // SAFETY: the user held one strong count per CL reference (refcount was
        // > 0), and `obj` holds another, so this decrement cannot free it.
        unsafe { Arc::decrement_strong_count(Arc::as_ptr(&obj)) };
        Ok((obj, old == 1))
    }

    /// The CL reference count (`CL_*_REFERENCE_COUNT`).
    pub fn ref_count(&self) -> cl_uint {
        self.refcount.load(Ordering::Acquire)
    }

    /// Take a CL reference for the user on an object we hold (e.g. the
    /// event returned by an enqueue whose object we created).
    pub fn retained_handle(this: &Arc<Obj<T>>) -> T::Handle {
        Obj::into_handle(this.clone())
    }

    /// The handle of the `Obj` that `inner` is the `inner` of, for an object
    /// that needs its own handle where only `&T` is at hand (its `Drop`,
    /// which gives destructor callbacks the handle while the `Obj` is still
    /// allocated). Every CL object lives in an `Obj` (`Obj::new` is the only
    /// way to make one a handle can reach); the address is computed, never
    /// dereferenced here.
    pub fn handle_of_inner(inner: &T) -> T::Handle {
        let offset = std::mem::offset_of!(Obj<T>, inner);
        T::from_raw((inner as *const T as *const u8).wrapping_sub(offset) as *const Obj<T>)
    }
}

/// Declare a CL object type: `cl_object!(Context, cl_context, CL_INVALID_CONTEXT, "context", true)`
/// (the last argument: [`ClObject::IN_CONTEXT`], false if left out; then
/// `remembered: false` where [`ClObject::REMEMBERED`] does not hold).
#[macro_export]
macro_rules! cl_object {
    ($ty:ty, $handle:ty, $invalid:expr, $name:expr) => {
        $crate::cl_object!($ty, $handle, $invalid, $name, false);
    };
    ($ty:ty, $handle:ty, $invalid:expr, $name:expr, $in_context:expr) => {
        $crate::cl_object!($ty, $handle, $invalid, $name, $in_context, remembered: true);
    };
    ($ty:ty, $handle:ty, $invalid:expr, $name:expr, $in_context:expr, remembered: $remembered:expr) => {
        impl $crate::core::handle::ClObject for $ty {
            type Handle = $handle;
            const INVALID: opencl_sys::cl_int = $invalid;
            const NAME: &'static str = $name;
            const IN_CONTEXT: bool = $in_context;
            const REMEMBERED: bool = $remembered;
            fn to_raw(h: $handle) -> *const $crate::core::handle::Obj<Self> {
                h as *const $crate::core::handle::Obj<Self>
            }
            fn from_raw(p: *const $crate::core::handle::Obj<Self>) -> $handle {
                p as $handle
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Dummy;
    impl ClObject for Dummy {
        type Handle = *const Obj<Dummy>;
        const INVALID: cl_int = -12345;
        const NAME: &'static str = "dummy";
        fn to_raw(h: Self::Handle) -> *const Obj<Self> {
            h
        }
        fn from_raw(p: *const Obj<Self>) -> Self::Handle {
            p
        }
    }

    #[test]
    fn an_unregistered_object_is_invalid_until_a_handle_is_made() {
        let obj = Obj::new_unregistered(Dummy);
        let raw = Arc::as_ptr(&obj);
        assert_eq!(Obj::<Dummy>::get(raw).err().map(|e| e.code), Some(-12345));
        let h = Obj::handle(&obj);
        assert!(Obj::<Dummy>::get(h).is_ok());
        drop(obj);
        // Gone from the registry with the object (the address is only looked up).
        assert!(Obj::<Dummy>::get(raw).is_err());
    }

    struct Other;
    impl ClObject for Other {
        type Handle = *const Obj<Other>;
        const INVALID: cl_int = -54321;
        const NAME: &'static str = "other";
        fn to_raw(h: Self::Handle) -> *const Obj<Self> {
            h
        }
        fn from_raw(p: *const Obj<Self>) -> Self::Handle {
            p
        }
    }

    #[test]
    fn a_remembered_object_is_still_checked_for_life_and_type() {
        let obj = Obj::new(Dummy);
        let raw = Arc::as_ptr(&obj);
        // Looked up twice: the second lookup is this thread's remembered one.
        assert!(Obj::<Dummy>::get(raw).is_ok());
        assert!(Obj::<Dummy>::get(raw).is_ok());
        // The same address as another type's handle: that type's error.
        let as_other = raw as *const Obj<Other>;
        assert_eq!(
            Obj::<Other>::get(as_other).err().map(|e| e.code),
            Some(-54321)
        );
        // Held so that no object of another test takes the address.
        let _pin = Arc::downgrade(&obj);
        drop(obj);
        assert_eq!(Obj::<Dummy>::get(raw).err().map(|e| e.code), Some(-12345));
        // Many objects later (the remembered ones replaced), still gone.
        let others: Vec<_> = (0..2 * RECENT_OBJECTS).map(|_| Obj::new(Dummy)).collect();
        for o in &others {
            assert!(Obj::<Dummy>::get(Arc::as_ptr(o)).is_ok());
        }
        assert!(Obj::<Dummy>::get(raw).is_err());
        // Another thread sees what this one remembers the same way.
        let addr = Arc::as_ptr(&others[0]) as usize;
        let seen = std::thread::spawn(move || live_object(addr).is_some()).join();
        assert_eq!(seen.ok(), Some(true));
    }
}
