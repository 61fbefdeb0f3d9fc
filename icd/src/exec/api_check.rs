//! Checked mode's `api` check (`CRANECL_CHECK=api`, part of `all`): buffers
//! that commands use without the order the spec requires.
//!
//! Two rules of the spec are checked, both about bytes of one data store (a
//! sub-buffer counts by its parent's bytes, a `*Rect` region by its whole
//! span from first to last byte):
//!
//! - *A host read beside a write.* A host read (`clEnqueueReadBuffer`,
//!   `clEnqueueReadBufferRect`, `clEnqueueMapBuffer`) and a command that may
//!   write the same bytes (`clEnqueueNDRangeKernel`/`clEnqueueTask` with the
//!   buffer as a `global` pointer argument that is not `const`,
//!   `clEnqueueWriteBuffer[Rect]`, the destination of
//!   `clEnqueueCopyBuffer[Rect]`, `clEnqueueFillBuffer`) race unless one is
//!   ordered before the other (the memory model: conflicting actions
//!   unordered by happens-before are a data race). Ordered means: complete,
//!   or reachable through the event graph — a wait list, the previous
//!   command of an in-order queue, a marker or barrier. Other queues and
//!   out-of-order queues do not order.
//! - *A command beside a mapping* ("Accessing Mapped Regions of a Memory
//!   Object": "the application must ensure that the memory object is
//!   unmapped before any enqueued kernels or commands that read from or
//!   write to this memory object or any of its associated memory objects
//!   ... or its parent object ... begin execution; otherwise the behavior is
//!   undefined"). A mapping for writing excludes any command using the
//!   object, its sub-buffers or its parent; one for reading excludes those
//!   that write. A mapping is active from `clEnqueueMapBuffer` until
//!   `clEnqueueUnmapMemObject` is enqueued. (Map against map is already
//!   `CL_INVALID_OPERATION`.)
//!
//! When each command is checked decides what is deterministic. A command
//! *runs unaided* when, as it is enqueued, none of its dependencies
//! (transitively) is a user event the host has not set: then nothing the
//! host does later can order it. A command that runs unaided is checked
//! once, **when it is enqueued**, against
//! - every active mapping it conflicts with, and
//! - every earlier command with a conflicting use that is not complete,
//!   runs unaided (or is already submitted), and does not reach it through
//!   the event graph.
//!
//! A command held back by a user event is checked **when it begins
//! execution** instead (the host may still order things before it: unmap,
//! or wait for the other command, and then set the event), against the
//! mappings then active and every other command with a conflicting use that
//! is not complete, runs unaided, and is not ordered after it.
//!
//! So, for a host program with one thread: a host read enqueued while a
//! kernel that may write the buffer is running or queued (on another queue,
//! on an out-of-order queue without a barrier, or with no event of it in the
//! read's wait list) is reported every time; so is any command enqueued
//! while a conflicting mapping is active (mappings count per object, as the
//! spec says, not per region). Not seen: an earlier command that completed
//! before the later one was enqueued (the host waited for it — which orders
//! them — or the race went the harmless way this time); a command held back
//! by a user event whose conflicting partner completes before it begins;
//! two writers, or a kernel's reads beside a host write (device-side races
//! are the `races` check's business, within one launch). A kernel counts as
//! writing all of every `global` buffer argument that is not `const`: one
//! that writes one half while the host reads the other is reported too.
//!
//! The later command of a conflicting pair fails: its work is replaced by
//! one that prints the reports on stderr and fails with
//! [`CHECK_FAILED`] (`CL_OUT_OF_RESOURCES`),
//! which also sends them to the context's notify callback; a blocking call
//! whose command fails so returns that status (`exec::enqueue_using`).
//! Without `api` nothing here runs: the enqueue path only reads the
//! context's flag.

use super::ndrange::CHECK_FAILED;
use super::Work;
use crate::core::event::Event;
use crate::core::handle::Obj;
use crate::core::mem::Mem;
use crate::error::ClError;
use opencl_sys::*;
use std::collections::HashSet;
use std::sync::{Arc, Weak};

/// How a command uses a buffer.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Usage {
    /// `clEnqueueReadBuffer[Rect]`: the host reads the bytes.
    HostRead,
    /// `clEnqueueMapBuffer`: the host sees the bytes.
    HostMap,
    /// A device-side read (a `const` or `constant` kernel argument, a copy's
    /// source).
    Read,
    /// The command may write the bytes.
    Write,
}

