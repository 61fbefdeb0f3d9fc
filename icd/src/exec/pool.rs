//! The device's command workers: a few threads that run ready commands the
//! thread that made them ready should not run itself.
//!
//! Started lazily: the first command handed off spawns the first worker; a
//! hand-off that finds more queued commands than idle workers spawns another,
//! up to the limit (`CRANECL_COMMAND_THREADS`, default: the compute units, at
//! least 2). A worker that runs out of commands watches the queue for
//! `SPIN` before it sleeps on a condition variable: a program enqueueing
//! launch after launch then hands each to a worker that is awake (a
//! sleeping worker's wake-up costs microseconds). Nothing polls longer. A
//! queued command may also be claimed by a host thread blocked on it (see
//! `Event::wait`); the worker that pops it later finds it claimed and skips it.
//! A worker that finishes a command runs one of the commands it made ready
//! itself, next, rather than queueing it.

use super::{run, schedule};
use crate::core::event::Disposition;
use crate::core::event::Event;
use crate::core::handle::Obj;
use parking_lot::{Condvar, Mutex};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// How long an idle worker watches the queue before sleeping (measured on
/// 16 cores: 10,000 tiny launches then one `clFinish` went from 3.2 us per
/// launch, a futex wake-up each, to the cost of the enqueue itself).
const SPIN: Duration = Duration::from_micros(50);

struct Pool {
    state: Mutex<State>,
    /// Commands in `state.queue` (read without the lock by spinning workers).
    queued: AtomicUsize,
    work_available: Condvar,
    max_threads: usize,
}

struct State {
    queue: VecDeque<Arc<Obj<Event>>>,
    threads: usize,
    idle: usize,
}

fn pool() -> &'static Pool {
    static POOL: OnceLock<Pool> = OnceLock::new();
    POOL.get_or_init(|| Pool {
        state: Mutex::new(State {
            queue: VecDeque::new(),
            threads: 0,
            idle: 0,
        }),
        queued: AtomicUsize::new(0),
        work_available: Condvar::new(),
        max_threads: max_threads(),
    })
}

fn max_threads() -> usize {
    std::env::var("CRANECL_COMMAND_THREADS")
        .ok()
        .and_then(|s| s.trim().parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or_else(|| (crate::core::device::compute_units() as usize).max(2))
}

/// Hand a ready command to a worker.
pub fn submit(ev: Arc<Obj<Event>>) {
    let p = pool();
    let mut st = p.state.lock();
    st.queue.push_back(ev);
    p.queued.fetch_add(1, Ordering::Release);
    if st.idle > 0 {
        p.work_available.notify_one();
    }
    if st.queue.len() > st.idle && st.threads < p.max_threads {
        let spawned = std::thread::Builder::new()
            .name("cranecl-cmd".into())
            .spawn(worker);
        // If the OS refuses a thread, the workers we have (or a blocked
        // caller) still run the command; with none at all, run it here.
        if spawned.is_ok() {
            st.threads += 1;
        } else if st.threads == 0 {
            let ev = st.queue.pop_back();
            if ev.is_some() {
                p.queued.fetch_sub(1, Ordering::Relaxed);
            }
            drop(st);
            if let Some(ev) = ev {
                let mut ready = Vec::new();
                run(&ev, &mut ready);
                schedule(ready);
            }
        }
    }
}

fn worker() {
    let p = pool();
    let mut next: Option<Arc<Obj<Event>>> = None;
    // The commands each run makes ready, one list kept for the worker's
    // life (no allocation per command).
    let mut ready = Vec::new();
    loop {
        let ev = match next.take() {
            Some(ev) => ev,
            None => {
                let mut st = p.state.lock();
                let mut spun = false;
                loop {
                    if let Some(ev) = st.queue.pop_front() {
                        p.queued.fetch_sub(1, Ordering::Relaxed);
                        break ev;
                    }
                    if !spun {
                        spun = true;
                        drop(st);
                        watch_queue(p);
                        st = p.state.lock();
                        continue;
                    }
                    st.idle += 1;
                    p.work_available.wait(&mut st);
                    st.idle -= 1;
                }
            }
        };
        run(&ev, &mut ready);
        drop(ev);
        next = dispose_keeping_one(&mut ready);
    }
}

/// Spin until a command is queued or [`SPIN`] has passed.
fn watch_queue(p: &Pool) {
    let start = Instant::now();
    loop {
        for _ in 0..64 {
            if p.queued.load(Ordering::Acquire) > 0 {
                return;
            }
            std::hint::spin_loop();
        }
        if start.elapsed() >= SPIN {
            return;
        }
    }
}

/// `schedule` for a worker that just finished a command: of the commands it
/// made ready that need a worker, keep one to run next on this thread (an
/// in-order chain then stays on one thread, with no hand-off per command).
fn dispose_keeping_one(ready: &mut Vec<Arc<Obj<Event>>>) -> Option<Arc<Obj<Event>>> {
    let mut keep = None;
    while let Some(ev) = ready.pop() {
        match Event::mark_ready(&ev) {
            Disposition::Inline => run(&ev, ready),
            Disposition::Waiter => {}
            Disposition::Pool if keep.is_none() => keep = Some(ev),
            Disposition::Pool => submit(ev),
        }
    }
    keep
}
