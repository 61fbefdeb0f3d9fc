//! Kernel objects: create, arguments, info, work-group info. Each entry point
//! checks its arguments in the order of the spec's error list (the spec's
//! sentence above each check); the argument values live in `core::kernel`.

#![allow(non_snake_case, clippy::missing_safety_doc)]

use super::mem::mem_in_context;
use super::prelude::*;
use super::program::built_executable;
use crate::core::device::{self as dev, Device};
use crate::core::kernel::{ArgValue, Kernel};
use crate::core::program::Program;
use cranecl_jit::launch::ArgKind;
use std::ffi::CStr;

fn create_kernel(program: cl_program, kernel_name: *const c_char) -> CLResult<cl_kernel> {
    // CL_INVALID_PROGRAM if program is not a valid program object.
    let p = Obj::<Program>::get(program)?;
    // CL_INVALID_PROGRAM_EXECUTABLE if there is no successfully built executable for program.
    let exe = built_executable(&p)?;
    // CL_INVALID_VALUE if kernel_name is NULL.
    check(
        !kernel_name.is_null(),
        CL_INVALID_VALUE,
        "kernel_name is NULL",
    )?;
    // SAFETY: a NUL-terminated string (the API's contract).
    let name = unsafe { CStr::from_ptr(kernel_name) }.to_string_lossy();
    // CL_INVALID_KERNEL_NAME if kernel_name is not found in program.
    let Some(index) = exe.code.kernel_index(&name) else {
        return err(
            CL_INVALID_KERNEL_NAME,
            format!("no kernel named '{name}' in the program"),
        );
    };
    Ok(Obj::into_handle(Kernel::new(p, exe, index)))
}

#[no_mangle]
pub unsafe extern "C" fn clCreateKernel(
    program: cl_program,
    kernel_name: *const c_char,
    errcode_ret: *mut cl_int,
) -> cl_kernel {
    // SAFETY: errcode_ret is the caller's (the API's contract).
    unsafe {
        api_create(errcode_ret, ptr::null_mut(), || {
            create_kernel(program, kernel_name)
        })
    }
}

fn create_kernels_in_program(
    program: cl_program,
    num_kernels: cl_uint,
    kernels: *mut cl_kernel,
    num_kernels_ret: *mut cl_uint,
) -> CLResult<()> {
    // CL_INVALID_PROGRAM if program is not a valid program object.
    let p = Obj::<Program>::get(program)?;
    // CL_INVALID_PROGRAM_EXECUTABLE if there is no successfully built
    // executable for any device in program.
    let exe = built_executable(&p)?;
    let n = exe.code.kernels().len();
    // CL_INVALID_VALUE if kernels is not NULL and num_kernels is less than the
    // number of kernels in program.
    check(
        kernels.is_null() || num_kernels as usize >= n,
        CL_INVALID_VALUE,
        "num_kernels is less than the number of kernels in the program",
    )?;
    if !kernels.is_null() {
        for i in 0..n {
            let k = Obj::into_handle(Kernel::new(p.clone(), exe.clone(), i));
            // SAFETY: the caller gave num_kernels >= n writable entries.
            unsafe { kernels.add(i).write(k) };
        }
    }
    if !num_kernels_ret.is_null() {
        // SAFETY: a non-NULL num_kernels_ret points at a cl_uint.
        unsafe { num_kernels_ret.write(n as cl_uint) };
    }
    Ok(())
}

#[no_mangle]
pub unsafe extern "C" fn clCreateKernelsInProgram(
    program: cl_program,
    num_kernels: cl_uint,
    kernels: *mut cl_kernel,
    num_kernels_ret: *mut cl_uint,
) -> cl_int {
    api_call(|| create_kernels_in_program(program, num_kernels, kernels, num_kernels_ret))
}

#[no_mangle]
pub unsafe extern "C" fn clRetainKernel(kernel: cl_kernel) -> cl_int {
    api_call(|| Obj::<Kernel>::retain(kernel))
}

#[no_mangle]
pub unsafe extern "C" fn clReleaseKernel(kernel: cl_kernel) -> cl_int {
    api_call(|| Obj::<Kernel>::release(kernel).map(|_| ()))
}

