//! The stress workload through the system's loader (libOpenCL.so.1 with
//! only cranecl visible): the same 8 threads x 2,000 rounds (10,000 commands each) as the in-process
//! test, checking every value (the in-process test also counts objects).

use cranecl_conformance::{cl, stress};

#[test]
fn stress_through_the_loader() {
    let report = stress::run(cl(), 8, 2000);
    println!("{report:?}");
    assert!(report.commands >= 80_000);
}
