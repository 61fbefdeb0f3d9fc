//! References for the address-space kernels of the seeds: program-scope
//! globals (persisting, pointers between them, static), constant tables and
//! arguments, local variables and local pointer arguments, generic pointers
//! and `to_global` / `to_local` / `to_private`.

use super::{RefFn, Want};

const CLK_GLOBAL_MEM_FENCE: i32 = 2;
const CLK_LOCAL_MEM_FENCE: i32 = 1;

pub const REFS: &[(&str, RefFn)] = &[
    // 64 items add 1, then 64 add 2; `calls` starts at 10, bumped once per launch.
    ("persisted", |_| Want::ints([64 + 128, 12, 0, 0])),
    // Two launches of 256 work-items adding 1, then 2.
    ("program_scope_atomics", |_| {
        Want::ints([100 + 256 * 3, (1i64 << 40) - 256 * 3, 1, 1])
    }),
    // Each group's message, as written before its release store.
    ("message_passing", |_| {
        Want::ints((0..256).map(|g| g * 3 + 7))
    }),
    // total 100 -> 105 -> 112 -> 110; history 105, 112, 110.
    ("persisted_plain", |_| {
        Want::ints([110, 105 + 112 * 1000, 3])
    }),
    ("global_ptrs", |_| Want::ints([13, 3 + 2, 13, 2])),
    // Two launches: bat 5 -> 10 -> 20; implicit 3 -> 6; the static counter 101 -> 102.
    ("static_globals", |_| Want::ints([20, 6, 102])),
    ("shared_array", |_| {
        Want::ints((0..16).map(|g| (15 - g) * 3 + 1))
    }),
    ("constant_table", |i| {
        let msg = b"cranecl";
        Want::ints(
            i.u32("in")
                .iter()
                .map(|&v| v * v + msg[(v % 7) as usize] as u32),
        )
    }),
    ("poly3", |i| {
        let c = [0.5f32, -1.0, 2.0, 0.25];
        Want::f32s(
            i.f32("in")
                .iter()
                .map(|&x| ((c[3] * x + c[2]) * x + c[1]) * x + c[0]),
        )
    }),
    ("local_reverse64", |_| {
        Want::ints((0..512).map(|g| (g / 64) * 64 + 63 - g % 64 + 1000))
    }),
    ("local_reverse128", |_| {
        Want::ints((0..512).map(|g| ((g / 128) * 128 + 127 - g % 128) * 2 + 7))
    }),
    ("group_sums64", |i| {
        Want::ints(i.i32("in").chunks(64).map(|c| c.iter().sum::<i32>()))
    }),
    ("generic_calls", |i| {
        Want::ints(i.i32("in").iter().enumerate().flat_map(|(g, &v)| {
            let l = (g % 64) as i32;
            [v * 2 + 1, l * 2 + 2, g as i32 * 2 + 3]
        }))
    }),
    ("generic_choice", |i| {
        Want::ints(i.i32("in").iter().enumerate().map(|(g, &v)| {
            if g % 2 == 1 {
                v
            } else {
                1000 + (g % 32) as i32
            }
        }))
    }),
    ("to_space", |_| {
        let per = [
            1,
            1,
            CLK_GLOBAL_MEM_FENCE,
            2,
            1,
            CLK_LOCAL_MEM_FENCE,
            4,
            1,
            0,
        ];
        Want::ints((0..64).flat_map(|_| per))
    }),
    ("ptr_spaces", |_| {
        let offsets = [3, 1, 2, 0];
        let priv_ = [5, 6, 7, 8];
        Want::ints((0..256).map(|g: i32| {
            let l = g % 64;
            let lp = if l > 0 { (l - 1) * 10 } else { 0 };
            g + lp + priv_[offsets[(l % 4) as usize] as usize]
        }))
    }),
    ("global_struct", |_| Want::ints([6, 40, 9, 1, 42, 24])),
];