/// The kernel and its argument `arg_index`, or CL_INVALID_ARG_INDEX.
fn kernel_arg(kernel: cl_kernel, arg_index: cl_uint) -> CLResult<(Arc<Obj<Kernel>>, usize)> {
    // CL_INVALID_KERNEL if kernel is not a valid kernel.
    let k = Obj::<Kernel>::get(kernel)?;
    // CL_INVALID_ARG_INDEX if arg_index is not a valid argument index.
    let i = arg_index as usize;
    if i >= k.info().args.len() {
        return err(
            CL_INVALID_ARG_INDEX,
            format!(
                "argument index {arg_index}, kernel '{}' has {} arguments",
                k.info().name,
                k.info().args.len()
            ),
        );
    }
    Ok((k, i))
}

fn set_kernel_arg(
    kernel: cl_kernel,
    arg_index: cl_uint,
    arg_size: size_t,
    arg_value: *const c_void,
) -> CLResult<()> {
    let (k, i) = kernel_arg(kernel, arg_index)?;
    let arg = &k.info().args[i];
    let value = match arg.kind {
        // If the argument is a pointer to the global or constant address
        // space, arg_value must point to a buffer memory object or NULL, or
        // arg_value must be NULL; then the argument is a NULL pointer.
        ArgKind::GlobalPtr | ArgKind::ConstantPtr => {
            if arg_value.is_null() {
                ArgValue::Mem(None)
            } else {
                // CL_INVALID_ARG_SIZE if arg_value points to a memory object
                // and arg_size is not equal to sizeof(cl_mem).
                check(
                    arg_size == std::mem::size_of::<cl_mem>(),
                    CL_INVALID_ARG_SIZE,
                    "a buffer argument's size must be sizeof(cl_mem)",
                )?;
                // SAFETY: arg_value points at arg_size == sizeof(cl_mem)
                // readable bytes (the API's contract).
                let h = unsafe { (arg_value as *const cl_mem).read_unaligned() };
                if h.is_null() {
                    ArgValue::Mem(None)
                } else {
                    // CL_INVALID_MEM_OBJECT if arg_value does not point to a
                    // valid memory object. CL_INVALID_CONTEXT if the context
                    // associated with kernel and an OpenCL object pointed to
                    // by arg_value are not the same.
                    let m = mem_in_context(k.context(), h, "the argument's memory object")?;
                    // A pointer argument takes a buffer, not an image.
                    if m.image().is_some() {
                        return err(
                            CL_INVALID_MEM_OBJECT,
                            format!("argument {i} is a pointer, and the memory object given is an image"),
                        );
                    }
                    ArgValue::Mem(Some(std::sync::Arc::downgrade(&m)))
                }
            }
        }
        // If the argument is a pointer to the local address space, arg_value
        // must be NULL and arg_size is the memory to allocate.
        ArgKind::LocalPtr => {
            check(
                arg_value.is_null(),
                CL_INVALID_ARG_VALUE,
                "a local pointer argument takes a NULL arg_value",
            )?;
            // CL_INVALID_ARG_SIZE if the argument is a pointer to the local
            // address space and arg_size is zero.
            check(
                arg_size != 0,
                CL_INVALID_ARG_SIZE,
                "a local pointer argument needs arg_size > 0",
            )?;
            ArgValue::Local(arg_size as u64)
        }
        ArgKind::Value { size, .. } => {
            // CL_INVALID_ARG_SIZE if arg_size does not match the size of the
            // data type for the argument.
            if arg_size != size as usize {
                return err(
                    CL_INVALID_ARG_SIZE,
                    format!(
                        "argument {i} ('{}' of type {}) takes {size} bytes, not {arg_size}",
                        arg.name, arg.type_name
                    ),
                );
            }
            check(
                !arg_value.is_null(),
                CL_INVALID_ARG_VALUE,
                "arg_value is NULL for an argument passed by value",
            )?;
            // SAFETY: arg_value points at arg_size readable bytes.
            let b = unsafe { std::slice::from_raw_parts(arg_value as *const u8, arg_size) };
            // Into the bytes already held where it can (no allocation when
            // the argument is set again before each launch).
            k.set_bytes(i, b);
            return Ok(());
        }
        ArgKind::Image => {
            // CL_INVALID_ARG_SIZE if arg_size is not sizeof(cl_mem) for an
            // argument that is a memory object.
            check(
                arg_size == std::mem::size_of::<cl_mem>(),
                CL_INVALID_ARG_SIZE,
                "an image argument's size must be sizeof(cl_mem)",
            )?;
            // CL_INVALID_ARG_VALUE if arg_value is NULL for an image.
            check(
                !arg_value.is_null(),
                CL_INVALID_ARG_VALUE,
                "arg_value is NULL for an image argument",
            )?;
            // SAFETY: arg_value points at sizeof(cl_mem) readable bytes.
            let h = unsafe { (arg_value as *const cl_mem).read_unaligned() };
            // CL_INVALID_MEM_OBJECT if arg_value is not a valid image object.
            let m = mem_in_context(k.context(), h, "the argument's image")?;
            if m.image().is_none() {
                return err(
                    CL_INVALID_MEM_OBJECT,
                    format!("argument {i} is an image, and the memory object given is a buffer"),
                );
            }
            // CL_INVALID_ARG_VALUE if the image argument is declared
            // read_only and the image was created with CL_MEM_WRITE_ONLY, or
            // declared write_only and created with CL_MEM_READ_ONLY.
            let f = m.flags();
            let clash = (arg.access_qualifier == CL_KERNEL_ARG_ACCESS_READ_ONLY
                && f & CL_MEM_WRITE_ONLY != 0)
                || (arg.access_qualifier == CL_KERNEL_ARG_ACCESS_WRITE_ONLY
                    && f & CL_MEM_READ_ONLY != 0);
            check(
                !clash,
                CL_INVALID_ARG_VALUE,
                "the image's CL_MEM_READ_ONLY/WRITE_ONLY flag contradicts the argument's access qualifier",
            )?;
            ArgValue::Mem(Some(std::sync::Arc::downgrade(&m)))
        }
        ArgKind::Sampler => {
            // CL_INVALID_ARG_SIZE if arg_size is not sizeof(cl_sampler).
            check(
                arg_size == std::mem::size_of::<cl_sampler>(),
                CL_INVALID_ARG_SIZE,
                "a sampler argument's size must be sizeof(cl_sampler)",
            )?;
            // CL_INVALID_SAMPLER if arg_value is not a valid sampler object.
            check(
                !arg_value.is_null(),
                CL_INVALID_SAMPLER,
                "arg_value is NULL for a sampler argument",
            )?;
            // SAFETY: arg_value points at sizeof(cl_sampler) readable bytes.
            let h = unsafe { (arg_value as *const cl_sampler).read_unaligned() };
            let smp = Obj::<crate::core::objects::Sampler>::get(h)?;
            // The kernel receives the sampler's CLK_* bits by value.
            k.set_bytes(i, &smp.bits().to_le_bytes());
            return Ok(());
        }
        // Events and other kinds a kernel cannot take.
        ArgKind::Unsupported => {
            return err(
                CL_INVALID_ARG_VALUE,
                format!(
                    "argument {i} is a {}, which a kernel cannot be given",
                    arg.type_name
                ),
            );
        }
    };
    k.set_arg(i, value);
    Ok(())
}

