//! Contexts and command queues through the C entry points of the rlib:
//! property lists, errors in the spec's order, info queries, reference
//! counts, destructor callbacks and their timing.

mod common;
use common::*;
use std::sync::Mutex;

fn create(props: &[cl_context_properties]) -> (cl_context, cl_int) {
    let d = device();
    let mut rc = 0;
    let p = if props.is_empty() {
        ptr::null()
    } else {
        props.as_ptr()
    };
    // SAFETY: one valid device; `p` NULL or a terminated list.
    let c = unsafe { clCreateContext(p, 1, &d, None, ptr::null_mut(), &mut rc) };
    (c, rc)
}

fn platform() -> cl_platform_id {
    let mut p = ptr::null_mut();
    // SAFETY: valid out-pointer.
    unsafe { clGetPlatformIDs(1, &mut p, ptr::null_mut()) };
    p
}

/// The bytes of a `clGetContextInfo` answer.
fn context_info(c: cl_context, param: cl_context_info) -> (cl_int, Vec<u8>) {
    let mut size = 0;
    // SAFETY: size query, then a buffer of that size.
    let rc = unsafe { clGetContextInfo(c, param, 0, ptr::null_mut(), &mut size) };
    if rc != CL_SUCCESS {
        return (rc, Vec::new());
    }
    let mut buf = vec![0u8; size];
    // SAFETY: `size` bytes of room.
    let rc = unsafe {
        clGetContextInfo(
            c,
            param,
            size,
            buf.as_mut_ptr() as *mut c_void,
            ptr::null_mut(),
        )
    };
    (rc, buf)
}

fn words(bytes: &[u8]) -> Vec<isize> {
    bytes
        .chunks_exact(8)
        .map(|c| isize::from_ne_bytes(c.try_into().unwrap()))
        .collect()
}

#[test]
fn context_properties_are_checked_and_returned_as_given() {
    let plat = platform() as cl_context_properties;
    let list = [
        CL_CONTEXT_PLATFORM,
        plat,
        CL_CONTEXT_INTEROP_USER_SYNC,
        CL_TRUE as isize,
        0,
    ];
    let (c, rc) = create(&list);
    assert_eq!(rc, CL_SUCCESS);
    let (rc, bytes) = context_info(c, CL_CONTEXT_PROPERTIES);
    assert_eq!(rc, CL_SUCCESS);
    assert_eq!(words(&bytes), list.to_vec());
    release_context(c);
    // NULL properties: size 0.
    let (c, _) = create(&[]);
    assert_eq!(context_info(c, CL_CONTEXT_PROPERTIES), (CL_SUCCESS, vec![]));
    release_context(c);
    // Errors.
    let bad_platform = [CL_CONTEXT_PLATFORM, device() as isize, 0];
    assert_eq!(create(&bad_platform).1, CL_INVALID_PLATFORM);
    let twice = [CL_CONTEXT_PLATFORM, plat, CL_CONTEXT_PLATFORM, plat, 0];
    assert_eq!(create(&twice).1, CL_INVALID_PROPERTY);
    let unknown = [0x7777, 1, 0];
    assert_eq!(create(&unknown).1, CL_INVALID_PROPERTY);
    let bad_bool = [CL_CONTEXT_INTEROP_USER_SYNC, 5, 0];
    assert_eq!(create(&bad_bool).1, CL_INVALID_PROPERTY);
}

#[test]
fn context_creation_errors() {
    let d = device();
    let mut rc = 0;
    // SAFETY: deliberately bad arguments, never dereferenced beyond the spec.
    unsafe {
        assert!(
            clCreateContext(ptr::null(), 1, ptr::null(), None, ptr::null_mut(), &mut rc).is_null()
        );
        assert_eq!(rc, CL_INVALID_VALUE);
        assert!(clCreateContext(ptr::null(), 0, &d, None, ptr::null_mut(), &mut rc).is_null());
        assert_eq!(rc, CL_INVALID_VALUE);
        clCreateContext(ptr::null(), 1, &d, None, 8 as *mut c_void, &mut rc);
        assert_eq!(rc, CL_INVALID_VALUE);
        let bogus = [platform() as cl_device_id];
        clCreateContext(
            ptr::null(),
            1,
            bogus.as_ptr(),
            None,
            ptr::null_mut(),
            &mut rc,
        );
        assert_eq!(rc, CL_INVALID_DEVICE);
        // Duplicate devices are ignored.
        let c = clCreateContext(
            ptr::null(),
            2,
            [d, d].as_ptr(),
            None,
            ptr::null_mut(),
            &mut rc,
        );
        assert_eq!(rc, CL_SUCCESS);
        let (_, n) = context_info(c, CL_CONTEXT_NUM_DEVICES);
        assert_eq!(n, 1u32.to_ne_bytes());
        let (_, devs) = context_info(c, CL_CONTEXT_DEVICES);
        assert_eq!(words(&devs), vec![d as isize]);
        assert_eq!(context_info(c, 0x1234).0, CL_INVALID_VALUE);
        release_context(c);
        // From type.
        let c = clCreateContextFromType(
            ptr::null(),
            CL_DEVICE_TYPE_ALL,
            None,
            ptr::null_mut(),
            &mut rc,
        );
        assert_eq!(rc, CL_SUCCESS);
        release_context(c);
        let c = clCreateContextFromType(
            ptr::null(),
            CL_DEVICE_TYPE_DEFAULT,
            None,
            ptr::null_mut(),
            &mut rc,
        );
        assert_eq!(rc, CL_SUCCESS);
        release_context(c);
        clCreateContextFromType(
            ptr::null(),
            CL_DEVICE_TYPE_GPU,
            None,
            ptr::null_mut(),
            &mut rc,
        );
        assert_eq!(rc, CL_DEVICE_NOT_FOUND);
        clCreateContextFromType(ptr::null(), 1 << 40, None, ptr::null_mut(), &mut rc);
        assert_eq!(rc, CL_INVALID_DEVICE_TYPE);
        clCreateContextFromType(
            ptr::null(),
            CL_DEVICE_TYPE_CPU,
            None,
            8 as *mut c_void,
            &mut rc,
        );
        assert_eq!(rc, CL_INVALID_VALUE);
    }
}

