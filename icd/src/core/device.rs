//! The one CPU device: its limits and capabilities, computed once from the host
//! (see `sysinfo`) and from what the compiler supports (`cranecl_jit::features`).

use super::handle::Obj;
use super::sysinfo::HostInfo;
use opencl_sys::*;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

pub struct Device {
    info: OnceLock<HostInfo>,
}
crate::cl_object!(Device, cl_device_id, CL_INVALID_DEVICE, "device");

/// Work-items per work-group, and per dimension: what the compiler's
/// work-group runtime supports (coroutine stacks bound it).
pub const MAX_WORK_GROUP_SIZE: usize = cranecl_jit::codegen::MAX_WORK_GROUP_SIZE as usize;
/// Bytes of `__local` memory per work-group (the per-worker local arena).
pub const LOCAL_MEM_SIZE: u64 = 256 << 10;
/// Buffer alignment in bytes (`CL_DEVICE_MEM_BASE_ADDR_ALIGN` is in bits).
pub const MEM_BASE_ADDR_ALIGN: usize = 128;
pub const MAX_PARAMETER_SIZE: usize = 1024;
pub const MAX_CONSTANT_BUFFER_SIZE: u64 = 1 << 20;
pub const MAX_CONSTANT_ARGS: u32 = 8;
pub const PRINTF_BUFFER_SIZE: usize = 1 << 20;

/// Parallel workers: `CRANECL_THREADS` if set to a positive number, else the
/// cores this process may run on. Read once, on first use, and the same for
/// the life of the process: `std::thread::available_parallelism` reads the
/// cgroup files on every call (tens of microseconds), and launches with a
/// NULL local size ask for this number every time.
pub fn compute_units() -> u32 {
    static UNITS: OnceLock<u32> = OnceLock::new();
    *UNITS.get_or_init(|| {
        UNIT_READS.fetch_add(1, Ordering::Relaxed);
        read_compute_units()
    })
}

/// How many times the compute units were read from the environment and the
/// OS (once per process; a test asserts it).
static UNIT_READS: AtomicUsize = AtomicUsize::new(0);

/// The number of reads behind [`compute_units`] so far.
pub fn compute_unit_reads() -> usize {
    UNIT_READS.load(Ordering::Relaxed)
}

fn read_compute_units() -> u32 {
    std::env::var("CRANECL_THREADS")
        .ok()
        .and_then(|s| s.trim().parse::<u32>().ok())
        .filter(|&n| n > 0)
        .unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get() as u32)
                .unwrap_or(1)
        })
}

/// The device object (created on first use; never released).
pub fn device() -> &'static Arc<Obj<Device>> {
    static DEVICE: OnceLock<Arc<Obj<Device>>> = OnceLock::new();
    DEVICE.get_or_init(|| {
        Obj::new(Device {
            info: OnceLock::new(),
        })
    })
}

impl Device {
    /// Host facts, read on the first query (not at load: the loader calls
    /// `clGetDeviceIDs` while it starts, and that must stay cheap).
    pub fn host(&self) -> &HostInfo {
        self.info.get_or_init(HostInfo::read)
    }

    pub fn global_mem_size(&self) -> u64 {
        self.host().total_memory
    }

    /// Largest single allocation: half of memory (the spec's floor is
    /// max(1/4 of global memory, 128 MiB); a CPU can give more).
    pub fn max_mem_alloc_size(&self) -> u64 {
        (self.global_mem_size() / 2).max(128 << 20)
    }
}
