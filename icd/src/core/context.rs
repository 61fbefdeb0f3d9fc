//! Contexts: the devices a context was made for, the properties it was given,
//! its notify callback, its destructor callbacks and its SVM allocations.
//!
//! A context lives as long as the user holds a reference or any object made in
//! it (queue, memory object, event, program) holds its `Arc`: that is the
//! spec's "destroyed once all objects attached to it are released". When it is
//! destroyed (`Drop`), the destructor callbacks run, last registered first.
//! User callbacks are never called while a lock of ours is held.
//!
//! Also here: the context of the API call under way on this thread (that
//! of the first handle it validated), so that the words of a failed call's
//! error reach that context's notify callback (`api::entry`).

use super::device::Device;
use super::handle::Obj;
use super::svm::SvmTable;
use cranecl_jit::runtime::check::Checks;
use cranecl_jit::runtime::schedule::Schedule;
use opencl_sys::*;
use parking_lot::Mutex;
use std::cell::Cell;
use std::ffi::{c_char, c_void, CString};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// The `pfn_notify` of `clCreateContext`.
pub type NotifyFn = unsafe extern "C" fn(
    errinfo: *const c_char,
    private_info: *const c_void,
    cb: usize,
    user_data: *mut c_void,
);

/// The `pfn_notify` of `clSetContextDestructorCallback`.
pub type DestructorFn = unsafe extern "C" fn(context: cl_context, user_data: *mut c_void);

/// Run an object's destructor callbacks, as the spec orders them: in the
/// reverse order of registration. `handle` is the object's own.
pub fn run_destructors<H: Copy>(
    callbacks: Vec<(unsafe extern "C" fn(H, *mut c_void), UserData)>,
    handle: H,
) {
    for (f, data) in callbacks.into_iter().rev() {
        // SAFETY: the user's callback with the signature the spec gives; it
        // gets the handle and the user data it was registered with.
        unsafe { f(handle, data.0) };
    }
}

/// A user-data pointer we only hand back to the user's callback.
#[derive(Clone, Copy)]
pub struct UserData(pub *mut c_void);
// SAFETY: we never dereference it; the user gave it to be passed back to their
// callback, on whatever thread the spec allows that callback to run.
unsafe impl Send for UserData {}
// SAFETY: as above.
unsafe impl Sync for UserData {}

pub struct Context {
    devices: Vec<Arc<Obj<Device>>>,
    /// The properties list as given, terminating 0 included; empty if NULL.
    properties: Vec<cl_context_properties>,
    interop_user_sync: bool,
    notify: Option<(NotifyFn, UserData)>,
    destructors: Mutex<Vec<(DestructorFn, UserData)>>,
    /// Checked mode (`CRANECL_CHECK`, read when the context is created):
    /// programs built in this context are compiled with these checks.
    checks: Checks,
    /// Schedule fuzzing (`CRANECL_SCHEDULE`, read when the context is
    /// created): programs built in this context run their work-items, and
    /// launches their groups, in its orders.
    schedule: Option<Schedule>,
    /// Kernel launches enqueued so far (keys each launch's orders).
    launches: AtomicU64,
    /// The live SVM allocations made in this context (`clSVMAlloc`).
    svm: SvmTable,
}
crate::cl_object!(Context, cl_context, CL_INVALID_CONTEXT, "context", true);

/// `CRANECL_SCHEDULE` for a new context; a schedule is printed on stderr
/// (`cranecl: CRANECL_SCHEDULE=shuffle:SEED`) so that the run can be repeated.
fn schedule_from_env() -> Option<Schedule> {
    let s = Schedule::from_env()?;
    eprintln!("cranecl: CRANECL_SCHEDULE={}", s.value());
    Some(s)
}

impl Context {
    pub fn new(
        devices: Vec<Arc<Obj<Device>>>,
        properties: Vec<cl_context_properties>,
        interop_user_sync: bool,
        notify: Option<(NotifyFn, UserData)>,
    ) -> Arc<Obj<Context>> {
        Obj::new(Context {
            devices,
            properties,
            interop_user_sync,
            notify,
            destructors: Mutex::new(Vec::new()),
            checks: Checks::from_env(),
            schedule: schedule_from_env(),
            launches: AtomicU64::new(0),
            svm: SvmTable::default(),
        })
    }

    /// The schedule programs of this context are built with.
    pub fn schedule(&self) -> Option<Schedule> {
        self.schedule
    }

