//! What a buffer's allocation costs, heap against a guarded mapping: the
//! time to create and free one (touching its first byte, as a buffer that is
//! used does) and the resident memory of many live ones. The figures behind
//! `global::GUARD_THRESHOLD`.
//!
//! ```text
//! cargo run --release -p cranecl-memory --example alloc_cost
//! ```

use cranecl_memory::global::guard_size;
use cranecl_memory::Allocation;
use std::time::Instant;

/// Resident set size of this process in KiB (from /proc).
fn rss_kib() -> usize {
    let s = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    s.lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

fn measure(name: &str, size: usize, make: &dyn Fn() -> Option<Allocation>) {
    let rounds = 20_000;
    let start = Instant::now();
    for _ in 0..rounds {
        let a = make().expect("allocation");
        // SAFETY: the first byte is inside the allocation.
        unsafe { a.as_ptr().write_volatile(1) };
    }
    let per = start.elapsed().as_secs_f64() * 1e6 / rounds as f64;
    let live = 2_000;
    let before = rss_kib();
    let keep: Vec<Allocation> = (0..live)
        .map(|_| {
            let a = make().expect("allocation");
            // SAFETY: as above.
            unsafe { a.as_ptr().write_volatile(1) };
            a
        })
        .collect();
    let per_kib = (rss_kib().saturating_sub(before)) as f64 / live as f64;
    drop(keep);
    println!("{name:8} {size:>7} B: {per:8.3} us create+free, {per_kib:7.2} KiB resident each");
}

fn main() {
    for size in [64, 4096, 16 << 10, 64 << 10, 256 << 10, 1 << 20] {
        measure("calloc", size, &|| Allocation::zeroed(size, 128));
        measure("guarded", size, &|| {
            Allocation::guarded(size, 128, guard_size(size))
        });
    }
}