impl Usage {
    fn host(self) -> bool {
        matches!(self, Usage::HostRead | Usage::HostMap)
    }

    fn writes(self) -> bool {
        self == Usage::Write
    }

    /// Two uses race when unordered: a host read beside a write.
    fn conflicts(self, other: Usage) -> bool {
        (self.host() && other.writes()) || (self.writes() && other.host())
    }
}

/// One buffer a command uses: `size` bytes at `offset` of `mem`, and how.
#[derive(Clone)]
pub struct Access {
    pub mem: Arc<Obj<Mem>>,
    pub offset: usize,
    pub size: usize,
    pub usage: Usage,
    /// What the use is to the command, for reports: "argument 'out'",
    /// "destination"; empty when the command has one buffer.
    pub what: Arc<str>,
}

/// A use by a command that may not be complete, kept on the buffer that owns
/// the data store, in its offsets.
#[derive(Clone)]
pub struct RecordedUse {
    event: Weak<Obj<Event>>,
    start: usize,
    end: usize,
    usage: Usage,
    /// The command's API name and the use, described together for a
    /// report ("clEnqueueNDRangeKernel (kernel 'k', argument 'out')").
    name: &'static str,
    what: Arc<str>,
}

impl RecordedUse {
    /// Whether its command may still be pending (alive and not complete);
    /// the event looked at is pushed onto `held`, to be dropped later.
    pub fn pending(&self, held: &mut Vec<Arc<Obj<Event>>>) -> bool {
        match self.event.upgrade() {
            Some(e) => {
                let pending = !e.is_complete();
                held.push(e);
                pending
            }
            None => false,
        }
    }
}

/// A buffer's recorded uses (`Mem::with_uses`): the device's writes and the
/// host's reads and maps apart, each in enqueue order (a use conflicts
/// only with one of the other kind, so a stream of launches that write a
/// buffer looks at no list). Uses whose command is complete are dropped
/// when the lists have doubled since they were last swept (a use of a
/// complete command left in a list is passed over: its event says so).
#[derive(Default)]
pub struct Uses {
    writes: Vec<RecordedUse>,
    host: Vec<RecordedUse>,
    /// The lists' length after the last sweep.
    swept: usize,
}

impl Uses {
    /// Drop the uses of complete commands, when the lists have doubled.
    pub fn sweep(&mut self, held: &mut Vec<Arc<Obj<Event>>>) {
        if self.writes.len() + self.host.len() <= 2 * self.swept + 16 {
            return;
        }
        self.writes.retain(|u| u.pending(held));
        self.host.retain(|u| u.pending(held));
        self.swept = self.writes.len() + self.host.len();
    }

    fn push(&mut self, u: RecordedUse) {
        if u.usage.host() {
            self.host.push(u)
        } else {
            self.writes.push(u)
        }
    }

    /// The uses that conflict with `usage` of bytes `[start, end)`.
    fn conflicting(&self, usage: Usage, start: usize, end: usize) -> Vec<RecordedUse> {
        let list = if usage.host() {
            &self.writes
        } else if usage.writes() {
            &self.host
        } else {
            return Vec::new();
        };
        list.iter()
            .filter(|u| u.usage.conflicts(usage) && start < u.end && u.start < end)
            .cloned()
            .collect()
    }
}

