//! API behaviour of contexts and command queues: `clCreateContext[FromType]`,
//! `clRetainContext`/`clReleaseContext`, `clGetContextInfo`,
//! `clSetContextDestructorCallback`, `clCreateCommandQueue[WithProperties]`,
//! `clRetainCommandQueue`/`clReleaseCommandQueue`, `clGetCommandQueueInfo`,
//! `clSetCommandQueueProperty`, `clSetDefaultDeviceCommandQueue`, `clFlush`,
//! `clFinish`: a bad handle (NULL or a handle of another type) and bad
//! arguments with the spec's code, then the values a valid call reports.

use cranecl_conformance::{assert_code, both_ways, call, null, Cl};
use opencl_sys::*;
use std::ffi::{c_char, c_void};
use std::sync::Mutex;

fn get_uint(t: &Cl, ctx: cl_context, name: cl_context_info) -> cl_uint {
    let mut v: cl_uint = 0;
    assert_code!(
        call!(t; clGetContextInfo(ctx, name, 4, (&mut v as *mut u32).cast(), null())),
        CL_SUCCESS
    );
    v
}

unsafe extern "C" fn notify(_: *const c_char, _: *const c_void, _: usize, _: *mut c_void) {}

fn create_context(t: &Cl) {
    let p = t.platform();
    let dev = t.device();
    let mut e = 0;
    let c = call!(t; clCreateContext(null(), 1, null(), None, null(), &mut e));
    assert!(c.is_null());
    assert_code!(e, CL_INVALID_VALUE, "devices NULL");
    let c = call!(t; clCreateContext(null(), 0, &dev, None, null(), &mut e));
    assert!(c.is_null());
    assert_code!(e, CL_INVALID_VALUE, "num_devices 0");
    let mut x = 0u8;
    let c = call!(t; clCreateContext(null(), 1, &dev, None, (&mut x as *mut u8).cast(), &mut e));
    assert!(c.is_null());
    assert_code!(e, CL_INVALID_VALUE, "pfn_notify NULL with user_data");
    let not_a_device = p as cl_device_id;
    let c = call!(t; clCreateContext(null(), 1, &not_a_device, None, null(), &mut e));
    assert!(c.is_null());
    assert_code!(e, CL_INVALID_DEVICE, "a platform handle as a device");
    let unknown: [cl_context_properties; 3] = [0x7777, 1, 0];
    let c = call!(t; clCreateContext(unknown.as_ptr(), 1, &dev, None, null(), &mut e));
    assert!(c.is_null());
    assert_code!(e, CL_INVALID_PROPERTY, "an unknown property name");
    let twice: [cl_context_properties; 5] = [
        CL_CONTEXT_PLATFORM as _,
        p as _,
        CL_CONTEXT_PLATFORM as _,
        p as _,
        0,
    ];
    let c = call!(t; clCreateContext(twice.as_ptr(), 1, &dev, None, null(), &mut e));
    assert!(c.is_null());
    assert_code!(e, CL_INVALID_PROPERTY, "CL_CONTEXT_PLATFORM twice");

    // Valid: properties are echoed back, one device, reference count 1.
    let props: [cl_context_properties; 5] = [
        CL_CONTEXT_PLATFORM as _,
        p as _,
        CL_CONTEXT_INTEROP_USER_SYNC as _,
        CL_TRUE as _,
        0,
    ];
    let c = call!(t; clCreateContext(props.as_ptr(), 1, &dev, Some(notify), (&mut x as *mut u8).cast(), &mut e));
    assert_code!(e, CL_SUCCESS);
    assert!(!c.is_null());
    assert_eq!(get_uint(t, c, CL_CONTEXT_REFERENCE_COUNT), 1);
    assert_eq!(get_uint(t, c, CL_CONTEXT_NUM_DEVICES), 1);
    let mut d: cl_device_id = null();
    assert_code!(
        call!(t; clGetContextInfo(c, CL_CONTEXT_DEVICES, 8, (&mut d as *mut cl_device_id).cast(), null())),
        CL_SUCCESS
    );
    assert_eq!(d, dev);
    let mut size = 0usize;
    assert_code!(
        call!(t; clGetContextInfo(c, CL_CONTEXT_PROPERTIES, 0, null(), &mut size)),
        CL_SUCCESS
    );
    assert_eq!(
        size,
        std::mem::size_of_val(&props),
        "CL_CONTEXT_PROPERTIES echoes the list"
    );
    let mut back = [0 as cl_context_properties; 5];
    assert_code!(
        call!(t; clGetContextInfo(c, CL_CONTEXT_PROPERTIES, size, back.as_mut_ptr().cast(), null())),
        CL_SUCCESS
    );
    assert_eq!(back, props);
    assert_code!(call!(t; clReleaseContext(c)), CL_SUCCESS);

    // NULL properties: CL_CONTEXT_PROPERTIES answers size 0.
    let c = t.context();
    assert_code!(
        call!(t; clGetContextInfo(c, CL_CONTEXT_PROPERTIES, 0, null(), &mut size)),
        CL_SUCCESS
    );
    assert_eq!(
        size, 0,
        "CL_CONTEXT_PROPERTIES of a context made with NULL properties"
    );
    assert_code!(call!(t; clReleaseContext(c)), CL_SUCCESS);
}

