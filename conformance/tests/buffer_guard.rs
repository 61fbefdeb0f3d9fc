//! Guard regions in default mode: a kernel that writes (or reads) past the
//! end of a large buffer — by one element, by one page, 16 MiB away — faults
//! in the buffer's guard region. Through the loader, each such command fails
//! (a negative execution status), the context's notify callback hears a
//! message naming the buffer and the offset ("invalid write at 0x… in
//! generated code, just past the end of a buffer of 262144 bytes (in its
//! guard region)"), every other live buffer keeps its pattern, the target
//! keeps its own bytes, and the process goes on.
//!
//! The target's size is a multiple of `CL_DEVICE_MEM_BASE_ADDR_ALIGN` and
//! above the guard threshold (128 KiB), so its data ends exactly at its
//! guard: there is no slack where a write could land unnoticed, and each
//! command must fail.

use cranecl_conformance::setup;
use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::device::{Device, CL_DEVICE_TYPE_ALL};
use opencl3::event::Event;
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::memory::{Buffer, CL_MEM_READ_WRITE};
use opencl3::platform::get_platforms;
use opencl3::program::Program;
use opencl3::types::{cl_int, cl_ulong, CL_BLOCKING};
use std::ffi::{c_char, c_void, CStr};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const SOURCE: &str = r#"
kernel void poke(global int *buf, ulong index)
{
    if (get_global_id(0) == 0)
        buf[index] = 0x5EB0;
}
kernel void peek(global int *buf, ulong index, global int *out)
{
    if (get_global_id(0) == 0)
        out[0] = buf[index];
}
"#;

/// Ints in the target buffer: 256 KiB.
const N: usize = 64 << 10;

/// Messages the context's notify callback received.
static NOTES: Mutex<Vec<String>> = Mutex::new(Vec::new());

unsafe extern "C" fn notify(msg: *const c_char, _: *const c_void, _: usize, _: *mut c_void) {
    if !msg.is_null() {
        // SAFETY: the implementation passes a NUL-terminated string.
        let text = unsafe { CStr::from_ptr(msg) }
            .to_string_lossy()
            .into_owned();
        NOTES.lock().unwrap_or_else(|e| e.into_inner()).push(text);
    }
}