/// The API function that enqueues a command of this type.
pub fn api_name(command_type: cl_command_type) -> &'static str {
    match command_type {
        CL_COMMAND_NDRANGE_KERNEL => "clEnqueueNDRangeKernel",
        CL_COMMAND_TASK => "clEnqueueTask",
        CL_COMMAND_READ_BUFFER => "clEnqueueReadBuffer",
        CL_COMMAND_WRITE_BUFFER => "clEnqueueWriteBuffer",
        CL_COMMAND_COPY_BUFFER => "clEnqueueCopyBuffer",
        CL_COMMAND_READ_BUFFER_RECT => "clEnqueueReadBufferRect",
        CL_COMMAND_WRITE_BUFFER_RECT => "clEnqueueWriteBufferRect",
        CL_COMMAND_COPY_BUFFER_RECT => "clEnqueueCopyBufferRect",
        CL_COMMAND_FILL_BUFFER => "clEnqueueFillBuffer",
        CL_COMMAND_MAP_BUFFER => "clEnqueueMapBuffer",
        CL_COMMAND_READ_IMAGE => "clEnqueueReadImage",
        CL_COMMAND_WRITE_IMAGE => "clEnqueueWriteImage",
        CL_COMMAND_COPY_IMAGE => "clEnqueueCopyImage",
        CL_COMMAND_COPY_IMAGE_TO_BUFFER => "clEnqueueCopyImageToBuffer",
        CL_COMMAND_COPY_BUFFER_TO_IMAGE => "clEnqueueCopyBufferToImage",
        CL_COMMAND_FILL_IMAGE => "clEnqueueFillImage",
        CL_COMMAND_MAP_IMAGE => "clEnqueueMapImage",
        CL_COMMAND_UNMAP_MEM_OBJECT => "clEnqueueUnmapMemObject",
        CL_COMMAND_MIGRATE_MEM_OBJECTS => "clEnqueueMigrateMemObjects",
        CL_COMMAND_MARKER => "clEnqueueMarkerWithWaitList",
        CL_COMMAND_BARRIER => "clEnqueueBarrierWithWaitList",
        CL_COMMAND_COMMAND_BUFFER_KHR => "clEnqueueCommandBufferKHR",
        _ => "a command",
    }
}

/// Whether a dependency holds its dependent back until the host acts: an
/// unset user event, or a command still queued that was held back so.
fn holds_back(dep: &Obj<Event>) -> bool {
    if dep.is_complete() {
        return false;
    }
    dep.is_user() || (dep.status() == CL_QUEUED && dep.host_gated())
}

/// Whether `e` will run with no further act of the host (or already does).
fn runs_unaided(e: &Obj<Event>) -> bool {
    e.status() < CL_QUEUED || !e.host_gated()
}

/// Whether `to` is reachable from `from` through the dependents' edges
/// (`to` waits, perhaps through others, for `from`).
fn reaches(from: &Arc<Obj<Event>>, to: &Arc<Obj<Event>>) -> bool {
    let mut seen = HashSet::new();
    let mut stack = vec![from.clone()];
    while let Some(e) = stack.pop() {
        for d in e.dependents() {
            if Arc::ptr_eq(&d, to) {
                return true;
            }
            if seen.insert(Arc::as_ptr(&d) as usize) {
                stack.push(d);
            }
        }
    }
    false
}

/// Describe `size` bytes at `offset` of `mem` ("4096 bytes at offset 0 of a
/// buffer of 4096 bytes").
fn describe_bytes(mem: &Mem, offset: usize, size: usize) -> String {
    if mem.image().is_some() && mem.parent().is_none() {
        return format!(
            "{size} bytes at offset {offset} of an image of {} bytes",
            mem.size()
        );
    }
    match mem.parent() {
        Some(p) => format!(
            "{size} bytes at offset {offset} of a sub-buffer ({} bytes at offset {} of a buffer of {} bytes)",
            mem.size(),
            mem.offset(),
            p.size()
        ),
        None => format!("{size} bytes at offset {offset} of a buffer of {} bytes", mem.size()),
    }
}

/// A command by its API name and one use ("clEnqueueCopyBuffer
/// (destination)").
fn describe_command(name: &str, what: &str) -> String {
    if what.is_empty() {
        name.to_string()
    } else {
        format!("{name} ({what})")
    }
}

fn verb(usage: Usage) -> &'static str {
    match usage {
        Usage::HostRead => "reads",
        Usage::HostMap => "maps",
        Usage::Read => "reads",
        Usage::Write => "may write",
    }
}