fn create_context_from_type(t: &Cl) {
    let p = t.platform();
    let props: [cl_context_properties; 3] = [CL_CONTEXT_PLATFORM as _, p as _, 0];
    let mut e = 0;
    let c = call!(t; clCreateContextFromType(props.as_ptr(), 1 << 40, None, null(), &mut e));
    assert!(c.is_null());
    assert_code!(e, CL_INVALID_DEVICE_TYPE);
    let c =
        call!(t; clCreateContextFromType(props.as_ptr(), CL_DEVICE_TYPE_GPU, None, null(), &mut e));
    assert!(c.is_null());
    assert_code!(e, CL_DEVICE_NOT_FOUND);
    let mut x = 0u8;
    let c = call!(t; clCreateContextFromType(props.as_ptr(), CL_DEVICE_TYPE_CPU, None, (&mut x as *mut u8).cast(), &mut e));
    assert!(c.is_null());
    assert_code!(e, CL_INVALID_VALUE, "pfn_notify NULL with user_data");
    for ty in [
        CL_DEVICE_TYPE_CPU,
        CL_DEVICE_TYPE_DEFAULT,
        CL_DEVICE_TYPE_ALL,
    ] {
        let c = call!(t; clCreateContextFromType(props.as_ptr(), ty, None, null(), &mut e));
        assert_code!(e, CL_SUCCESS, "type {ty:#x}");
        assert_eq!(get_uint(t, c, CL_CONTEXT_NUM_DEVICES), 1);
        assert_code!(call!(t; clReleaseContext(c)), CL_SUCCESS);
    }
}

fn retain_release_context(t: &Cl) {
    let dev = t.device();
    assert_code!(call!(t; clRetainContext(null())), CL_INVALID_CONTEXT);
    assert_code!(call!(t; clReleaseContext(null())), CL_INVALID_CONTEXT);
    assert_code!(
        call!(t; clRetainContext(dev as cl_context)),
        CL_INVALID_CONTEXT
    );
    assert_code!(
        call!(t; clReleaseContext(dev as cl_context)),
        CL_INVALID_CONTEXT
    );
    let c = t.context();
    assert_code!(call!(t; clRetainContext(c)), CL_SUCCESS);
    assert_eq!(get_uint(t, c, CL_CONTEXT_REFERENCE_COUNT), 2);
    assert_code!(call!(t; clReleaseContext(c)), CL_SUCCESS);
    assert_eq!(get_uint(t, c, CL_CONTEXT_REFERENCE_COUNT), 1);
    assert_code!(call!(t; clReleaseContext(c)), CL_SUCCESS);
}

