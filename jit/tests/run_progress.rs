//! Independent forward progress (`lower/progress.rs`,
//! `runtime::cranecl_progress`): a work-item that waits in a loop for a
//! later one of its group — through a local atomic, a volatile global, a
//! lock taken with `atomic_cmpxchg` or a backward `goto` — lets it run, so
//! the kernel finishes with the values the waits order; kernels whose
//! atomics' results decide no loop keep their faster strategies.

mod run_common;
use run_common::*;
use std::sync::mpsc;
use std::time::Duration;

/// Run `kernel` of `src` over one dimension on another thread; `None` if it
/// has not finished after a minute (a work-item waiting for ever). The
/// buffers are `(len, initial value)` of `i32`s; they come back.
fn run_or_hang(
    src: &'static str,
    kernel: &'static str,
    bufs: Vec<Vec<i32>>,
    global: u64,
    local: u64,
) -> Option<Vec<Vec<i32>>> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let p = build_with(src, "-cl-std=CL2.0");
        assert_eq!(p.strategy(0), "coroutines", "{kernel}");
        let mut bufs = bufs;
        let mut args: Vec<_> = bufs.iter_mut().map(|b| buf(b)).collect();
        run(&p, kernel, &mut args, &[global], &[local]);
        drop(args);
        let _ = tx.send(bufs);
    });
    rx.recv_timeout(Duration::from_secs(60)).ok()
}

/// Run kernel `relay(turn, order)` of `src` over `n` work-items in groups
/// of `local`, each group's counter `turn[g]` from 0: the work-items must
/// take their turns last first, each writing the count it found, and
/// leave every counter at `local`.
fn relayed(src: &'static str, n: usize, local: usize) {
    let out = run_or_hang(
        src,
        "relay",
        vec![vec![0; n / local], vec![-1; n]],
        n as u64,
        local as u64,
    )
    .expect("a work-item waited for ever: the one it waited for never ran");
    assert_eq!(out[0], vec![local as i32; n / local]);
    let want: Vec<i32> = (0..n).map(|i| (local - 1 - i % local) as i32).collect();
    assert_eq!(out[1], want);
}

#[test]
fn work_items_wait_for_later_ones_through_a_local_atomic() {
    // Each work-item waits for its turn, and the last one goes first: run
    // in order without letting the others run, work-item 0 waits for ever.
    const SRC: &str = "
        kernel void relay(global int *order) {
            local atomic_int turn;
            int l = get_local_id(0), n = get_local_size(0);
            if (l == 0)
                atomic_init(&turn, 0);
            barrier(CLK_LOCAL_MEM_FENCE);
            while (atomic_load(&turn) != n - 1 - l)
                ;
            order[get_global_id(0)] = atomic_fetch_add(&turn, 1);
        }";
    let (n, local) = (256usize, 64usize);
    let out = run_or_hang(SRC, "relay", vec![vec![-1; n]], n as u64, local as u64)
        .expect("a work-item waited for ever: the one it waited for never ran");
    let want: Vec<i32> = (0..n).map(|i| (local - 1 - i % local) as i32).collect();
    assert_eq!(out[0], want);
}

#[test]
fn work_items_wait_through_a_volatile_global_without_a_barrier() {
    // OpenCL 1.x style, no barrier and no atomic: each group's counter in
    // global memory, read through a volatile pointer.
    const SRC: &str = "
        kernel void relay(volatile global int *turn, global int *order) {
            int l = get_local_id(0), n = get_local_size(0), g = get_group_id(0);
            while (turn[g] != n - 1 - l)
                ;
            order[get_global_id(0)] = turn[g];
            turn[g] = turn[g] + 1;
        }";
    relayed(SRC, 96, 32);
}