#[no_mangle]
pub unsafe extern "C" fn clSetKernelArg(
    kernel: cl_kernel,
    arg_index: cl_uint,
    arg_size: size_t,
    arg_value: *const c_void,
) -> cl_int {
    api_call(|| set_kernel_arg(kernel, arg_index, arg_size, arg_value))
}

fn kernel_info(kernel: cl_kernel, param: cl_kernel_info, out: InfoOut) -> CLResult<()> {
    // CL_INVALID_KERNEL if kernel is a not a valid kernel object.
    let k = Obj::<Kernel>::get(kernel)?;
    let info = k.info();
    match param {
        CL_KERNEL_FUNCTION_NAME => out.string(&info.name),
        CL_KERNEL_NUM_ARGS => out.value::<cl_uint>(info.args.len() as cl_uint),
        CL_KERNEL_REFERENCE_COUNT => out.value::<cl_uint>(k.ref_count()),
        CL_KERNEL_CONTEXT => out.value(Obj::handle(k.context())),
        CL_KERNEL_PROGRAM => out.value(Obj::handle(k.program())),
        CL_KERNEL_ATTRIBUTES => out.string(&info.attributes),
        _ => err(CL_INVALID_VALUE, format!("unknown kernel info 0x{param:x}")),
    }
}

info_entry_points! {
    fn clGetKernelInfo(kernel: cl_kernel, param_name: cl_kernel_info) = kernel_info;
}