fn get_context_info(t: &Cl) {
    let dev = t.device();
    let mut v: cl_uint = 0;
    let vp = (&mut v as *mut u32).cast();
    assert_code!(
        call!(t; clGetContextInfo(null(), CL_CONTEXT_NUM_DEVICES, 4, vp, null())),
        CL_INVALID_CONTEXT
    );
    assert_code!(
        call!(t; clGetContextInfo(dev as cl_context, CL_CONTEXT_NUM_DEVICES, 4, vp, null())),
        CL_INVALID_CONTEXT
    );
    let c = t.context();
    assert_code!(
        call!(t; clGetContextInfo(c, 0x7fff_ffff, 4, vp, null())),
        CL_INVALID_VALUE
    );
    assert_code!(
        call!(t; clGetContextInfo(c, CL_CONTEXT_NUM_DEVICES, 2, vp, null())),
        CL_INVALID_VALUE
    );
    assert_code!(call!(t; clReleaseContext(c)), CL_SUCCESS);
}

static DESTRUCTOR_ORDER: Mutex<Vec<usize>> = Mutex::new(Vec::new());

unsafe extern "C" fn destructor(_: cl_context, user_data: *mut c_void) {
    DESTRUCTOR_ORDER
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .push(user_data as usize);
}

fn context_destructor_callback(t: &Cl) {
    let dev = t.device();
    assert_code!(
        call!(t; clSetContextDestructorCallback(null(), Some(destructor), null())),
        CL_INVALID_CONTEXT
    );
    assert_code!(
        call!(t; clSetContextDestructorCallback(dev as cl_context, Some(destructor), null())),
        CL_INVALID_CONTEXT
    );
    let c = t.context();
    assert_code!(
        call!(t; clSetContextDestructorCallback(c, None, null())),
        CL_INVALID_VALUE
    );
    // Tags unique to this run (both ways share the static).
    let base = if t.direct { 1000 } else { 2000 };
    for i in 0..3 {
        assert_code!(
            call!(t; clSetContextDestructorCallback(c, Some(destructor), (base + i) as *mut c_void)),
            CL_SUCCESS
        );
    }
    assert_code!(call!(t; clReleaseContext(c)), CL_SUCCESS);
    let seen: Vec<usize> = DESTRUCTOR_ORDER
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .iter()
        .copied()
        .filter(|v| (base..base + 3).contains(v))
        .collect();
    assert_eq!(
        seen,
        vec![base + 2, base + 1, base],
        "destructor callbacks run once each, last registered first"
    );
}

fn queue_props(pairs: &[(u64, u64)]) -> Vec<cl_queue_properties> {
    let mut v: Vec<cl_queue_properties> = pairs.iter().flat_map(|&(k, x)| [k, x]).collect();
    v.push(0);
    v
}

