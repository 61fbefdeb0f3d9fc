//! `clEnqueueNDRangeKernel` and `clEnqueueTask`: check the launch in the
//! order of the spec's error list, choose a work-group size when the user
//! gives none (the answer of `clGetKernelSuggestedLocalWorkSizeKHR` too),
//! capture the kernel's arguments (the argument block, and the memory
//! objects it points into, kept alive until the command completes), and
//! enqueue the launch (`exec::ndrange` runs it). The checks after the
//! kernel's and the capture are [`plan_launch`], which a command-buffer's
//! `clCommandNDRangeKernelKHR` makes too.

#![allow(non_snake_case, clippy::missing_safety_doc)]

use super::kernel::kernel_work_group_size;
use super::prelude::*;
use crate::core::device::{self as dev, Device};
use crate::core::kernel::{Captured, Kernel};
use crate::core::queue::Queue;
use crate::exec::api_check::{Access, Usage};
use crate::exec::{self, ndrange::Launch};

/// Largest work-group we choose when the user gives no local size, for a
/// kernel with barriers or a loop that may wait for another work-item (each
/// work-item then has a frame or a coroutine).
const CHOSEN_GROUP_LIMIT: u64 = 256;
/// For a kernel without barriers, groups up to this size while the launch
/// still has [`GROUPS_PER_UNIT`] groups per compute unit: a group is one call
/// of a tight loop, and bigger groups spend less per work-item on the calls
/// (measured: triad over 64M floats on 2 cores, 256 -> 1024 items per group
/// took it from 32 ms to 26 ms).
const CHOSEN_LOOP_GROUP_LIMIT: u64 = 1024;
/// Groups per compute unit a larger chosen group must leave, to balance load.
const GROUPS_PER_UNIT: u64 = 8;

/// The group-size limit for a launch with a NULL local size.
fn chosen_group_limit(global: &[u64; 3], barriers: bool, units: u64) -> u64 {
    if barriers {
        return CHOSEN_GROUP_LIMIT;
    }
    let items: u64 = global.iter().product();
    let mut limit = CHOSEN_LOOP_GROUP_LIMIT;
    while limit > CHOSEN_GROUP_LIMIT && items / limit < GROUPS_PER_UNIT * units {
        limit /= 2;
    }
    limit
}

/// A user array of `work_dim` sizes (NULL → `None`), unused dimensions 1 (or
/// `fill`).
fn dims(p: *const size_t, work_dim: usize, fill: u64) -> Option<[u64; 3]> {
    if p.is_null() {
        return None;
    }
    let mut a = [fill; 3];
    for (d, v) in a.iter_mut().enumerate().take(work_dim) {
        // SAFETY: the caller gave work_dim entries at p (the API's contract).
        *v = unsafe { p.add(d).read() } as u64;
    }
    Some(a)
}

/// The largest divisor of `n` that is at most `cap`.
fn largest_divisor(n: u64, cap: u64) -> u64 {
    (1..=cap.min(n))
        .rev()
        .find(|&d| n.is_multiple_of(d))
        .unwrap_or(1)
}

/// A work-group size for a launch whose local size is NULL: groups of up to
/// `limit` items, filled from dimension 0, each dimension within the
/// device's `item_max` (`CL_DEVICE_MAX_WORK_ITEM_SIZES`); dividing the
/// global size when groups must be uniform (or when a divisor at least a
/// quarter of the limit exists), else the limit with a smaller last group.
fn choose_local_size(
    global: &[u64; 3],
    work_dim: usize,
    max: u64,
    limit: u64,
    item_max: [u64; 3],
    uniform: bool,
) -> [u64; 3] {
    let mut local = [1u64; 3];
    let mut rest = max.clamp(1, limit);
    for d in 0..work_dim {
        let g = global[d];
        let room = rest.min(item_max[d].max(1));
        let l = if g <= room {
            g
        } else {
            let div = largest_divisor(g, room);
            if uniform || div * 4 >= room {
                div
            } else {
                room
            }
        };
        local[d] = l.max(1);
        rest = (rest / local[d]).max(1);
    }
    local
}

