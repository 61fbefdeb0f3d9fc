//! Schedule fuzzing (`CRANECL_SCHEDULE`): running the work-groups of a
//! launch, and the work-items of a group between two barriers, in an order
//! the spec does not promise, so that a kernel that depends on the usual
//! order (a missing barrier, a race between groups, a read of a
//! neighbour's result) shows it.
//!
//! Values: `off` (or unset: nothing changes, not even the generated code),
//! `shuffle[:SEED]` (a seeded pseudo-random order; with no seed, one taken
//! from the clock, once per process), `reverse` (last first), `interleave`
//! (alternately from both ends: 0, n-1, 1, n-2, 2, ...). The variable is
//! read when a context is created; the context prints
//! `cranecl: CRANECL_SCHEDULE=shuffle:SEED` (or the order's name) on stderr
//! once, and the same value gives the same orders again (launches are
//! numbered per context in the order they are enqueued).
//!
//! How the orders are applied:
//! - **Groups** (`icd/src/exec/ndrange.rs`): a scheduled launch runs its
//!   groups one after another on one thread, the k-th being
//!   [`Permutation::at`]`(k)` of the launch's linear group ids.
//! - **Work-items, loop and region strategies**: programs built in a
//!   scheduled context get one more call at the start of every loop over
//!   the work-items (each barrier-free piece of a region kernel is one such
//!   loop): [`cranecl_schedule_units`] returns a table of *units* in the
//!   order to run them, which the loop walks (`unit = table[k]`) instead of
//!   counting x, y and z. A unit is one work-item, or under the lanes a
//!   step (the same blocks of consecutive x the unscheduled loop runs, so
//!   the lanes' affine ids and vector accesses stay valid) or one item of
//!   a row's tail. Where the lanes of a step run one
//!   after another, their order is drawn at build time, per place in the
//!   code (`codegen/schedule.rs`, `lane_order`). Each call (each
//!   interval between barriers, each piece) draws a new order from the
//!   seed, the launch, the group and the call's number in the group.
//! - **Coroutines** (`runtime::run_coroutines`): the items are resumed in
//!   a new order each round (a round runs every item to its next barrier).
//!
//! A table entry holds the unit's x, y and z (21 bits each, [`unit`]) and
//! a `step` bit, 1 for a step of lanes starting there. The table lives
//! in a thread-local vector reused by the next call (a group's loops run
//! one at a time) and is shuffled in place (Fisher-Yates, SplitMix64). The
//! groups' order is computed, not stored: a 4-round Feistel network over
//! the next even power of two keyed by a hash of the inputs, walked until
//! it lands inside `[0, n)` (a bijection of `[0, n)` in O(1) memory, so a
//! launch of millions of groups needs no table).

use super::ItemState;
use std::cell::{Cell, RefCell};

/// The orders `CRANECL_SCHEDULE` offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Seeded pseudo-random.
    Shuffle(u64),
    /// Last first.
    Reverse,
    /// Alternately from both ends: 0, n-1, 1, n-2, ...
    Interleave,
}

/// A context's schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Schedule {
    pub order: Order,
}

impl Schedule {
    /// Parse a `CRANECL_SCHEDULE` value: `Ok(None)` for `off` or empty;
    /// `shuffle` without a seed takes one from the clock.
    pub fn parse(s: &str) -> Result<Option<Schedule>, String> {
        let s = s.trim();
        let order = match s.split_once(':') {
            Some(("shuffle", seed)) => Order::Shuffle(
                seed.trim()
                    .parse()
                    .map_err(|_| format!("bad seed '{seed}' in '{s}' (a decimal number)"))?,
            ),
            _ => match s {
                "" | "off" | "0" => return Ok(None),
                "shuffle" => Order::Shuffle(clock_seed()),
                "reverse" => Order::Reverse,
                "interleave" => Order::Interleave,
                other => {
                    return Err(format!(
                    "unknown schedule '{other}' (known: off, shuffle[:SEED], reverse, interleave)"
                ))
                }
            },
        };
        Ok(Some(Schedule { order }))
    }

    /// The schedule `CRANECL_SCHEDULE` asks for; an unknown value is
    /// reported on stderr (once) and ignored.
    pub fn from_env() -> Option<Schedule> {
        let v = std::env::var("CRANECL_SCHEDULE").ok()?;
        Schedule::parse(&v).unwrap_or_else(|e| {
            static ONCE: std::sync::Once = std::sync::Once::new();
            ONCE.call_once(|| eprintln!("cranecl: CRANECL_SCHEDULE: {e}; ignored"));
            None
        })
    }

    /// The value that reproduces this schedule (`shuffle:SEED`, `reverse`,
    /// `interleave`): what a context prints.
    pub fn value(&self) -> String {
        match self.order {
            Order::Shuffle(seed) => format!("shuffle:{seed}"),
            Order::Reverse => "reverse".into(),
            Order::Interleave => "interleave".into(),
        }
    }