/// The first note containing `needle`, waiting up to a second for it.
fn note_with(needle: &str) -> Option<String> {
    let start = Instant::now();
    loop {
        let found = NOTES
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .find(|n| n.contains(needle))
            .cloned();
        if found.is_some() || start.elapsed() > Duration::from_secs(1) {
            return found;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The pattern of buffer number `b`.
fn pattern(b: usize, len: usize) -> Vec<i32> {
    (0..len)
        .map(|i| ((b as i32 + 1) * 1_000_003) ^ i as i32)
        .collect()
}

struct Rig {
    context: Context,
    queue: CommandQueue,
    program: Program,
}

fn rig() -> Rig {
    setup();
    let platform = get_platforms()
        .expect("platforms")
        .into_iter()
        .find(|p| p.name().is_ok_and(|n| n.contains("cranecl")))
        .expect("cranecl platform");
    let device = Device::new(platform.get_devices(CL_DEVICE_TYPE_ALL).expect("devices")[0]);
    let context = Context::from_devices(&[device.id()], &[], Some(notify), std::ptr::null_mut())
        .expect("context");
    let queue = CommandQueue::create_default_with_properties(&context, 0, 0).expect("queue");
    let program = Program::create_and_build_from_source(&context, SOURCE, "")
        .unwrap_or_else(|log| panic!("build failed: {log}"));
    Rig {
        context,
        queue,
        program,
    }
}

fn buffer_with(rig: &Rig, data: &[i32]) -> Buffer<i32> {
    // SAFETY: a fresh buffer of `data.len()` ints, written by a blocking
    // write from a slice that outlives the call.
    unsafe {
        let mut b = Buffer::<i32>::create(
            &rig.context,
            CL_MEM_READ_WRITE,
            data.len(),
            std::ptr::null_mut(),
        )
        .expect("buffer");
        rig.queue
            .enqueue_write_buffer(&mut b, CL_BLOCKING, 0, data, &[])
            .expect("write the pattern");
        b
    }
}

fn read(rig: &Rig, b: &Buffer<i32>, len: usize) -> Vec<i32> {
    let mut host = vec![0i32; len];
    // SAFETY: a blocking read of `len` ints into a slice of `len` ints.
    unsafe {
        rig.queue
            .enqueue_read_buffer(b, CL_BLOCKING, 0, &mut host, &[])
    }
    .expect("read back");
    host
}

/// Wait for `ev`; its execution status (negative: it failed).
fn status_after(ev: Event) -> cl_int {
    let _ = ev.wait();
    ev.command_execution_status().expect("status").0
}

#[test]
fn overruns_fault_in_the_guard_and_name_the_buffer() {
    let rig = rig();
    // Neighbours of every size class, created before and after the target
    // so that the target's mapping lies between theirs.
    let sizes_before = [256usize, 16 << 10, 64 << 10, 1 << 20];
    let sizes_after = [1usize << 20, 64 << 10, 32, 4 << 20];
    let mut others: Vec<(usize, Buffer<i32>)> = Vec::new();
    for (b, &len) in sizes_before.iter().enumerate() {
        others.push((len, buffer_with(&rig, &pattern(b, len))));
    }
    let target_pattern = pattern(100, N);
    let target = buffer_with(&rig, &target_pattern);
    for (b, &len) in sizes_after.iter().enumerate() {
        others.push((len, buffer_with(&rig, &pattern(b + 10, len))));
    }
    let out = buffer_with(&rig, &[0]);
    let poke = Kernel::create(&rig.program, "poke").expect("kernel poke");
    let peek = Kernel::create(&rig.program, "peek").expect("kernel peek");

    let label = format!("a buffer of {} bytes (in its guard region)", N * 4);
    let cases = [
        (
            "one element past",
            "write",
            N,
            "just past the end".to_string(),
        ),
        (
            "one page past",
            "write",
            N + 1024,
            "4096 bytes past the end".into(),
        ),
        (
            "16 MiB past",
            "write",
            N + (4 << 20),
            "16777216 bytes past the end".into(),
        ),
        (
            "read one element past",
            "read",
            N,
            "just past the end".into(),
        ),
    ];
    for (what, access, index, offset) in cases {
        NOTES.lock().unwrap_or_else(|e| e.into_inner()).clear();
        let index = index as cl_ulong;
        // SAFETY: the arguments match the kernel's parameters, and every
        // buffer the kernel names is alive until it completes.
        let ev = unsafe {
            if access == "write" {
                ExecuteKernel::new(&poke)
                    .set_arg(&target)
                    .set_arg(&index)
                    .set_global_work_size(64)
                    .enqueue_nd_range(&rig.queue)
            } else {
                ExecuteKernel::new(&peek)
                    .set_arg(&target)
                    .set_arg(&index)
                    .set_arg(&out)
                    .set_global_work_size(64)
                    .enqueue_nd_range(&rig.queue)
            }
        }
        .expect("the launch itself is valid");
        let status = status_after(ev);
        assert!(status < 0, "{what}: the command must fail, status {status}");
        let note = note_with("failed").unwrap_or_else(|| panic!("{what}: no notify message"));
        let expected = [
            "kernel '".to_string(),
            format!("invalid {access} at 0x"),
            format!("{offset} of {label}"),
        ];
        for e in &expected {
            assert!(
                note.contains(e.as_str()),
                "{what}: the message says '{e}': {note}"
            );
        }
    }

    // Nobody's bytes changed, and the host goes on.
    assert!(
        read(&rig, &target, N) == target_pattern,
        "the target kept its bytes"
    );
    for (b, (len, buf)) in others.iter().enumerate() {
        let expected = if b < sizes_before.len() {
            pattern(b, *len)
        } else {
            pattern(b - sizes_before.len() + 10, *len)
        };
        assert!(
            read(&rig, buf, *len) == expected,
            "buffer {b} of {len} ints kept its pattern"
        );
    }
    rig.queue.finish().expect("the queue still works");
}
