//! The stress test, in-process: the `cranecl` rlib is linked into this test
//! and called through its own dispatch table, so that after every object is
//! released the ICD's count of live objects can be checked to be back where
//! it started. 8 threads, 2,000 rounds each: 10,000 commands per thread plus
//! barriers, 16,000 user events (see `cranecl_conformance::stress`).

use cranecl_conformance::{stress, Cl};
use std::time::{Duration, Instant};

#[test]
fn stress_in_process_leaves_no_live_object() {
    // SAFETY: the table is a static of the linked ICD, valid for the whole run.
    let t = Cl::from_dispatch(unsafe { &*cranecl::dispatch::table() });
    // The platform and device exist from the first query on: count after.
    let _ = t.device();
    let before = cranecl::core::handle::live_objects();
    let report = stress::run(&t, 8, 2000);
    println!("{report:?}");
    assert!(report.commands >= 80_000);
    // Worker threads may drop their last references just after the waits
    // return: allow them a moment.
    let deadline = Instant::now() + Duration::from_secs(5);
    let mut live = cranecl::core::handle::live_objects();
    while live != before && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
        live = cranecl::core::handle::live_objects();
    }
    assert_eq!(
        live, before,
        "live objects before the run {before}, after releasing everything {live}"
    );
}