#[test]
fn a_lock_held_by_a_waiting_work_item_is_released() {
    // Work-item 0 takes the lock and then waits for the last one, which
    // needs the lock to say it has come: a spin lock through
    // `atomic_cmpxchg` (whose result decides the loop) and a wait written
    // with a backward `goto`.
    const SRC: &str = "
        kernel void locked(global int *lock, global int *arrived, global int *sum) {
            int l = get_local_id(0), n = get_local_size(0);
            if (l == 0) {
                while (atomic_cmpxchg(lock, 0, 1) != 0)
                    ;
            again:
                if (atomic_add(arrived, 0) < n - 1)
                    goto again;
                sum[0] += 1000;
                atomic_xchg(lock, 0);
            } else {
                atomic_inc(arrived);
                while (atomic_cmpxchg(lock, 0, 1) != 0)
                    ;
                sum[0] += l;
                atomic_xchg(lock, 0);
            }
        }";
    let n = 16usize;
    let out = run_or_hang(
        SRC,
        "locked",
        vec![vec![0], vec![0], vec![0]],
        n as u64,
        n as u64,
    )
    .expect("a work-item waited for ever: the one it waited for never ran");
    assert_eq!(out[0], vec![0], "the lock is free at the end");
    assert_eq!(out[1], vec![n as i32 - 1]);
    assert_eq!(out[2], vec![1000 + (1..n as i32).sum::<i32>()]);
}

#[test]
fn atomics_that_decide_no_loop_keep_the_faster_strategies() {
    // A histogram counts with atomics whose results it drops, a kernel
    // that uses an atomic's result outside any loop waits for no one, and
    // loops that retry a compare-and-exchange with an expectation read
    // afresh each pass (a float added atomically, in OpenCL 1.x and C11
    // forms) repeat only when another work-item's exchange succeeded.
    let p = build_with(
        "kernel void histogram(global const uchar *in, global int *bins, int n) {
            for (int i = get_global_id(0); i < n; i += get_global_size(0))
                atomic_inc(&bins[in[i]]);
        }
        kernel void first(global int *count, global int *firsts) {
            if (atomic_inc(count) == 0)
                firsts[0] = get_global_id(0);
        }
        kernel void append(global const int *x, global int *count, global int *list, int n) {
            for (int i = get_global_id(0); i < n; i += get_global_size(0))
                if (x[i] > 0) {
                    int at = atomic_inc(count);
                    list[at] = x[i];
                }
        }
        void add_float(volatile global float *p, float v) {
            union { float f; uint u; } old, sum;
            do {
                old.f = *p;
                sum.f = old.f + v;
            } while (atomic_cmpxchg((volatile global uint *)p, old.u, sum.u) != old.u);
        }
        kernel void scatter(global const float *x, global const uchar *to, global float *bins) {
            size_t i = get_global_id(0);
            add_float(&bins[to[i]], x[i]);
        }
        kernel void scatter_c11(global const float *x, global const uchar *to,
                                global atomic_uint *bins) {
            size_t i = get_global_id(0);
            global atomic_uint *p = &bins[to[i]];
            uint old = atomic_load(p);
            while (!atomic_compare_exchange_weak(p, &old, as_uint(as_float(old) + x[i])))
                ;
        }",
        "-cl-std=CL2.0",
    );
    for k in ["histogram", "first", "append", "scatter", "scatter_c11"] {
        let i = p.kernel_index(k).expect("kernel");
        assert_ne!(p.strategy(i), "coroutines", "{k}");
    }
    let n = 4096usize;
    let mut input: Vec<u8> = (0..n as u32).map(|i| (i * 7 % 251) as u8).collect();
    let mut bins = vec![0i32; 256];
    run(
        &p,
        "histogram",
        &mut [buf(&mut input), buf(&mut bins), val(n as i32)],
        &[256],
        &[64],
    );
    let mut want = vec![0i32; 256];
    input.iter().for_each(|&b| want[b as usize] += 1);
    assert_eq!(bins, want);
    let mut x: Vec<i32> = (0..n as i32)
        .map(|i| if i % 3 == 0 { i } else { -i })
        .collect();
    let (mut count, mut list) = (vec![0i32], vec![0i32; n]);
    run(
        &p,
        "append",
        &mut [buf(&mut x), buf(&mut count), buf(&mut list), val(n as i32)],
        &[256],
        &[64],
    );
    let mut got = list[..count[0] as usize].to_vec();
    got.sort_unstable();
    let want: Vec<i32> = x.iter().copied().filter(|&v| v > 0).collect();
    assert_eq!(got, want);
    // Small integers: every order of the sums gives the same floats.
    let mut x: Vec<f32> = (0..n).map(|i| (i % 5) as f32).collect();
    let mut want = vec![0f32; 256];
    input
        .iter()
        .zip(&x)
        .for_each(|(&b, &v)| want[b as usize] += v);
    for k in ["scatter", "scatter_c11"] {
        let mut sums = vec![0f32; 256];
        run(
            &p,
            k,
            &mut [buf(&mut x), buf(&mut input), buf(&mut sums)],
            &[n as u64],
            &[64],
        );
        assert_eq!(sums, want, "{k}");
    }
}