/// A launch's queue and kernel, as the user's handles name them.
type LaunchObjects = (Arc<Obj<Queue>>, Arc<Obj<Kernel>>);

/// The checks a launch and `clGetKernelSuggestedLocalWorkSizeKHR` share,
/// in the spec's order: the queue, the kernel, their context, the kernel's
/// arguments and `work_dim`.
fn launch_objects(
    command_queue: cl_command_queue,
    kernel: cl_kernel,
    work_dim: cl_uint,
) -> CLResult<LaunchObjects> {
    // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue.
    let q = Obj::<Queue>::get(command_queue)?;
    let k = launch_kernel(&q, kernel, work_dim)?;
    Ok((q, k))
}

/// The checks of a launch after its queue (a command-buffer's
/// `clCommandNDRangeKernelKHR` makes them with the command-buffer's queue):
/// the kernel, its context, its arguments and `work_dim`.
pub fn launch_kernel(
    q: &Queue,
    kernel: cl_kernel,
    work_dim: cl_uint,
) -> CLResult<Arc<Obj<Kernel>>> {
    // CL_INVALID_KERNEL if kernel is not a valid kernel.
    let k = Obj::<Kernel>::get(kernel)?;
    // CL_INVALID_PROGRAM_EXECUTABLE if there is no successfully built program
    // executable available for the device: a kernel exists only for a built
    // program, and holds its executable.
    // CL_INVALID_CONTEXT if the context associated with command_queue and
    // kernel are not the same.
    check(
        Arc::ptr_eq(q.context(), k.context()),
        CL_INVALID_CONTEXT,
        "the kernel and the command queue belong to different contexts",
    )?;
    // CL_INVALID_KERNEL_ARGS if any kernel arguments for kernel have not been set.
    if let Some(i) = k.first_unset_arg() {
        let info = k.info();
        return err(
            CL_INVALID_KERNEL_ARGS,
            format!(
                "argument {i} ('{}') of kernel '{}' is not set",
                info.args[i].name, info.name
            ),
        );
    }
    // CL_INVALID_WORK_DIMENSION if work_dim is not valid for the device.
    if !(1..=3).contains(&work_dim) {
        return err(
            CL_INVALID_WORK_DIMENSION,
            format!("work_dim is {work_dim}; it must be 1, 2 or 3"),
        );
    }
    Ok(k)
}