/// (context, user data) of each destructor callback.
static DESTROYED: Mutex<Vec<(usize, usize)>> = Mutex::new(Vec::new());
unsafe extern "C" fn destroyed(c: cl_context, data: *mut c_void) {
    DESTROYED.lock().unwrap().push((c as usize, data as usize));
}

#[test]
fn destructor_callbacks_run_in_reverse_when_the_last_object_goes() {
    let c = context();
    for tag in [11usize, 12, 13] {
        // SAFETY: valid context and callback.
        assert_eq!(
            unsafe { clSetContextDestructorCallback(c, Some(destroyed), tag as *mut c_void) },
            CL_SUCCESS
        );
    }
    // SAFETY: NULL callback is an error.
    assert_eq!(
        unsafe { clSetContextDestructorCallback(c, None, ptr::null_mut()) },
        CL_INVALID_VALUE
    );
    // SAFETY: plain calls.
    unsafe {
        assert_eq!(clRetainContext(c), CL_SUCCESS);
        let (_, rc) = context_info(c, CL_CONTEXT_REFERENCE_COUNT);
        assert_eq!(rc, 2u32.to_ne_bytes());
        assert_eq!(clReleaseContext(c), CL_SUCCESS);
    }
    // A queue holds the context: released by the user, it is not destroyed.
    let q = queue(c, 0);
    let gate = user_event(c);
    let m = marker(q, &[gate]);
    release_context(c);
    release_queue(q);
    let mine = || {
        let calls = DESTROYED.lock().unwrap();
        // The callback receives the context's own handle.
        calls
            .iter()
            .filter(|d| d.0 == c as usize)
            .map(|d| d.1)
            .collect::<Vec<_>>()
    };
    assert!(mine().is_empty(), "destroyed while objects remain");
    // Still alive (the marker and the user event hold it), the context may
    // be retained again through its handle (as a query such as
    // `CL_EVENT_CONTEXT` gives it) and released: nothing is destroyed.
    // SAFETY: plain calls on a live context.
    unsafe {
        assert_eq!(clRetainContext(c), CL_SUCCESS);
        assert_eq!(clReleaseContext(c), CL_SUCCESS);
    }
    assert!(mine().is_empty(), "destroyed while objects remain");
    set_status(gate, CL_COMPLETE);
    assert_eq!(wait(&[m]), CL_SUCCESS);
    release_event(m);
    assert!(mine().is_empty());
    release_event(gate);
    assert_eq!(mine(), vec![13, 12, 11]);
}

fn create_queue(c: cl_context, props: &[cl_queue_properties]) -> (cl_command_queue, cl_int) {
    let mut rc = 0;
    let p = if props.is_empty() {
        ptr::null()
    } else {
        props.as_ptr()
    };
    // SAFETY: valid handles; `p` NULL or a terminated list.
    let q = unsafe { clCreateCommandQueueWithProperties(c, device(), p, &mut rc) };
    (q, rc)
}

fn queue_info(q: cl_command_queue, param: cl_command_queue_info) -> (cl_int, Vec<u8>) {
    let mut buf = vec![0u8; 64];
    let mut size = 0;
    // SAFETY: 64 bytes of room.
    let rc =
        unsafe { clGetCommandQueueInfo(q, param, 64, buf.as_mut_ptr() as *mut c_void, &mut size) };
    buf.truncate(size);
    (rc, buf)
}

