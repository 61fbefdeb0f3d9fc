//! The Rust client: the `opencl3` crate (which loads the system's
//! `libOpenCL.so.1` at run time) runs a chain of write/copy/fill/rect/map/read
//! commands across an in-order and an out-of-order queue, tied by events and
//! gated by a user event, and every byte is checked against a host model.
//! The loader sees cranecl and pocl; the same chain on pocl checks the model.

use cranecl_conformance::{call, setup_both};
use opencl3::command_queue::{
    CommandQueue, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, CL_QUEUE_PROFILING_ENABLE,
};
use opencl3::context::Context;
use opencl3::device::Device;
use opencl3::event::Event;
use opencl3::memory::{Buffer, ClMem, CL_MAP_READ, CL_MAP_WRITE, CL_MEM_READ_WRITE};
use opencl3::platform::get_platforms;
use opencl3::types::{cl_event, CL_BLOCKING, CL_NON_BLOCKING};
use opencl_sys::{CL_COMMAND_COPY_BUFFER, CL_COMMAND_FILL_BUFFER, CL_COMPLETE, CL_SUCCESS};

const N: usize = 48 * 1024;
const ROW: usize = 128;

/// The model of a rect copy, with the spec's offset rule.
#[allow(clippy::too_many_arguments)]
fn rect_copy(
    dst: &mut [u8],
    src: &[u8],
    so: [usize; 3],
    dor: [usize; 3],
    region: [usize; 3],
    srp: usize,
    ssp: usize,
    drp: usize,
    dsp: usize,
) {
    for z in 0..region[2] {
        for y in 0..region[1] {
            let s = (so[2] + z) * ssp + (so[1] + y) * srp + so[0];
            let d = (dor[2] + z) * dsp + (dor[1] + y) * drp + dor[0];
            dst[d..d + region[0]].copy_from_slice(&src[s..s + region[0]]);
        }
    }
}

fn first_mismatch(got: &[u8], want: &[u8]) -> Option<(usize, u8, u8)> {
    got.iter()
        .zip(want)
        .enumerate()
        .find(|(_, (g, w))| g != w)
        .map(|(i, (g, w))| (i, *g, *w))
}

fn check(what: &str, got: &[u8], want: &[u8]) {
    if let Some((i, g, w)) = first_mismatch(got, want) {
        panic!("{what}: byte {i} is {g:#04x}, expected {w:#04x}");
    }
}

fn status(e: &Event) -> i32 {
    e.command_execution_status()
        .expect("CL_EVENT_COMMAND_EXECUTION_STATUS")
        .0
}