/// CL_INVALID_DEVICE if device is not in the list of devices associated with
/// kernel or if device is NULL but there is more than one device associated
/// with kernel.
fn check_kernel_device(k: &Kernel, device: cl_device_id) -> CLResult<()> {
    match Obj::<Device>::get_opt(device)? {
        None => check(
            k.program().devices().len() == 1,
            CL_INVALID_DEVICE,
            "device is NULL and the kernel has several devices",
        ),
        Some(d) => check(
            k.program().has_device(&d),
            CL_INVALID_DEVICE,
            "device is not associated with the kernel",
        ),
    }
}

/// `CL_KERNEL_WORK_GROUP_SIZE`: the kernel's own limit, within the device's
/// (a profile's `max_work_group_size`).
pub fn kernel_work_group_size(k: &Kernel) -> usize {
    (k.info().max_work_group_size as usize).min(dev::limits().max_work_group_size)
}

fn kernel_work_group_info(
    kernel: cl_kernel,
    device: cl_device_id,
    param: cl_kernel_work_group_info,
    out: InfoOut,
) -> CLResult<()> {
    // CL_INVALID_KERNEL if kernel is a not a valid kernel object.
    let k = Obj::<Kernel>::get(kernel)?;
    check_kernel_device(&k, device)?;
    let info = k.info();
    match param {
        // CL_INVALID_VALUE if param_name is CL_KERNEL_GLOBAL_WORK_SIZE and
        // kernel is not a built-in kernel.
        CL_KERNEL_GLOBAL_WORK_SIZE => err(
            CL_INVALID_VALUE,
            "CL_KERNEL_GLOBAL_WORK_SIZE is only for built-in kernels",
        ),
        CL_KERNEL_WORK_GROUP_SIZE => out.value::<usize>(kernel_work_group_size(&k)),
        CL_KERNEL_COMPILE_WORK_GROUP_SIZE => {
            let r = info.reqd_work_group_size.unwrap_or([0; 3]);
            out.slice(&r.map(|v| v as usize))
        }
        CL_KERNEL_LOCAL_MEM_SIZE => out.value::<cl_ulong>(k.local_mem_size()),
        CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE => {
            out.value::<usize>(dev::limits().preferred_work_group_size_multiple)
        }
        CL_KERNEL_PRIVATE_MEM_SIZE => out.value::<cl_ulong>(info.private_mem_size),
        _ => err(
            CL_INVALID_VALUE,
            format!("unknown kernel work-group info 0x{param:x}"),
        ),
    }
}

info_entry_points! {
    fn clGetKernelWorkGroupInfo(
        kernel: cl_kernel,
        device: cl_device_id,
        param_name: cl_kernel_work_group_info,
    ) = kernel_work_group_info;
}

fn kernel_arg_info(
    kernel: cl_kernel,
    arg_index: cl_uint,
    param: cl_kernel_arg_info,
    out: InfoOut,
) -> CLResult<()> {
    let (k, i) = kernel_arg(kernel, arg_index)?;
    // CL_INVALID_VALUE if param_name is not one of the supported values.
    check(
        matches!(
            param,
            CL_KERNEL_ARG_ADDRESS_QUALIFIER
                | CL_KERNEL_ARG_ACCESS_QUALIFIER
                | CL_KERNEL_ARG_TYPE_NAME
                | CL_KERNEL_ARG_TYPE_QUALIFIER
                | CL_KERNEL_ARG_NAME
        ),
        CL_INVALID_VALUE,
        "unknown kernel argument info",
    )?;
    // CL_KERNEL_ARG_INFO_NOT_AVAILABLE if the argument information is not
    // available for kernel (built without -cl-kernel-arg-info).
    check(
        k.executable().kernel_arg_info,
        CL_KERNEL_ARG_INFO_NOT_AVAILABLE,
        "argument information needs the -cl-kernel-arg-info build option",
    )?;
    let a = &k.info().args[i];
    match param {
        CL_KERNEL_ARG_ADDRESS_QUALIFIER => {
            out.value::<cl_kernel_arg_address_qualifier>(a.address_qualifier)
        }
        CL_KERNEL_ARG_ACCESS_QUALIFIER => {
            out.value::<cl_kernel_arg_access_qualifier>(a.access_qualifier)
        }
        CL_KERNEL_ARG_TYPE_NAME => out.string(&a.type_name),
        CL_KERNEL_ARG_TYPE_QUALIFIER => {
            // A cl_bitfield in the C headers (opencl-sys says cl_uint).
            out.value::<cl_bitfield>(a.type_qualifier)
        }
        _ => out.string(&a.name),
    }
}

