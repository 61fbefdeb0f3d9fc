//! Checked mode's `api` check with images (`CRANECL_CHECK=api`, set for
//! this process before any context): a kernel that may write an image
//! mapped for reading is reported and fails; one that only reads it
//! (`read_only`) is clean.

use cranecl_conformance::{assert_code, call, cl, null, Cl};
use opencl_sys::*;
use std::ffi::{c_char, c_void};
use std::sync::Once;

const SOURCE: &str = "
kernel void paint(write_only image2d_t im) { write_imagef(im, (int2)(0, 0), (float4)(1.0f)); }
kernel void look(read_only image2d_t im, global float4 *out) { out[0] = read_imagef(im, (int2)(0, 0)); }
";

fn t() -> &'static Cl {
    static ENV: Once = Once::new();
    ENV.call_once(|| std::env::set_var("CRANECL_CHECK", "api"));
    cl()
}

fn launch(q: cl_command_queue, k: cl_kernel) -> cl_event {
    let mut ev = null();
    let one = 1usize;
    assert_code!(
        call!(t(); clEnqueueNDRangeKernel(q, k, 1, null(), &one, &one, 0, null(), &mut ev)),
        CL_SUCCESS
    );
    ev
}

fn status(e: cl_event) -> cl_int {
    let mut st: cl_int = 0;
    assert_code!(
        call!(t(); clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, 4, (&mut st as *mut i32).cast(), null())),
        CL_SUCCESS
    );
    st
}

#[test]
fn kernel_writing_a_mapped_image_is_reported() {
    let t = t();
    let (ctx, log) = t.context_with_log();
    let q = t.queue(ctx, 0);
    let dev = t.device();
    let mut e = 0;
    let mut src = SOURCE.as_ptr() as *const c_char;
    let len = SOURCE.len();
    let prog = call!(t; clCreateProgramWithSource(ctx, 1, &mut src, &len, &mut e));
    assert_code!(
        call!(t; clBuildProgram(prog, 1, &dev, c"".as_ptr(), None, null())),
        CL_SUCCESS
    );
    let f = cl_image_format {
        image_channel_order: CL_RGBA,
        image_channel_data_type: CL_FLOAT,
    };
    // SAFETY: cl_image_desc is plain data; all-zero is a valid value.
    let mut d: cl_image_desc = unsafe { std::mem::zeroed() };
    d.image_type = CL_MEM_OBJECT_IMAGE2D;
    d.image_width = 4;
    d.image_height = 4;
    let im = call!(t; clCreateImage(ctx, CL_MEM_READ_WRITE, &f, &d, null(), &mut e));
    assert_code!(e, CL_SUCCESS);
    let out = t.buffer(ctx, CL_MEM_READ_WRITE, 16);
    let (origin, region) = ([0usize; 3], [1usize, 1, 1]);
    let mut rp = 0usize;
    let p = call!(t; clEnqueueMapImage(q, im, CL_TRUE, CL_MAP_READ, origin.as_ptr(), region.as_ptr(), &mut rp, null(), 0, null(), null(), &mut e));
    assert_code!(e, CL_SUCCESS);
    // Reading the mapped image: clean.
    let look = call!(t; clCreateKernel(prog, c"look".as_ptr(), &mut e));
    assert_code!(
        call!(t; clSetKernelArg(look, 0, 8, (&im as *const cl_mem).cast::<c_void>())),
        CL_SUCCESS
    );
    assert_code!(
        call!(t; clSetKernelArg(look, 1, 8, (&out as *const cl_mem).cast::<c_void>())),
        CL_SUCCESS
    );
    let ev = launch(q, look);
    assert_code!(call!(t; clWaitForEvents(1, &ev)), CL_SUCCESS);
    assert!(log.lock().unwrap().is_empty(), "{:?}", log.lock().unwrap());
    // Writing it: reported, and the command fails.
    let paint = call!(t; clCreateKernel(prog, c"paint".as_ptr(), &mut e));
    assert_code!(
        call!(t; clSetKernelArg(paint, 0, 8, (&im as *const cl_mem).cast::<c_void>())),
        CL_SUCCESS
    );
    let ev = launch(q, paint);
    assert_code!(
        call!(t; clWaitForEvents(1, &ev)),
        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
    );
    assert_eq!(status(ev), CL_OUT_OF_RESOURCES);
    let start = std::time::Instant::now();
    while log.lock().unwrap().is_empty() && start.elapsed().as_secs() < 10 {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    let messages = log.lock().unwrap().clone();
    assert!(
        messages.iter().any(
            |m| m.contains("error: clEnqueueNDRangeKernel (kernel 'paint', argument 'im') may write 256 bytes at offset 0 of an image of 256 bytes while 16 bytes at offset 0 of the image are mapped for reading (clEnqueueMapImage, not unmapped yet)")
        ),
        "{messages:#?}"
    );
    assert_code!(
        call!(t; clEnqueueUnmapMemObject(q, im, p, 0, null(), null())),
        CL_SUCCESS
    );
    assert_code!(call!(t; clFinish(q)), CL_SUCCESS);
}