    /// A new launch's schedule and number (`None` without a schedule).
    pub fn schedule_launch(&self) -> Option<(Schedule, u64)> {
        let s = self.schedule?;
        Some((s, self.launches.fetch_add(1, Ordering::Relaxed)))
    }

    /// The context's SVM allocations.
    pub fn svm(&self) -> &SvmTable {
        &self.svm
    }

    /// The checks programs of this context are built with.
    pub fn checks(&self) -> Checks {
        self.checks
    }

    /// The devices the context was created for.
    pub fn devices(&self) -> &[Arc<Obj<Device>>] {
        &self.devices
    }

    /// Whether `device` is one of this context's devices.
    pub fn has_device(&self, device: &Arc<Obj<Device>>) -> bool {
        self.devices.iter().any(|d| Arc::ptr_eq(d, device))
    }

    /// `CL_CONTEXT_PROPERTIES`: the list as the user gave it.
    pub fn properties(&self) -> &[cl_context_properties] {
        &self.properties
    }

    /// `CL_CONTEXT_INTEROP_USER_SYNC` (false when not given).
    pub fn interop_user_sync(&self) -> bool {
        self.interop_user_sync
    }

    /// Report an error to the user's `pfn_notify`, if any (called with no
    /// lock of ours held; the callback may call back into the API).
    pub fn notify(&self, msg: &str) {
        if let Some((f, data)) = self.notify {
            // A message with an interior NUL is cut there.
            let text = CString::new(msg.split('\0').next().unwrap_or_default()).unwrap_or_default();
            // SAFETY: `f` is the user's callback with the signature the spec
            // gives; the string lives across the call; no private info.
            unsafe { f(text.as_ptr(), std::ptr::null(), 0, data.0) };
        }
    }

    /// `clSetContextDestructorCallback`.
    pub fn add_destructor(&self, f: DestructorFn, data: UserData) {
        self.destructors.lock().push((f, data));
    }
}

impl Drop for Context {
    fn drop(&mut self) {
        let callbacks = std::mem::take(self.destructors.get_mut());
        if !callbacks.is_empty() {
            run_destructors(callbacks, Obj::handle_of_inner(self));
        }
    }
}

thread_local! {
    /// The address of the first handle the API call under way on this
    /// thread validated (0: none yet). Only a failed call looks up its
    /// context from it (`call_context`), so a call that succeeds pays one
    /// thread-local store, no reference count.
    static CALL_OBJECT: Cell<usize> = const { Cell::new(0) };
}

/// Start an API call: forget the first handle of the call around it (if
/// this one is nested, inside a callback); [`end_call`] restores it.
///
/// At process exit (a library's static destructors releasing objects after
/// this thread's locals are gone) there is no call object: 0.
pub fn begin_call() -> usize {
    CALL_OBJECT.try_with(|c| c.replace(0)).unwrap_or(0)
}

/// End an API call: the address of its first handle (0 if none), and the
/// outer call's back in place.
pub fn end_call(outer: usize) -> usize {
    CALL_OBJECT.try_with(|c| c.replace(outer)).unwrap_or(0)
}

/// A handle the call validated: the first one names the call's context.
pub fn note_call_object(addr: usize) {
    let _ = CALL_OBJECT.try_with(|c| {
        if c.get() == 0 {
            c.set(addr);
        }
    });
}

/// The context of the object at `addr` (a call's first handle, from
/// [`end_call`]): itself, or the context a queue, buffer, kernel, program or
/// event belongs to; `None` for a platform or device handle, or an object
/// gone since.
pub fn call_context(addr: usize) -> Option<Arc<Obj<Context>>> {
    use super::{event::Event, kernel::Kernel, mem::Mem, program::Program, queue::Queue};
    let obj = super::handle::live_object(addr)?;
    if let Some(q) = obj.downcast_ref::<Obj<Queue>>() {
        Some(q.context().clone())
    } else if let Some(m) = obj.downcast_ref::<Obj<Mem>>() {
        Some(m.context().clone())
    } else if let Some(k) = obj.downcast_ref::<Obj<Kernel>>() {
        Some(k.context().clone())
    } else if let Some(p) = obj.downcast_ref::<Obj<Program>>() {
        Some(p.context().clone())
    } else if let Some(e) = obj.downcast_ref::<Obj<Event>>() {
        Some(e.context().clone())
    } else {
        obj.downcast::<Obj<Context>>().ok()
    }
}