fn run_chain(platform_name: &str) {
    setup_both();
    let platform = get_platforms()
        .expect("clGetPlatformIDs")
        .into_iter()
        .find(|p| p.name().is_ok_and(|n| n.contains(platform_name)))
        .unwrap_or_else(|| panic!("no platform named {platform_name}"));
    let dev_id = *platform
        .get_devices(opencl3::device::CL_DEVICE_TYPE_CPU)
        .expect("clGetDeviceIDs")
        .first()
        .expect("one CPU device");
    let device = Device::new(dev_id);
    let ctx = Context::from_device(&device).expect("clCreateContext");
    // SAFETY (all `unsafe` calls below): the buffers, host slices and events
    // outlive the commands using them: every command is waited for before the
    // slices are read or dropped.
    let q1 =
        unsafe { CommandQueue::create_with_properties(&ctx, dev_id, CL_QUEUE_PROFILING_ENABLE, 0) }
            .expect("in-order queue");
    let q2 = unsafe {
        CommandQueue::create_with_properties(
            &ctx,
            dev_id,
            CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
            0,
        )
    }
    .expect("out-of-order queue");

    let src: Vec<u8> = (0..N).map(|i| (i * 31 + 7) as u8).collect();
    let mut a = unsafe { Buffer::<u8>::create(&ctx, CL_MEM_READ_WRITE, N, std::ptr::null_mut()) }
        .expect("A");
    let mut b = unsafe { Buffer::<u8>::create(&ctx, CL_MEM_READ_WRITE, N, std::ptr::null_mut()) }
        .expect("B");
    let mut c = unsafe { Buffer::<u8>::create(&ctx, CL_MEM_READ_WRITE, N, std::ptr::null_mut()) }
        .expect("C");

    // The gate: a user event, through the raw table (opencl3 has no wrapper).
    let mut e = 0;
    let gate: cl_event = call!(clCreateUserEvent(ctx.get(), &mut e));
    assert_eq!(e, CL_SUCCESS, "clCreateUserEvent");

    let e1 = unsafe { q1.enqueue_write_buffer(&mut a, CL_NON_BLOCKING, 0, &src, &[gate]) }
        .expect("write A");
    let e2 =
        unsafe { q2.enqueue_copy_buffer(&a, &mut b, 0, 0, N, &[e1.get()]) }.expect("copy A->B");
    let pattern = [0x12u8, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0];
    let e3 = unsafe { q2.enqueue_fill_buffer(&mut c, &pattern, 0, N, &[]) }.expect("fill C");
    assert_ne!(
        status(&e1),
        CL_COMPLETE,
        "the write completed before its user event"
    );
    assert_ne!(
        status(&e2),
        CL_COMPLETE,
        "the copy completed before the write it waits on"
    );
    assert_eq!(call!(clSetUserEventStatus(gate, CL_COMPLETE)), CL_SUCCESS);

    let (so, dor, region) = ([3usize, 1, 0], [17usize, 2, 1], [50usize, 6, 2]);
    let e4 = unsafe {
        q1.enqueue_copy_buffer_rect(
            &b,
            &mut c,
            so.as_ptr(),
            dor.as_ptr(),
            region.as_ptr(),
            ROW,
            ROW * 8,
            2 * ROW,
            2 * ROW * 10,
            &[e2.get(), e3.get()],
        )
    }
    .expect("copy rect B->C");

    let mut mapped: opencl3::types::cl_mem = std::ptr::null_mut();
    let (moff, mlen) = (777usize, 5000usize);
    let e5 = unsafe {
        q2.enqueue_map_buffer(
            &c,
            CL_NON_BLOCKING,
            CL_MAP_READ | CL_MAP_WRITE,
            moff,
            mlen,
            &mut mapped,
            &[e4.get()],
        )
    }
    .expect("map C");
    e5.wait().expect("wait for the map");

    let mut model_c: Vec<u8> = (0..N).map(|i| pattern[i % pattern.len()]).collect();
    rect_copy(
        &mut model_c,
        &src,
        so,
        dor,
        region,
        ROW,
        ROW * 8,
        2 * ROW,
        2 * ROW * 10,
    );
    // SAFETY: the map succeeded and covers `mlen` bytes until unmapped.
    let view = unsafe { std::slice::from_raw_parts_mut(mapped.cast::<u8>(), mlen) };
    check("mapped C", view, &model_c[moff..moff + mlen]);
    for (i, byte) in view.iter_mut().enumerate().step_by(5) {
        *byte = !*byte;
        model_c[moff + i] = !model_c[moff + i];
    }
    let e6 = unsafe { q1.enqueue_unmap_mem_object(c.get(), mapped, &[]) }.expect("unmap C");
    let mut out = vec![0u8; N];
    let e7 = unsafe { q2.enqueue_read_buffer(&c, CL_NON_BLOCKING, 0, &mut out, &[e6.get()]) }
        .expect("read C");
    e7.wait().expect("wait for the read");
    check("C", &out, &model_c);

    // B through a rect read of a sub-block, A blocking.
    let mut block = vec![0u8; 40 * 10];
    let (bo, ho, reg) = ([5usize, 20, 0], [0usize, 0, 0], [40usize, 10, 1]);
    unsafe {
        q1.enqueue_read_buffer_rect(
            &b,
            CL_BLOCKING,
            bo.as_ptr(),
            ho.as_ptr(),
            reg.as_ptr(),
            ROW,
            0,
            40,
            0,
            block.as_mut_ptr().cast(),
            &[],
        )
    }
    .expect("read rect B");
    let mut model_block = vec![0u8; 40 * 10];
    rect_copy(&mut model_block, &src, bo, ho, reg, ROW, ROW * 10, 40, 400);
    check("B block", &block, &model_block);
    let mut out_a = vec![0u8; N];
    unsafe { q2.enqueue_read_buffer(&a, CL_BLOCKING, 0, &mut out_a, &[]) }.expect("read A");
    check("A", &out_a, &src);

    q1.finish().expect("clFinish q1");
    q2.finish().expect("clFinish q2");
    for (name, ev) in [
        ("e1", &e1),
        ("e2", &e2),
        ("e3", &e3),
        ("e4", &e4),
        ("e5", &e5),
        ("e6", &e6),
        ("e7", &e7),
    ] {
        assert_eq!(status(ev), CL_COMPLETE, "{name} after clFinish");
    }
    assert_eq!(e2.command_type().expect("type").0, CL_COMMAND_COPY_BUFFER);
    assert_eq!(e3.command_type().expect("type").0, CL_COMMAND_FILL_BUFFER);
    let (queued, end) = (
        e1.profiling_command_queued().expect("queued"),
        e1.profiling_command_end().expect("end"),
    );
    assert!(queued <= end, "profiling: queued {queued} > end {end}");
    assert_eq!(call!(clReleaseEvent(gate)), CL_SUCCESS);
}

#[test]
fn opencl3_chain_on_cranecl() {
    run_chain("cranecl");
}

#[test]
fn opencl3_chain_model_holds_on_pocl() {
    run_chain("Portable Computing Language");
}