#[allow(clippy::too_many_arguments)]
fn enqueue_ndrange(
    command_type: cl_command_type,
    command_queue: cl_command_queue,
    kernel: cl_kernel,
    work_dim: cl_uint,
    global_work_offset: *const size_t,
    global_work_size: *const size_t,
    local_work_size: *const size_t,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> CLResult<()> {
    let (q, k) = launch_objects(command_queue, kernel, work_dim)?;
    let (plan, captured) = plan_launch(
        &q,
        &k,
        work_dim,
        global_work_offset,
        global_work_size,
        local_work_size,
    )?;
    let wait = exec::validate_wait_list(q.context(), num_events_in_wait_list, event_wait_list)?;
    // A NULL global size, or a zero in it: the command trivially succeeds
    // once its dependencies are met (OpenCL 2.1 and newer devices).
    let Some(global) = plan.global else {
        let work = exec::Work::call(|| Ok(()));
        return exec::enqueue_command(
            &q,
            command_type,
            &wait,
            event,
            false,
            exec::Kind::Command,
            Some(work),
        );
    };
    let items = global[..work_dim as usize].iter().product::<u64>();
    let kind = if Launch::runs_inline(k.executable(), k.index(), items) {
        exec::Kind::Small
    } else {
        exec::Kind::Command
    };
    let launch = plan.launch(&k, captured, q.context().schedule_launch());
    let accesses = if q.context().checks().api {
        kernel_accesses(&k)
    } else {
        Vec::new()
    };
    exec::enqueue_using(
        &q,
        command_type,
        &wait,
        event,
        false,
        kind,
        Some(exec::Work::Launch(launch)),
        accesses,
    )
}

/// A launch checked against its queue's device and its kernel, with the
/// spec's errors of `clEnqueueNDRangeKernel` (from `CL_INVALID_GLOBAL_OFFSET`
/// on): the geometry, which [`LaunchPlan::launch`] joins with an argument
/// block to make the `exec::ndrange::Launch` that runs. A queue launches it
/// once; a command-buffer (`clCommandNDRangeKernelKHR`) on every replay.
pub struct LaunchPlan {
    device: Arc<Obj<Device>>,
    work_dim: u32,
    /// `None`: the global size is NULL or has a zero, nothing runs.
    global: Option<[u64; 3]>,
    offset: [u64; 3],
    local: [u64; 3],
}

impl LaunchPlan {
    /// Whether the launch runs no work-item.
    pub fn is_empty(&self) -> bool {
        self.global.is_none()
    }

    /// The launch of `k` with the arguments `captured` (taken from `k` or
    /// from a copy of it). Not for an empty plan.
    pub fn launch(
        &self,
        k: &Kernel,
        captured: Captured,
        schedule: Option<(cranecl_jit::runtime::schedule::Schedule, u64)>,
    ) -> Launch {
        Launch {
            device: self.device.clone(),
            exe: k.executable().clone(),
            kernel: k.index(),
            block: captured.block,
            keep: captured.keep,
            keep_svm: captured.keep_svm,
            work_dim: self.work_dim,
            global_size: self.global.unwrap_or([1; 3]),
            global_offset: self.offset,
            local_size: self.local,
            local_mem_size: captured.local_mem_size,
            check: captured.check,
            schedule,
        }
    }
}

/// Check a launch of `k` on `q`'s device (the checks after the queue, the
/// kernel and `work_dim`, which [`launch_objects`] or a command-buffer made)
/// and capture the kernel's arguments as they are now.
pub fn plan_launch(
    q: &Queue,
    k: &Kernel,
    work_dim: cl_uint,
    global_work_offset: *const size_t,
    global_work_size: *const size_t,
    local_work_size: *const size_t,
) -> CLResult<(LaunchPlan, Captured)> {
    let wd = work_dim as usize;
    let offset = dims(global_work_offset, wd, 0).unwrap_or([0; 3]);
    let global = dims(global_work_size, wd, 1);
    // CL_INVALID_GLOBAL_OFFSET if the value specified in global_work_size plus
    // the corresponding value in global_work_offset for any dimensions is
    // greater than the maximum value representable by size_t.
    if let Some(g) = global {
        check(
            (0..wd).all(|d| (g[d] as usize).checked_add(offset[d] as usize).is_some()),
            CL_INVALID_GLOBAL_OFFSET,
            "global_work_offset + global_work_size overflows size_t",
        )?;
    }
    let info = k.info();
    let uniform = k.executable().uniform_work_groups;
    let limits = dev::limits();
    let max_wg = kernel_work_group_size(k) as u64;
    let item_max = limits.max_work_item_sizes.map(|v| v as u64);
    let local = dims(local_work_size, wd, 1);
    if let Some(l) = local {
        // CL_INVALID_WORK_GROUP_SIZE if the work-group size must be uniform and
        // the global_work_size is not evenly divisible by the local_work_size.
        if let Some(g) = global {
            if uniform && (0..wd).any(|d| l[d] != 0 && g[d] % l[d] != 0) {
                return err(
                    CL_INVALID_WORK_GROUP_SIZE,
                    format!(
                        "global size {:?} is not a multiple of local size {:?}, and work-groups must be uniform (OpenCL C below 2.0, or -cl-uniform-work-group-size)",
                        &g[..wd],
                        &l[..wd]
                    ),
                );
            }
        }
        // CL_INVALID_WORK_GROUP_SIZE if the total number of work-items in the
        // work-group is zero, or greater than CL_KERNEL_WORK_GROUP_SIZE.
        let total = l.iter().try_fold(1u64, |a, &b| a.checked_mul(b));
        check(
            total != Some(0),
            CL_INVALID_WORK_GROUP_SIZE,
            "local_work_size has a zero",
        )?;
        if total.is_none_or(|t| t > max_wg) {
            return err(
                CL_INVALID_WORK_GROUP_SIZE,
                format!(
                    "work-group of {:?} items; kernel '{}' allows at most {max_wg}",
                    &l[..wd],
                    info.name
                ),
            );
        }
        // CL_INVALID_WORK_GROUP_SIZE if local_work_size does not match the
        // required work-group size for kernel.
        if let Some(r) = info.reqd_work_group_size {
            check(
                l == r,
                CL_INVALID_WORK_GROUP_SIZE,
                "local_work_size differs from the kernel's reqd_work_group_size",
            )?;
        }
        // CL_INVALID_WORK_ITEM_SIZE if the number of work-items specified in
        // any dimension of local_work_size is greater than
        // CL_DEVICE_MAX_WORK_ITEM_SIZES.
        if let Some(d) = (0..3).find(|&d| l[d] > item_max[d]) {
            return err(
                CL_INVALID_WORK_ITEM_SIZE,
                format!(
                    "local_work_size[{d}] is {}; CL_DEVICE_MAX_WORK_ITEM_SIZES[{d}] is {}",
                    l[d], item_max[d]
                ),
            );
        }
    }
    // CL_MISALIGNED_SUB_BUFFER_OFFSET if a kernel argument is a sub-buffer
    // whose offset is not aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN.
    let captured = k.capture()?;
    check(
        captured
            .keep
            .iter()
            .all(|m| m.offset() % dev::MEM_BASE_ADDR_ALIGN == 0),
        CL_MISALIGNED_SUB_BUFFER_OFFSET,
        "a sub-buffer argument's offset is not aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN",
    )?;
    // CL_OUT_OF_RESOURCES if there is a failure to queue the execution
    // instance of kernel on the command-queue because of insufficient
    // resources needed to execute the kernel: the local memory the kernel
    // needs (its local variables and local arguments) exceeds
    // CL_DEVICE_LOCAL_MEM_SIZE (a profile's, or the arena's).
    if captured.local_mem_size > limits.local_mem_size {
        return err(
            CL_OUT_OF_RESOURCES,
            format!(
                "kernel '{}' needs {} bytes of local memory; the device has {} (CL_DEVICE_LOCAL_MEM_SIZE)",
                info.name, captured.local_mem_size, limits.local_mem_size
            ),
        );
    }
    // The same for constant memory, under a device profile (cranecl's own
    // device does not hold kernels to its figures: its constant memory is
    // ordinary memory).
    if dev::config().profile.is_some() {
        k.check_constant_limits(limits.max_constant_args, limits.max_constant_buffer_size)?;
    }
    let global = global.filter(|g| g[..wd].iter().all(|&v| v > 0));
    let local = match (global, local) {
        (_, Some(l)) => l,
        (Some(g), None) => null_local_size(k, &g, wd, q.device())?,
        (None, None) => [1; 3],
    };
    let plan = LaunchPlan {
        device: q.device().clone(),
        work_dim,
        global,
        offset,
        local,
    };
    Ok((plan, captured))
}

/// The local size a launch of `k` over `global` with a NULL local size
/// runs with: the kernel's `reqd_work_group_size` if it has one (with the
/// errors a launch gives when that cannot run), else the size
/// [`choose_local_size`] picks. `clEnqueueNDRangeKernel` and
/// `clGetKernelSuggestedLocalWorkSizeKHR` both ask here, so the suggestion is
/// what the launch does.
fn null_local_size(
    k: &Kernel,
    global: &[u64; 3],
    wd: usize,
    device: &Device,
) -> CLResult<[u64; 3]> {
    let info = k.info();
    let uniform = k.executable().uniform_work_groups;
    let max_wg = kernel_work_group_size(k) as u64;
    let item_max = dev::limits().max_work_item_sizes.map(|v| v as u64);
    if let Some(r) = info.reqd_work_group_size {
        // With a required size, that is the size; uniform groups then
        // need the global size to be a multiple of it.
        if uniform && (0..wd).any(|d| !global[d].is_multiple_of(r[d].max(1))) {
            return err(
                CL_INVALID_WORK_GROUP_SIZE,
                "the global size is not a multiple of the kernel's reqd_work_group_size",
            );
        }
        // A required size above the device's limits (a profile's)
        // cannot run there.
        if r.iter().product::<u64>() > max_wg || (0..3).any(|d| r[d] > item_max[d]) {
            return err(
                CL_INVALID_WORK_GROUP_SIZE,
                format!(
                    "kernel '{}' requires work-groups of {r:?}; the device allows {max_wg} items, {item_max:?} per dimension",
                    info.name
                ),
            );
        }
        return Ok(r);
    }
    let limit = chosen_group_limit(
        global,
        info.uses_barriers || info.may_wait,
        u64::from(device.compute_units()),
    );
    Ok(choose_local_size(
        global, wd, max_wg, limit, item_max, uniform,
    ))
}

/// `clGetKernelSuggestedLocalWorkSizeKHR` (cl_khr_suggested_local_work_size):
/// the local size a launch with a NULL local size would use, checked as
/// that launch would be.
fn suggest_local_work_size(
    command_queue: cl_command_queue,
    kernel: cl_kernel,
    work_dim: cl_uint,
    global_work_offset: *const size_t,
    global_work_size: *const size_t,
    suggested_local_work_size: *mut size_t,
) -> CLResult<()> {
    let (q, k) = launch_objects(command_queue, kernel, work_dim)?;
    let wd = work_dim as usize;
    let offset = dims(global_work_offset, wd, 0).unwrap_or([0; 3]);
    // CL_INVALID_GLOBAL_WORK_SIZE if global_work_size is NULL, or if any of
    // the values specified in global_work_size[0], ...
    // global_work_size[work_dim - 1] are zero.
    let Some(global) = dims(global_work_size, wd, 1) else {
        return err(CL_INVALID_GLOBAL_WORK_SIZE, "global_work_size is NULL");
    };
    if let Some(d) = (0..wd).find(|&d| global[d] == 0) {
        return err(
            CL_INVALID_GLOBAL_WORK_SIZE,
            format!("global_work_size[{d}] is 0"),
        );
    }
    // CL_INVALID_GLOBAL_OFFSET if the value specified in global_work_size
    // plus the corresponding value in global_work_offset for any dimensions
    // is greater than the maximum value representable by size_t.
    check(
        (0..wd).all(|d| {
            (global[d] as usize)
                .checked_add(offset[d] as usize)
                .is_some()
        }),
        CL_INVALID_GLOBAL_OFFSET,
        "global_work_offset + global_work_size overflows size_t",
    )?;
    // CL_MISALIGNED_SUB_BUFFER_OFFSET if a kernel argument is a sub-buffer
    // whose offset is not aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN.
    check(
        k.capture()?
            .keep
            .iter()
            .all(|m| m.offset() % dev::MEM_BASE_ADDR_ALIGN == 0),
        CL_MISALIGNED_SUB_BUFFER_OFFSET,
        "a sub-buffer argument's offset is not aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN",
    )?;
    // CL_INVALID_VALUE if suggested_local_work_size is NULL.
    check(
        !suggested_local_work_size.is_null(),
        CL_INVALID_VALUE,
        "suggested_local_work_size is NULL",
    )?;
    let local = null_local_size(&k, &global, wd, q.device())?;
    for (d, l) in local.iter().enumerate().take(wd) {
        // SAFETY: non-NULL, and the caller gave work_dim entries there (the
        // API's contract).
        unsafe { suggested_local_work_size.add(d).write(*l as size_t) };
    }
    Ok(())
}

#[no_mangle]
pub unsafe extern "C" fn clGetKernelSuggestedLocalWorkSizeKHR(
    command_queue: cl_command_queue,
    kernel: cl_kernel,
    work_dim: cl_uint,
    global_work_offset: *const size_t,
    global_work_size: *const size_t,
    suggested_local_work_size: *mut size_t,
) -> cl_int {
    api_call(|| {
        suggest_local_work_size(
            command_queue,
            kernel,
            work_dim,
            global_work_offset,
            global_work_size,
            suggested_local_work_size,
        )
    })
}

/// Checked mode (`api`): the buffers a launch uses, whole, each read or
/// (through a `global` pointer to non-`const`) perhaps written.
pub fn kernel_accesses(k: &Kernel) -> Vec<Access> {
    let kernel = &k.info().name;
    k.buffer_args()
        .into_iter()
        .map(|(mem, arg, writes)| Access {
            offset: 0,
            size: mem.size(),
            mem,
            usage: if writes { Usage::Write } else { Usage::Read },
            what: format!("kernel '{kernel}', argument '{arg}'").into(),
        })
        .collect()
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueNDRangeKernel(
    command_queue: cl_command_queue,
    kernel: cl_kernel,
    work_dim: cl_uint,
    global_work_offset: *const size_t,
    global_work_size: *const size_t,
    local_work_size: *const size_t,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    api_call(|| {
        enqueue_ndrange(
            CL_COMMAND_NDRANGE_KERNEL,
            command_queue,
            kernel,
            work_dim,
            global_work_offset,
            global_work_size,
            local_work_size,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueTask(
    command_queue: cl_command_queue,
    kernel: cl_kernel,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    // Equivalent to clEnqueueNDRangeKernel with work_dim 1, no offset, a
    // global size of 1 and a local size of 1 (a reqd_work_group_size other
    // than (1, 1, 1) is then CL_INVALID_WORK_GROUP_SIZE).
    let one: size_t = 1;
    api_call(|| {
        enqueue_ndrange(
            CL_COMMAND_TASK,
            command_queue,
            kernel,
            1,
            ptr::null(),
            &one,
            &one,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chosen_sizes_divide_when_uniform() {
        let c =
            |g: &[u64; 3], wd, max, uniform| choose_local_size(g, wd, max, 256, [1024; 3], uniform);
        assert_eq!(c(&[1024, 1, 1], 1, 1024, true), [256, 1, 1]);
        assert_eq!(c(&[1000, 1, 1], 1, 1024, true), [250, 1, 1]);
        assert_eq!(c(&[1009, 1, 1], 1, 1024, true), [1, 1, 1]);
        assert_eq!(c(&[1009, 1, 1], 1, 1024, false), [256, 1, 1]);
        assert_eq!(c(&[7, 1024, 1], 2, 1024, true), [7, 32, 1]);
        assert_eq!(c(&[10, 1, 1], 1, 4, true), [2, 1, 1]);
        assert_eq!(
            choose_local_size(&[1 << 20, 1, 1], 1, 1024, 1024, [1024; 3], true),
            [1024, 1, 1]
        );
    }

    #[test]
    fn chosen_sizes_keep_within_the_work_item_sizes() {
        // A profile's 1024x1024x64 (NVIDIA): the third dimension stops at 64.
        let item_max = [1024, 1024, 64];
        assert_eq!(
            choose_local_size(&[1, 1, 512], 3, 1024, 256, item_max, true),
            [1, 1, 64]
        );
        assert_eq!(
            choose_local_size(&[4, 4, 512], 3, 256, 256, item_max, true),
            [4, 4, 16]
        );
    }

    #[test]
    fn loops_get_bigger_groups_while_every_unit_keeps_eight() {
        let big = [64 << 20, 1, 1];
        assert_eq!(chosen_group_limit(&big, false, 16), 1024);
        assert_eq!(chosen_group_limit(&big, true, 16), 256);
        // 16 units x 8 groups: 128 groups of 512 fit 65536 items, not of 1024.
        assert_eq!(chosen_group_limit(&[65536, 1, 1], false, 16), 512);
        assert_eq!(chosen_group_limit(&[4096, 1, 1], false, 16), 256);
        assert_eq!(chosen_group_limit(&[2048, 2048, 1], false, 2), 1024);
    }
}