#[test]
fn queue_properties_and_info() {
    let c = context();
    let props = CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
    let list = [CL_QUEUE_PROPERTIES as u64, props, 0];
    let (q, rc) = create_queue(c, &list);
    assert_eq!(rc, CL_SUCCESS);
    assert_eq!(queue_info(q, CL_QUEUE_PROPERTIES).1, props.to_ne_bytes());
    let array: Vec<u8> = list.iter().flat_map(|v| v.to_ne_bytes()).collect();
    assert_eq!(queue_info(q, CL_QUEUE_PROPERTIES_ARRAY).1, array);
    assert_eq!(
        queue_info(q, CL_QUEUE_CONTEXT).1,
        (c as usize).to_ne_bytes()
    );
    assert_eq!(
        queue_info(q, CL_QUEUE_DEVICE).1,
        (device() as usize).to_ne_bytes()
    );
    assert_eq!(
        queue_info(q, CL_QUEUE_REFERENCE_COUNT).1,
        1u32.to_ne_bytes()
    );
    assert_eq!(
        queue_info(q, CL_QUEUE_DEVICE_DEFAULT).1,
        0usize.to_ne_bytes()
    );
    assert_eq!(queue_info(q, CL_QUEUE_SIZE).0, CL_INVALID_COMMAND_QUEUE);
    assert_eq!(queue_info(q, 0x4242).0, CL_INVALID_VALUE);
    // SAFETY: plain calls on a valid queue.
    unsafe {
        assert_eq!(clFlush(q), CL_SUCCESS);
        assert_eq!(clFinish(q), CL_SUCCESS);
        let mut old = 0;
        assert_eq!(
            clSetCommandQueueProperty(q, CL_QUEUE_PROFILING_ENABLE, CL_FALSE, &mut old),
            CL_INVALID_OPERATION
        );
        assert_eq!(
            clSetDefaultDeviceCommandQueue(c, device(), q),
            CL_INVALID_OPERATION
        );
        assert_eq!(clFlush(ptr::null_mut()), CL_INVALID_COMMAND_QUEUE);
        assert_eq!(clFinish(c as cl_command_queue), CL_INVALID_COMMAND_QUEUE);
    }
    release_queue(q);
    // NULL properties: in-order, PROPERTIES_ARRAY empty.
    let (q, rc) = create_queue(c, &[]);
    assert_eq!(rc, CL_SUCCESS);
    assert_eq!(queue_info(q, CL_QUEUE_PROPERTIES).1, 0u64.to_ne_bytes());
    assert_eq!(
        queue_info(q, CL_QUEUE_PROPERTIES_ARRAY),
        (CL_SUCCESS, vec![])
    );
    release_queue(q);
    // Errors: valid but unsupported; not valid.
    let on_device = CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
    assert_eq!(
        create_queue(c, &[CL_QUEUE_PROPERTIES as u64, on_device, 0]).1,
        CL_INVALID_QUEUE_PROPERTIES
    );
    assert_eq!(
        create_queue(c, &[CL_QUEUE_PROPERTIES as u64, CL_QUEUE_ON_DEVICE, 0]).1,
        CL_INVALID_VALUE
    );
    assert_eq!(
        create_queue(
            c,
            &[CL_QUEUE_PROPERTIES as u64, CL_QUEUE_ON_DEVICE_DEFAULT, 0]
        )
        .1,
        CL_INVALID_VALUE
    );
    assert_eq!(
        create_queue(c, &[CL_QUEUE_SIZE as u64, 1024, 0]).1,
        CL_INVALID_VALUE
    );
    assert_eq!(
        create_queue(c, &[CL_QUEUE_PROPERTIES as u64, 1 << 20, 0]).1,
        CL_INVALID_VALUE
    );
    assert_eq!(create_queue(c, &[0x9999, 0, 0]).1, CL_INVALID_VALUE);
    let mut rc = 0;
    // SAFETY: deliberately bad handles, validated before use.
    unsafe {
        clCreateCommandQueueWithProperties(ptr::null_mut(), device(), ptr::null(), &mut rc);
        assert_eq!(rc, CL_INVALID_CONTEXT);
        clCreateCommandQueueWithProperties(c, c as cl_device_id, ptr::null(), &mut rc);
        assert_eq!(rc, CL_INVALID_DEVICE);
        // Legacy call.
        let q = clCreateCommandQueue(c, device(), CL_QUEUE_PROFILING_ENABLE, &mut rc);
        assert_eq!(rc, CL_SUCCESS);
        assert_eq!(
            queue_info(q, CL_QUEUE_PROPERTIES_ARRAY),
            (CL_SUCCESS, vec![])
        );
        assert_eq!(
            queue_info(q, CL_QUEUE_PROPERTIES).1,
            CL_QUEUE_PROFILING_ENABLE.to_ne_bytes()
        );
        release_queue(q);
        clCreateCommandQueue(c, device(), CL_QUEUE_ON_DEVICE, &mut rc);
        assert_eq!(rc, CL_INVALID_VALUE);
    }
    release_context(c);
}