info_entry_points! {
    fn clGetKernelArgInfo(
        kernel: cl_kernel,
        arg_index: cl_uint,
        param_name: cl_kernel_arg_info,
    ) = kernel_arg_info;
}

fn set_kernel_exec_info(
    kernel: cl_kernel,
    param: cl_kernel_exec_info,
    size: size_t,
    value: *const c_void,
) -> CLResult<()> {
    // CL_INVALID_KERNEL if kernel is a not a valid kernel object.
    let k = Obj::<Kernel>::get(kernel)?;
    // (CL_INVALID_OPERATION for either name without SVM, or without
    // fine-grain system SVM: the device has both.)
    // CL_INVALID_VALUE if param_value is NULL and param_value_size is
    // greater than zero.
    check(
        !(value.is_null() && size > 0),
        CL_INVALID_VALUE,
        "param_value is NULL and param_value_size is not 0",
    )?;
    match param {
        CL_KERNEL_EXEC_INFO_SVM_PTRS => {
            // CL_INVALID_VALUE if the size specified by param_value_size is
            // not valid: a whole number of pointers.
            let word = std::mem::size_of::<*const c_void>();
            check(
                size.is_multiple_of(word),
                CL_INVALID_VALUE,
                &format!(
                    "CL_KERNEL_EXEC_INFO_SVM_PTRS takes an array of pointers, not {size} bytes"
                ),
            )?;
            let ptrs = if value.is_null() {
                Vec::new()
            } else {
                // SAFETY: value points at size bytes: size / word pointers.
                unsafe { std::slice::from_raw_parts(value as *const usize, size / word) }.to_vec()
            };
            // The complete set: it replaces any earlier one.
            k.set_svm_ptrs(ptrs);
            Ok(())
        }
        CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM => {
            // CL_INVALID_VALUE if the size specified by param_value_size is
            // not valid.
            check(
                !value.is_null() && size == std::mem::size_of::<cl_bool>(),
                CL_INVALID_VALUE,
                "CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM takes a cl_bool",
            )?;
            // SAFETY: value points at a cl_bool (size checked).
            let on = unsafe { (value as *const cl_bool).read_unaligned() } != CL_FALSE;
            k.set_fine_grain_system(on);
            Ok(())
        }
        // CL_INVALID_VALUE if param_name is not valid.
        _ => err(
            CL_INVALID_VALUE,
            format!("unknown kernel exec info 0x{param:x}"),
        ),
    }
}

#[no_mangle]
pub unsafe extern "C" fn clSetKernelExecInfo(
    kernel: cl_kernel,
    param_name: cl_kernel_exec_info,
    param_value_size: size_t,
    param_value: *const c_void,
) -> cl_int {
    api_call(|| set_kernel_exec_info(kernel, param_name, param_value_size, param_value))
}

/// The sub-group size: four consecutive local linear ids.
const SUB_GROUP_SIZE: usize = cranecl_jit::launch::SUB_GROUP_SIZE as usize;

/// The local size an `input_value` of `CL_KERNEL_*_FOR_NDRANGE` gives: an
/// array of one to three `size_t`.
fn local_size_input(size: usize, value: *const c_void) -> CLResult<Vec<usize>> {
    let word = std::mem::size_of::<usize>();
    // CL_INVALID_VALUE if param_name is CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE
    // or CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE and the size in bytes specified
    // by input_value_size is not valid or if input_value is NULL.
    check(!value.is_null(), CL_INVALID_VALUE, "input_value is NULL")?;
    check(
        size.is_multiple_of(word) && (1..=3).contains(&(size / word)),
        CL_INVALID_VALUE,
        "input_value_size is not one to three size_t",
    )?;
    // SAFETY: `value` holds `size` bytes (the caller's contract), checked to
    // be one to three `size_t`.
    let v = unsafe { std::slice::from_raw_parts(value as *const usize, size / word) };
    Ok(v.to_vec())
}