fn create_command_queue_with_properties(t: &Cl) {
    let p = t.platform();
    let dev = t.device();
    let c = t.context();
    let mut e = 0;
    let q = call!(t; clCreateCommandQueueWithProperties(null(), dev, null(), &mut e));
    assert!(q.is_null());
    assert_code!(e, CL_INVALID_CONTEXT, "NULL context");
    let q = call!(t; clCreateCommandQueueWithProperties(dev as cl_context, dev, null(), &mut e));
    assert!(q.is_null());
    assert_code!(e, CL_INVALID_CONTEXT, "a device as the context");
    let q = call!(t; clCreateCommandQueueWithProperties(c, p as cl_device_id, null(), &mut e));
    assert!(q.is_null());
    assert_code!(e, CL_INVALID_DEVICE, "a platform as the device");
    let q = call!(t; clCreateCommandQueueWithProperties(c, null(), null(), &mut e));
    assert!(q.is_null());
    assert_code!(e, CL_INVALID_DEVICE, "NULL device");
    let bad = queue_props(&[(0x7777, 0)]);
    let q = call!(t; clCreateCommandQueueWithProperties(c, dev, bad.as_ptr(), &mut e));
    assert!(q.is_null());
    assert_code!(e, CL_INVALID_VALUE, "an unknown property name");
    let bad = queue_props(&[(CL_QUEUE_PROPERTIES as _, 1 << 20)]);
    let q = call!(t; clCreateCommandQueueWithProperties(c, dev, bad.as_ptr(), &mut e));
    assert!(q.is_null());
    assert_code!(e, CL_INVALID_VALUE, "an unknown CL_QUEUE_PROPERTIES bit");
    let bad = queue_props(&[(CL_QUEUE_SIZE as _, 1024)]);
    let q = call!(t; clCreateCommandQueueWithProperties(c, dev, bad.as_ptr(), &mut e));
    assert!(q.is_null());
    assert_code!(
        e,
        CL_INVALID_VALUE,
        "CL_QUEUE_SIZE without CL_QUEUE_ON_DEVICE"
    );
    let mut on_dev: cl_command_queue_properties = 0;
    assert_code!(
        call!(t; clGetDeviceInfo(dev, CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, 8, (&mut on_dev as *mut u64).cast(), null())),
        CL_SUCCESS
    );
    if on_dev == 0 {
        let dq = queue_props(&[(
            CL_QUEUE_PROPERTIES as _,
            CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
        )]);
        let q = call!(t; clCreateCommandQueueWithProperties(c, dev, dq.as_ptr(), &mut e));
        assert!(q.is_null());
        assert_code!(
            e,
            CL_INVALID_QUEUE_PROPERTIES,
            "an on-device queue on a device without them"
        );
    }

    // Valid: the answers of clGetCommandQueueInfo.
    let props = queue_props(&[(
        CL_QUEUE_PROPERTIES as _,
        CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE,
    )]);
    let q = call!(t; clCreateCommandQueueWithProperties(c, dev, props.as_ptr(), &mut e));
    assert_code!(e, CL_SUCCESS);
    let mut qc: cl_context = null();
    assert_code!(
        call!(t; clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, 8, (&mut qc as *mut cl_context).cast(), null())),
        CL_SUCCESS
    );
    assert_eq!(qc, c);
    let mut qd: cl_device_id = null();
    assert_code!(
        call!(t; clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, 8, (&mut qd as *mut cl_device_id).cast(), null())),
        CL_SUCCESS
    );
    assert_eq!(qd, dev);
    let mut qp: cl_command_queue_properties = 0;
    assert_code!(
        call!(t; clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, 8, (&mut qp as *mut u64).cast(), null())),
        CL_SUCCESS
    );
    assert_eq!(
        qp,
        CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE
    );
    let mut size = 0usize;
    assert_code!(
        call!(t; clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, 0, null(), &mut size)),
        CL_SUCCESS
    );
    assert_eq!(
        size,
        props.len() * 8,
        "CL_QUEUE_PROPERTIES_ARRAY echoes the list"
    );
    let mut rc: cl_uint = 0;
    assert_code!(
        call!(t; clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, 4, (&mut rc as *mut u32).cast(), null())),
        CL_SUCCESS
    );
    assert_eq!(rc, 1);
    assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(c)), CL_SUCCESS);
}

fn create_command_queue_legacy(t: &Cl) {
    let p = t.platform();
    let dev = t.device();
    let c = t.context();
    let mut e = 0;
    let q = call!(t; clCreateCommandQueue(dev as cl_context, dev, 0, &mut e));
    assert!(q.is_null());
    assert_code!(e, CL_INVALID_CONTEXT);
    let q = call!(t; clCreateCommandQueue(c, p as cl_device_id, 0, &mut e));
    assert!(q.is_null());
    assert_code!(e, CL_INVALID_DEVICE);
    let q = call!(t; clCreateCommandQueue(c, dev, 1 << 20, &mut e));
    assert!(q.is_null());
    assert_code!(e, CL_INVALID_VALUE);
    let q = call!(t; clCreateCommandQueue(c, dev, CL_QUEUE_PROFILING_ENABLE, &mut e));
    assert_code!(e, CL_SUCCESS);
    let mut qp: cl_command_queue_properties = 0;
    assert_code!(
        call!(t; clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, 8, (&mut qp as *mut u64).cast(), null())),
        CL_SUCCESS
    );
    assert_eq!(qp, CL_QUEUE_PROFILING_ENABLE);
    assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(c)), CL_SUCCESS);
}