#[test]
fn a_lock_that_expects_a_constant_waits() {
    // The same compare-and-exchange expecting a constant, or re-armed
    // with one in the body, is a spin lock: it may wait.
    let p = build_with(
        "kernel void lock12(global int *lock, global int *n) {
            while (atomic_cmpxchg(lock, 0, 1) != 0)
                ;
            n[0]++;
            atomic_xchg(lock, 0);
        }
        kernel void lock20(global atomic_int *lock, global int *n) {
            int unlocked = 0;
            while (!atomic_compare_exchange_strong(lock, &unlocked, 1))
                unlocked = 0;
            n[0]++;
            atomic_store(lock, 0);
        }",
        "-cl-std=CL2.0",
    );
    for k in ["lock12", "lock20"] {
        let i = p.kernel_index(k).expect("kernel");
        assert_eq!(p.strategy(i), "coroutines", "{k}");
        let (mut lock, mut count) = (vec![0i32], vec![0i32]);
        run(&p, k, &mut [buf(&mut lock), buf(&mut count)], &[64], &[16]);
        assert_eq!((lock[0], count[0]), (0, 64), "{k}");
    }
}

#[test]
fn a_wait_decided_through_a_variable_or_a_break_lets_the_others_run() {
    // The loops' conditions read no atomic: a flag variable set under an
    // atomic's test, a `break` taken under one, a count decremented in the
    // condition and set again under one, or a variable a called function
    // (not inlined: it returns early, and is called twice) writes what it
    // read into, a private array element that holds what it read, or a
    // variable written through a pointer to it, decides each.
    const FLAG: &str = "
        kernel void relay(global int *turn, global int *order) {
            int l = get_local_id(0), n = get_local_size(0), g = get_group_id(0);
            int mine = 0;
            while (!mine) {
                if (atomic_add(&turn[g], 0) == n - 1 - l)
                    mine = 1;
            }
            order[get_global_id(0)] = atomic_inc(&turn[g]);
        }";
    const BREAK: &str = "
        kernel void relay(global int *turn, global int *order) {
            int l = get_local_id(0), n = get_local_size(0), g = get_group_id(0);
            for (;;) {
                if (atomic_add(&turn[g], 0) == n - 1 - l)
                    break;
            }
            order[get_global_id(0)] = atomic_inc(&turn[g]);
        }";
    const COUNT: &str = "
        kernel void relay(global int *turn, global int *order) {
            int l = get_local_id(0), n = get_local_size(0), g = get_group_id(0);
            int again = 1;
            while (again--) {
                if (atomic_add(&turn[g], 0) != n - 1 - l)
                    again = 1;
            }
            order[get_global_id(0)] = atomic_inc(&turn[g]);
        }";
    const OUT_PARAMETER: &str = "
        void turn_of(global int *turn, int *now) {
            if (!turn)
                return;
            *now = atomic_add(turn, 0);
        }
        kernel void relay(global int *turn, global int *order) {
            int l = get_local_id(0), n = get_local_size(0), g = get_group_id(0);
            int now;
            turn_of(&turn[g], &now);
            while (now != n - 1 - l)
                turn_of(&turn[g], &now);
            order[get_global_id(0)] = atomic_inc(&turn[g]);
        }";
    const ARRAY: &str = "
        kernel void relay(global int *turn, global int *order) {
            int l = get_local_id(0), n = get_local_size(0), g = get_group_id(0);
            int seen[2];
            do {
                seen[l & 1] = atomic_add(&turn[g], 0);
            } while (seen[l & 1] != n - 1 - l);
            order[get_global_id(0)] = atomic_inc(&turn[g]);
        }";
    const POINTER: &str = "
        kernel void relay(global int *turn, global int *order) {
            int l = get_local_id(0), n = get_local_size(0), g = get_group_id(0);
            int now = -1;
            int *at = &now;
            while (now != n - 1 - l)
                *at = atomic_add(&turn[g], 0);
            order[get_global_id(0)] = atomic_inc(&turn[g]);
        }";
    for src in [FLAG, BREAK, COUNT, OUT_PARAMETER, ARRAY, POINTER] {
        relayed(src, 128, 64);
    }
}