/// The reports for command `ev` (described by `name`) using `accesses`.
/// `started`: it is beginning execution (every dependency complete), not
/// being enqueued.
fn reports(ev: &Arc<Obj<Event>>, name: &str, accesses: &[Access], started: bool) -> Vec<String> {
    let mut out = Vec::new();
    for a in accesses {
        // Described only for a report.
        let this = || describe_command(name, &a.what);
        let bytes = || describe_bytes(&a.mem, a.offset, a.size);
        if a.usage != Usage::HostMap {
            if let Some((start, len, write)) =
                a.mem.conflicting_map(a.offset, a.size, a.usage.writes())
            {
                out.push(format!(
                    "error: {} {} {} while {len} bytes at offset {start} of {} are mapped for {} ({}, not unmapped yet)\n\
                     note: the spec makes a command that {} a mapped memory object undefined: enqueue clEnqueueUnmapMemObject before it, and make it wait for the unmap\n",
                    this(),
                    verb(a.usage),
                    bytes(),
                    match (a.mem.parent().is_some(), a.mem.image().is_some()) {
                        (true, _) => "its parent buffer",
                        (false, true) => "the image",
                        (false, false) => "the buffer",
                    },
                    if write { "writing" } else { "reading" },
                    if a.mem.image().is_some() && a.mem.parent().is_none() {
                        "clEnqueueMapImage"
                    } else {
                        "clEnqueueMapBuffer"
                    },
                    if write { "reads or writes" } else { "writes" },
                ));
            }
        }
        let start = a.mem.offset() + a.offset;
        let end = start + a.size;
        let uses = a.mem.with_uses(|u| u.conflicting(a.usage, start, end));
        for u in uses {
            let Some(other) = u.event.upgrade() else {
                continue;
            };
            if Arc::ptr_eq(&other, ev) || other.is_complete() || !runs_unaided(&other) {
                continue;
            }
            let ordered = if started {
                reaches(ev, &other)
            } else {
                reaches(&other, ev)
            };
            // Checked again after the walk: a command completing during it
            // has given up its edges.
            if ordered || other.is_complete() {
                continue;
            }
            out.push(format!(
                "error: {} {} {} while {} {} some of them, and nothing orders the two: that command is not complete, and {}\n\
                 note: order them: put one's event in the other's wait list, use one in-order queue for both, or wait for the first on the host (clWaitForEvents, clFinish) before enqueuing the second\n",
                this(),
                verb(a.usage),
                bytes(),
                describe_command(u.name, &u.what),
                verb(u.usage),
                if started {
                    "this one, held back by a user event until now, does not come before it"
                } else {
                    "this one does not wait for it"
                },
            ));
        }
    }
    out
}

/// A work that fails the command with the reports.
fn failing(name: &str, reports: Vec<String>) -> Work {
    let mut message = format!(
        "{name} failed checked mode ({} error{}):\n",
        reports.len(),
        if reports.len() == 1 { "" } else { "s" }
    );
    for r in &reports {
        message.push_str(r);
    }
    Work::call(move || {
        eprint!("cranecl: {message}");
        Err(ClError::new(CHECK_FAILED, message))
    })
}

/// Checked mode (`api`) for a command just linked to its dependencies
/// (`deps`: the wait list and what its queue's order added) and not yet
/// submitted: decide whether it runs unaided, then check it now or wrap its
/// work to check it when it begins execution, and record its uses.
pub fn enqueued(
    ev: &Arc<Obj<Event>>,
    command_type: cl_command_type,
    deps: &[Arc<Obj<Event>>],
    accesses: Vec<Access>,
) {
    let gated = deps.iter().any(|d| holds_back(d));
    ev.set_host_gated(gated);
    if accesses.is_empty() {
        return;
    }
    let name = api_name(command_type);
    if !gated {
        let found = reports(ev, name, &accesses, false);
        if !found.is_empty() {
            drop(ev.replace_work(failing(name, found)));
            return;
        }
    }
    record(ev, name, &accesses);
    if gated {
        let weak = Arc::downgrade(ev);
        ev.wrap_work(move |work| {
            Work::call(move || {
                let found = weak
                    .upgrade()
                    .map(|ev| reports(&ev, name, &accesses, true))
                    .unwrap_or_default();
                if found.is_empty() {
                    work.run()
                } else {
                    failing(name, found).run()
                }
            })
        });
    }
}

/// Record the uses that can conflict later (host reads and writes).
fn record(ev: &Arc<Obj<Event>>, name: &'static str, accesses: &[Access]) {
    for a in accesses.iter().filter(|a| a.usage != Usage::Read) {
        let start = a.mem.offset() + a.offset;
        let rec = RecordedUse {
            event: Arc::downgrade(ev),
            start,
            end: start + a.size,
            usage: a.usage,
            name,
            what: a.what.clone(),
        };
        a.mem.with_uses(|u| u.push(rec));
    }
}