fn queue_handles(t: &Cl) {
    let c = t.context();
    let not_q = c as cl_command_queue;
    assert_code!(
        call!(t; clRetainCommandQueue(null())),
        CL_INVALID_COMMAND_QUEUE
    );
    assert_code!(
        call!(t; clReleaseCommandQueue(null())),
        CL_INVALID_COMMAND_QUEUE
    );
    assert_code!(
        call!(t; clRetainCommandQueue(not_q)),
        CL_INVALID_COMMAND_QUEUE
    );
    assert_code!(
        call!(t; clReleaseCommandQueue(not_q)),
        CL_INVALID_COMMAND_QUEUE
    );
    assert_code!(call!(t; clFlush(not_q)), CL_INVALID_COMMAND_QUEUE);
    assert_code!(call!(t; clFinish(not_q)), CL_INVALID_COMMAND_QUEUE);
    assert_code!(call!(t; clFlush(null())), CL_INVALID_COMMAND_QUEUE);
    assert_code!(call!(t; clFinish(null())), CL_INVALID_COMMAND_QUEUE);
    let mut rc: cl_uint = 0;
    let rcp = (&mut rc as *mut u32).cast();
    assert_code!(
        call!(t; clGetCommandQueueInfo(not_q, CL_QUEUE_REFERENCE_COUNT, 4, rcp, null())),
        CL_INVALID_COMMAND_QUEUE
    );
    let q = t.queue(c, 0);
    assert_code!(
        call!(t; clGetCommandQueueInfo(q, 0x7fff_ffff, 4, rcp, null())),
        CL_INVALID_VALUE
    );
    assert_code!(
        call!(t; clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, 2, rcp, null())),
        CL_INVALID_VALUE
    );
    let mut qs: cl_uint = 0;
    assert_code!(
        call!(t; clGetCommandQueueInfo(q, CL_QUEUE_SIZE, 4, (&mut qs as *mut u32).cast(), null())),
        CL_INVALID_COMMAND_QUEUE,
        "CL_QUEUE_SIZE of a host queue"
    );
    assert_code!(call!(t; clRetainCommandQueue(q)), CL_SUCCESS);
    assert_code!(
        call!(t; clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, 4, rcp, null())),
        CL_SUCCESS
    );
    assert_eq!(rc, 2);
    assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
    assert_code!(call!(t; clFlush(q)), CL_SUCCESS);
    assert_code!(call!(t; clFinish(q)), CL_SUCCESS);
    // Deprecated 1.0 call: an invalid queue first; a valid one either
    // changes nothing we can't undo or is refused as unsupported.
    let mut old: cl_command_queue_properties = 0;
    assert_code!(
        call!(t; clSetCommandQueueProperty(not_q, CL_QUEUE_PROFILING_ENABLE, CL_TRUE, &mut old)),
        CL_INVALID_COMMAND_QUEUE
    );
    let r = call!(t; clSetCommandQueueProperty(q, CL_QUEUE_PROFILING_ENABLE, CL_FALSE, &mut old));
    assert!(
        r == CL_SUCCESS || r == CL_INVALID_OPERATION,
        "clSetCommandQueueProperty on a valid queue: {r}"
    );
    // No on-device queues: clSetDefaultDeviceCommandQueue.
    let dev = t.device();
    assert_code!(
        call!(t; clSetDefaultDeviceCommandQueue(dev as cl_context, dev, q)),
        CL_INVALID_CONTEXT
    );
    assert_code!(
        call!(t; clSetDefaultDeviceCommandQueue(c, c as cl_device_id, q)),
        CL_INVALID_DEVICE
    );
    assert_code!(
        call!(t; clSetDefaultDeviceCommandQueue(c, dev, q)),
        CL_INVALID_OPERATION,
        "the device supports no replaceable default on-device queue"
    );
    assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(c)), CL_SUCCESS);
}

both_ways!(
    create_context,
    create_context_from_type,
    retain_release_context,
    get_context_info,
    context_destructor_callback,
    create_command_queue_with_properties,
    create_command_queue_legacy,
    queue_handles,
);
