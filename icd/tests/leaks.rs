//! Objects released leave nothing behind: after contexts, queues, user events,
//! markers, barriers and failing commands are all released, the registry of
//! live objects is back where it started. (Its own test binary: the count is
//! process-wide.)

mod common;
use common::*;
use cranecl::core::handle::{live_objects, Obj};
use cranecl::core::queue::Queue;
use cranecl::error::ClError;
use std::time::{Duration, Instant};

#[test]
fn released_objects_are_freed() {
    device();
    let before = live_objects();
    for bits in [
        0,
        CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE,
    ] {
        let ctx = context();
        let (q1, q2) = (queue(ctx, bits), queue(ctx, 0));
        let gate = user_event(ctx);
        let mut events = vec![gate];
        for i in 0..200 {
            let q = if i % 2 == 0 { q1 } else { q2 };
            let prev = *events.last().unwrap();
            events.push(if i % 5 == 0 {
                barrier(q, &[prev])
            } else {
                marker(q, &[prev])
            });
            let queue = Obj::<Queue>::get(q).unwrap();
            let mut e = ptr::null_mut();
            let fail = i == 150;
            cranecl::exec::enqueue(
                &queue,
                CL_COMMAND_USER,
                1,
                &prev,
                &mut e,
                false,
                cranecl::exec::Work::call(move || {
                    if fail {
                        Err(ClError::new(CL_OUT_OF_RESOURCES, "planned failure"))
                    } else {
                        Ok(())
                    }
                }),
            )
            .unwrap();
            events.push(e);
        }
        // Commands still pending when the user lets go of everything but the gate.
        release_queue(q1);
        release_queue(q2);
        release_context(ctx);
        for &e in &events[1..] {
            release_event(e);
        }
        set_status(gate, CL_COMPLETE);
        release_event(gate);
    }
    // The last references may be dropped by a worker just after completion.
    let start = Instant::now();
    while live_objects() != before && start.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(1));
    }
    assert_eq!(live_objects(), before);
}
