//! Shared virtual memory. SVM is optional in OpenCL 3.0 and the device reports
//! no SVM capabilities (`CL_DEVICE_SVM_CAPABILITIES` = 0), so these answer as
//! the spec says for such a device.

#![allow(non_snake_case, clippy::missing_safety_doc)]

use super::prelude::*;
use crate::core::objects::Kernel;

#[no_mangle]
pub unsafe extern "C" fn clSVMAlloc(
    _context: cl_context,
    _flags: cl_svm_mem_flags,
    _size: size_t,
    _alignment: cl_uint,
) -> *mut c_void {
    // clSVMAlloc fails (returns NULL) if no device in the context supports SVM.
    ptr::null_mut()
}

#[no_mangle]
pub unsafe extern "C" fn clSVMFree(_context: cl_context, _svm_pointer: *mut c_void) {
    // No SVM allocation can exist, and a NULL pointer is a no-op: nothing to free.
}

#[no_mangle]
pub unsafe extern "C" fn clSetKernelArgSVMPointer(
    kernel: cl_kernel,
    _arg_index: cl_uint,
    _arg_value: *const c_void,
) -> cl_int {
    api_call(|| {
        // CL_INVALID_KERNEL if kernel is not a valid kernel object.
        Obj::<Kernel>::get(kernel)?;
        // CL_INVALID_OPERATION if no devices in the context associated with
        // kernel support SVM.
        err(
            CL_INVALID_OPERATION,
            "the device does not support shared virtual memory",
        )
    })
}