    /// The order of `n` things, keyed (for `shuffle`) by `key`.
    pub fn permutation(&self, n: u64, key: &[u64]) -> Permutation {
        let seed = match self.order {
            Order::Shuffle(seed) => key.iter().fold(mix(seed), |h, k| mix(h ^ mix(*k))),
            _ => 0,
        };
        Permutation::new(self.order, n, seed)
    }
}

/// A seed from the clock (nanoseconds, mixed), below 2^53 so that it reads
/// well and survives a trip through a double; one per process, so that
/// every context of a run shares it and the printed value repeats the run.
fn clock_seed() -> u64 {
    static SEED: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *SEED.get_or_init(|| {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        mix(t ^ u64::from(std::process::id())) >> 11
    })
}

/// SplitMix64's finaliser: a good 64-bit hash.
fn mix(z: u64) -> u64 {
    let z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    let z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A bijection of `[0, n)`.
#[derive(Clone, Copy, Debug)]
pub struct Permutation {
    order: Order,
    n: u64,
    key: u64,
    /// Feistel halves of `half` bits each (shuffle).
    half: u32,
}

const ROUNDS: u64 = 4;

impl Permutation {
    fn new(order: Order, n: u64, key: u64) -> Permutation {
        let bits = 64 - n.saturating_sub(1).leading_zeros();
        Permutation {
            order,
            n,
            key,
            half: bits.div_ceil(2).max(1),
        }
    }

    /// The `k`-th thing to run (`k < n`).
    pub fn at(&self, k: u64) -> u64 {
        let n = self.n;
        match self.order {
            Order::Reverse => n - 1 - k,
            Order::Interleave if k.is_multiple_of(2) => k / 2,
            Order::Interleave => n - 1 - k / 2,
            Order::Shuffle(_) => {
                // Cycle walking: the Feistel permutation of the larger
                // domain, applied again until it lands in range.
                let mut x = k;
                loop {
                    x = self.feistel(x);
                    if x < n {
                        return x;
                    }
                }
            }
        }
    }

    fn feistel(&self, x: u64) -> u64 {
        let mask = (1u64 << self.half) - 1;
        let (mut l, mut r) = (x >> self.half, x & mask);
        for round in 0..ROUNDS {
            let f = mix(r ^ mix(self.key.wrapping_add(round))) & mask;
            (l, r) = (r, l ^ f);
        }
        (l << self.half) | r
    }
}

/// One group's part of a scheduled launch: what keys its orders. Generated
/// code reaches it through `GroupState::schedule`.
#[derive(Debug)]
pub struct GroupOrder {
    pub schedule: Schedule,
    /// The launch's number in its context.
    pub launch: u64,
    /// The group's linear id.
    pub group: u64,
    /// Orders drawn so far by this group (one per work-item loop or round).
    drawn: Cell<u64>,
}

impl GroupOrder {
    pub fn new(schedule: Schedule, launch: u64, group: u64) -> GroupOrder {
        GroupOrder {
            schedule,
            launch,
            group,
            drawn: Cell::new(0),
        }
    }

    /// Put the next interval's units in its order.
    pub fn order(&self, units: &mut [u64]) {
        let i = self.drawn.get();
        self.drawn.set(i + 1);
        order_in_place(self.schedule, &[self.launch, self.group, i], units);
    }
}

/// The order of a launch's `n` groups.
pub fn group_order(schedule: Schedule, launch: u64, n: u64) -> Permutation {
    schedule.permutation(n, &[launch, u64::MAX])
}

/// Bits of each local id in a table entry (a group holds at most
/// `codegen::MAX_WORK_GROUP_SIZE`, 1024, work-items).
pub const ID_BITS: u32 = 21;

/// A table entry: a unit's local ids and whether it is a step of lanes.
pub fn unit(x: u64, y: u64, z: u64, step: bool) -> u64 {
    u64::from(step) | x << 1 | y << (1 + ID_BITS) | z << (1 + 2 * ID_BITS)
}

/// Put `units` in the order of `schedule`, keyed (for `shuffle`) by `key`:
/// Fisher-Yates with SplitMix64 for `shuffle` (a few nanoseconds a unit;
/// [`Permutation`] is for the groups, which are not stored).
pub fn order_in_place(schedule: Schedule, key: &[u64], units: &mut [u64]) {
    let n = units.len();
    match schedule.order {
        Order::Shuffle(seed) => {
            let mut state = key.iter().fold(mix(seed), |h, k| mix(h ^ mix(*k)));
            for i in (1..n).rev() {
                state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let r = mix(state);
                // A draw in [0, i]: the high half of r * (i + 1).
                let j = ((u128::from(r) * (i as u128 + 1)) >> 64) as usize;
                units.swap(i, j);
            }
        }
        Order::Reverse => units.reverse(),
        Order::Interleave => {
            let p = Permutation::new(Order::Interleave, n as u64, 0);
            let from: Vec<u64> = units.to_vec();
            for (k, u) in units.iter_mut().enumerate() {
                *u = from[p.at(k as u64) as usize];
            }
        }
    }
}

thread_local! {
    static TABLE: RefCell<Vec<u64>> = const { RefCell::new(Vec::new()) };
}

/// Called by generated code (programs built with a schedule) before each
/// loop over the group's work-items: returns the address of a table whose
/// entry 0 is the number of units and entries 1.. the units in the order to
/// run them ([`unit`]: `step | x << 1 | y << 22 | z << 43`; `lanes`
/// nonzero: rows in steps of that many work-items while that many remain). Without a schedule
/// for the group (a run outside a scheduled launch) the units come in the
/// usual order. The table stays valid until the next call on this thread.
///
/// # Safety
/// `item` is the `ItemState` generated code was given.
pub unsafe extern "C" fn cranecl_schedule_units(item: *mut ItemState, lanes: u64) -> *const u64 {
    // SAFETY: generated code passes its item, whose group outlives the call;
    // `schedule` is 0 or a `GroupOrder` that lives as long as the group runs.
    let (group, order) = unsafe {
        let g = &*(*item).group;
        (g, (g.schedule as *const GroupOrder).as_ref())
    };
    let [lx, ly, lz] = [
        group.local_size[0],
        group.local_size[1],
        group.local_size[2],
    ];
    TABLE.with(|t| {
        let mut t = t.borrow_mut();
        t.clear();
        t.push(0);
        for z in 0..lz {
            for y in 0..ly {
                let mut x = 0;
                if lanes != 0 {
                    while x + lanes <= lx {
                        t.push(unit(x, y, z, true));
                        x += lanes;
                    }
                }
                for x in x..lx {
                    t.push(unit(x, y, z, false));
                }
            }
        }
        t[0] = t.len() as u64 - 1;
        if let Some(order) = order {
            order.order(&mut t[1..]);
        }
        t.as_ptr()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(p: &Permutation, n: u64) -> Vec<u64> {
        (0..n).map(|k| p.at(k)).collect()
    }

    #[test]
    fn every_order_is_a_permutation() {
        for order in [Order::Shuffle(7), Order::Reverse, Order::Interleave] {
            let s = Schedule { order };
            for n in [1u64, 2, 3, 4, 5, 16, 17, 100, 1000] {
                let mut v = all(&s.permutation(n, &[1, 2]), n);
                v.sort_unstable();
                assert_eq!(v, (0..n).collect::<Vec<_>>(), "{order:?} of {n}");
            }
        }
    }

    #[test]
    fn orders_as_documented() {
        let r = Schedule::parse("reverse").unwrap().unwrap();
        assert_eq!(all(&r.permutation(4, &[]), 4), [3, 2, 1, 0]);
        let i = Schedule::parse("interleave").unwrap().unwrap();
        assert_eq!(all(&i.permutation(5, &[]), 5), [0, 4, 1, 3, 2]);
    }

    #[test]
    fn shuffles_depend_on_seed_and_key_only() {
        let a = Schedule::parse("shuffle:1").unwrap().unwrap();
        let b = Schedule::parse("shuffle:2").unwrap().unwrap();
        let n = 64;
        assert_eq!(
            all(&a.permutation(n, &[3]), n),
            all(&a.permutation(n, &[3]), n)
        );
        assert_ne!(
            all(&a.permutation(n, &[3]), n),
            all(&b.permutation(n, &[3]), n)
        );
        assert_ne!(
            all(&a.permutation(n, &[3]), n),
            all(&a.permutation(n, &[4]), n)
        );
        assert_ne!(all(&a.permutation(n, &[3]), n), (0..n).collect::<Vec<_>>());
    }

    #[test]
    fn tables_are_put_in_order() {
        let sorted: Vec<u64> = (0..50).collect();
        for order in [Order::Shuffle(7), Order::Reverse, Order::Interleave] {
            let s = Schedule { order };
            let mut v = sorted.clone();
            order_in_place(s, &[1], &mut v);
            let mut w = sorted.clone();
            order_in_place(s, &[1], &mut w);
            assert_eq!(v, w, "{order:?}: the same key, the same order");
            assert_ne!(v, sorted, "{order:?}");
            v.sort_unstable();
            assert_eq!(v, sorted, "{order:?}: a permutation");
        }
        let s = Schedule::parse("interleave").unwrap().unwrap();
        let mut v = vec![10, 11, 12, 13, 14];
        order_in_place(s, &[], &mut v);
        assert_eq!(v, [10, 14, 11, 13, 12]);
        let mut a = sorted.clone();
        let mut b = sorted.clone();
        order_in_place(Schedule::parse("shuffle:1").unwrap().unwrap(), &[2], &mut a);
        order_in_place(Schedule::parse("shuffle:1").unwrap().unwrap(), &[3], &mut b);
        assert_ne!(a, b, "another key, another order");
    }

    #[test]
    fn values_parse_and_print() {
        assert_eq!(Schedule::parse("off"), Ok(None));
        assert_eq!(Schedule::parse(""), Ok(None));
        let s = Schedule::parse("shuffle:1234").unwrap().unwrap();
        assert_eq!(s.value(), "shuffle:1234");
        assert!(matches!(
            Schedule::parse("shuffle").unwrap().unwrap().order,
            Order::Shuffle(_)
        ));
        assert!(Schedule::parse("sideways").is_err());
        assert!(Schedule::parse("shuffle:x").is_err());
    }
}