/// `clGetKernelSubGroupInfo[KHR]`: sub-groups are four consecutive local
/// linear ids, the last of a work-group possibly smaller.
#[allow(clippy::too_many_arguments)]
fn kernel_sub_group_info(
    kernel: cl_kernel,
    device: cl_device_id,
    param: cl_kernel_sub_group_info,
    input_size: usize,
    input: *const c_void,
    out: InfoOut,
    param_value_size: usize,
    param_value: *mut c_void,
) -> CLResult<()> {
    // CL_INVALID_KERNEL if kernel is a not a valid kernel object.
    let k = Obj::<Kernel>::get(kernel)?;
    // CL_INVALID_DEVICE if device is not in the list of devices associated
    // with kernel or if device is NULL but there is more than one device
    // associated with kernel.
    check_kernel_device(&k, device)?;
    let max_groups = kernel_work_group_size(&k).div_ceil(SUB_GROUP_SIZE);
    match param {
        CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE | CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE => {
            let items: usize = local_size_input(input_size, input)?.iter().product();
            out.value::<usize>(if param == CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE {
                items.min(SUB_GROUP_SIZE)
            } else {
                items.div_ceil(SUB_GROUP_SIZE)
            })
        }
        CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT => {
            let word = std::mem::size_of::<usize>();
            // CL_INVALID_VALUE if param_name is
            // CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT and the size in bytes
            // specified by input_value_size is not valid or if input_value
            // is NULL.
            check(
                !input.is_null() && input_size == word,
                CL_INVALID_VALUE,
                "CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT takes one size_t",
            )?;
            // SAFETY: `input` holds one `size_t` (checked above).
            let count = unsafe { (input as *const usize).read_unaligned() };
            // The answer has as many dimensions as param_value_size holds.
            let dims = if param_value.is_null() {
                3
            } else {
                // CL_INVALID_VALUE if param_value_size is < size of the return
                // type: one to three size_t here.
                check(
                    param_value_size >= word,
                    CL_INVALID_VALUE,
                    "param_value_size is less than one size_t",
                )?;
                (param_value_size / word).min(3)
            };
            // One dimension of `count` full sub-groups, the others 1; zeros
            // when no work-group of the kernel holds that many.
            let x = count.saturating_mul(SUB_GROUP_SIZE);
            let fits =
                count > 0 && count <= max_groups && x <= dev::limits().max_work_item_sizes[0];
            let mut local = vec![usize::from(fits); dims];
            local[0] = if fits { x } else { 0 };
            out.slice(&local)
        }
        CL_KERNEL_MAX_NUM_SUB_GROUPS => out.value::<usize>(max_groups),
        // No kernel attribute sets a number of sub-groups in OpenCL C.
        CL_KERNEL_COMPILE_NUM_SUB_GROUPS => out.value::<usize>(0),
        // CL_INVALID_VALUE if param_name is not valid.
        _ => err(
            CL_INVALID_VALUE,
            format!("unknown kernel sub-group info 0x{param:x}"),
        ),
    }
}

entry_family! {
    (
        kernel: cl_kernel,
        device: cl_device_id,
        param_name: cl_kernel_sub_group_info,
        input_value_size: size_t,
        input_value: *const c_void,
        param_value_size: size_t,
        param_value: *mut c_void,
        param_value_size_ret: *mut size_t,
    ) -> cl_int;
    clGetKernelSubGroupInfo => api_call(|| kernel_sub_group_info(
        kernel, device, param_name, input_value_size, input_value,
        InfoOut::new(param_value_size, param_value, param_value_size_ret),
        param_value_size, param_value,
    ));
    clGetKernelSubGroupInfoKHR => api_call(|| kernel_sub_group_info(
        kernel, device, param_name, input_value_size, input_value,
        InfoOut::new(param_value_size, param_value, param_value_size_ret),
        param_value_size, param_value,
    ));
}

#[no_mangle]
pub unsafe extern "C" fn clCloneKernel(
    source_kernel: cl_kernel,
    errcode_ret: *mut cl_int,
) -> cl_kernel {
    // SAFETY: errcode_ret is the caller's (the API's contract).
    unsafe {
        api_create(errcode_ret, ptr::null_mut(), || {
            // CL_INVALID_KERNEL if kernel is not a valid kernel object.
            let k = Obj::<Kernel>::get(source_kernel)?;
            Ok(Obj::into_handle(k.clone_kernel()))
        })
    }
}
