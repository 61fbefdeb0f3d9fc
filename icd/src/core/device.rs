//! The devices: the root device and its sub-devices (`clCreateSubDevices`).
//! The root device's limits and capabilities are computed once from the
//! host (see `sysinfo`), from what the compiler supports
//! (`cranecl_jit::features`) and from the configuration the user gave
//! (`CRANECL_DEVICE_TYPE`, `CRANECL_PROFILE`: [`config`]; the limits
//! themselves are `profile`'s). A sub-device is the same device with a
//! parent, a share of its parent's compute units (and, when known, of its
//! host CPUs: `partition`) and the thread pool that runs its work-groups.

use super::handle::Obj;
use super::partition::{Share, Topology, Units};
use super::profile::{self, Limits, Profile};
use super::sysinfo::HostInfo;
use opencl_sys::*;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

pub struct Device {
    /// Host facts (the root device's; a sub-device asks its parent).
    info: OnceLock<HostInfo>,
    /// `CL_DEVICE_PARENT_DEVICE`: `None` for the root device.
    parent: Option<Arc<Obj<Device>>>,
    /// `CL_DEVICE_MAX_COMPUTE_UNITS`: the threads that run its work-groups
    /// at once.
    compute_units: u32,
    /// The host CPUs of its compute units, one per unit, when they are known
    /// (the root's are the CPUs this process may run on, if
    /// `CRANECL_THREADS` leaves one unit per CPU); a sub-device's pool
    /// threads are kept on them.
    cpus: Option<Vec<usize>>,
    /// `CL_DEVICE_PARTITION_TYPE`: the properties it was created with.
    partition_type: Vec<cl_device_partition_property>,
    /// The threads that run its launches' work-groups, started on its first
    /// launch that needs them (`exec::ndrange`).
    pool: OnceLock<Option<rayon::ThreadPool>>,
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

/// What the user asked the device to be: read once per process, on the
/// first device or platform query (the loader's first `clGetDeviceIDs`), so
/// a program that sets the variables before its first OpenCL call gets them.
pub struct Config {
    /// `CL_DEVICE_TYPE`: `CRANECL_DEVICE_TYPE` = `cpu` (the default), `gpu`
    /// or `accelerator`.
    pub device_type: cl_device_type,
    /// `CRANECL_PROFILE`, when set and valid.
    pub profile: Option<Profile>,
    /// The profile's limits, or cranecl's own.
    pub limits: Limits,
    /// Why the platform reports no device: a variable with a bad value (its
    /// line was printed on stderr). A CI job that misspells a profile then
    /// fails at its first `clGetDeviceIDs`, instead of testing without the
    /// limits it asked for.
    pub unavailable: Option<String>,
}

/// The device's configuration (see [`Config`]).
pub fn config() -> &'static Config {
    static CONFIG: OnceLock<Config> = OnceLock::new();
    CONFIG.get_or_init(|| {
        let c = read_config(
            std::env::var("CRANECL_DEVICE_TYPE").ok().as_deref(),
            std::env::var("CRANECL_PROFILE").ok().as_deref(),
        );
        if let Some(why) = &c.unavailable {
            eprintln!("cranecl: {why}");
        }
        cranecl_jit::features::set_fp64(c.limits.fp64);
        cranecl_jit::features::set_fp16(c.limits.fp16);
        c
    })
}

/// [`Config`] from the two variables' values (unset or empty: the default).
fn read_config(device_type: Option<&str>, profile: Option<&str>) -> Config {
    let mut c = Config {
        device_type: CL_DEVICE_TYPE_CPU,
        profile: None,
        limits: Limits::default(),
        unavailable: None,
    };
    let mut problems = Vec::new();
    match device_type.map(str::trim).filter(|v| !v.is_empty()) {
        None => {}
        Some(v) => match v.to_ascii_lowercase().as_str() {
            "cpu" => {}
            "gpu" => c.device_type = CL_DEVICE_TYPE_GPU,
            "accelerator" => c.device_type = CL_DEVICE_TYPE_ACCELERATOR,
            _ => problems.push(format!(
                "CRANECL_DEVICE_TYPE: unknown device type '{v}' (cpu, gpu or accelerator)"
            )),
        },
    }
    match profile.map(str::trim).filter(|v| !v.is_empty()) {
        None => {}
        Some(v) => match profile::load(v) {
            Ok(p) => {
                c.limits = p.limits.clone();
                c.profile = Some(p);
            }
            Err(e) => problems.push(format!("CRANECL_PROFILE: {e}")),
        },
    }
    if !problems.is_empty() {
        c.unavailable = Some(format!(
            "{}; the platform reports no device",
            problems.join("; ")
        ));
    }
    c
}

/// The device's limits (a profile's, or cranecl's own).
pub fn limits() -> &'static Limits {
    &config().limits
}

/// The device object (created on first use; never released).
pub fn device() -> &'static Arc<Obj<Device>> {
    static DEVICE: OnceLock<Arc<Obj<Device>>> = OnceLock::new();
    DEVICE.get_or_init(|| {
        // The compiler's features follow the profile from the first use on.
        config();
        Obj::new(Device {
            info: OnceLock::new(),
            parent: None,
            compute_units: compute_units(),
            cpus: None,
            partition_type: Vec::new(),
            pool: OnceLock::new(),
        })
    })
}

impl Device {
    /// Host facts, read on the first query (not at load: the loader calls
    /// `clGetDeviceIDs` while it starts, and that must stay cheap).
    pub fn host(&self) -> &HostInfo {
        match &self.parent {
            Some(p) => p.host(),
            None => self.info.get_or_init(HostInfo::read),
        }
    }

    /// `CL_DEVICE_PARENT_DEVICE`.
    pub fn parent(&self) -> Option<&Arc<Obj<Device>>> {
        self.parent.as_ref()
    }

    /// A root device (from `clGetDeviceIDs`; not reference counted).
    pub fn is_root(&self) -> bool {
        self.parent.is_none()
    }

    /// `CL_DEVICE_MAX_COMPUTE_UNITS`.
    pub fn compute_units(&self) -> u32 {
        self.compute_units
    }

    /// The host CPUs its work-groups run on, when known.
    pub fn cpus(&self) -> Option<&[usize]> {
        if self.is_root() {
            // Known when there is one compute unit per CPU the process
            // may use (the default of `CRANECL_THREADS`).
            let all = &Topology::host().cpus;
            return (all.len() == self.compute_units as usize).then_some(all.as_slice());
        }
        self.cpus.as_deref()
    }

    /// `CL_DEVICE_PARTITION_TYPE`.
    pub fn partition_type(&self) -> &[cl_device_partition_property] {
        &self.partition_type
    }

    /// What partitioning sees of the device.
    pub fn units(&self) -> Units<'_> {
        Units {
            compute_units: self.compute_units,
            cpus: self.cpus(),
        }
    }

    /// A sub-device of `parent` with `share` of its compute units.
    pub fn new_sub_device(
        parent: &Arc<Obj<Device>>,
        share: Share,
        partition_type: Vec<cl_device_partition_property>,
    ) -> Arc<Obj<Device>> {
        Obj::new(Device {
            info: OnceLock::new(),
            parent: Some(parent.clone()),
            compute_units: share.compute_units,
            cpus: share.cpus,
            partition_type,
            pool: OnceLock::new(),
        })
    }

    /// The device's thread pool, built by `build` on first use (`None`: it
    /// could not be started).
    pub fn pool(
        &self,
        build: impl FnOnce() -> Option<rayon::ThreadPool>,
    ) -> Option<&rayon::ThreadPool> {
        self.pool.get_or_init(build).as_ref()
    }

    /// The host's memory, or a profile's figure when smaller.
    pub fn global_mem_size(&self) -> u64 {
        let host = self.host().total_memory;
        limits().global_mem_size.map_or(host, |p| p.min(host))
    }

    /// Largest single allocation: half of memory (the spec's floor is
    /// max(1/4 of global memory, 128 MiB); a CPU can give more), or a
    /// profile's figure when the host can give it (a GPU often allows one
    /// buffer of all its memory; the host's half is the most we promise).
    /// `CL_DEVICE_IMAGE_SUPPORT`: images, samplers and the image built-ins
    /// (`core::image`, `cranecl_memory::image`).
    pub fn image_support(&self) -> bool {
        super::image::IMAGE_SUPPORT
    }

    pub fn max_mem_alloc_size(&self) -> u64 {
        let half = |m: u64| (m / 2).max(128 << 20);
        match limits().max_mem_alloc_size {
            Some(p) => p
                .min(half(self.host().total_memory))
                .min(self.global_mem_size()),
            None => half(self.global_mem_size()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_variables_choose_type_and_profile() {
        let c = read_config(None, None);
        assert_eq!(c.device_type, CL_DEVICE_TYPE_CPU);
        assert!(c.profile.is_none() && c.unavailable.is_none());
        assert_eq!(c.limits, Limits::default());
        let c = read_config(Some("GPU"), Some("arm-mali-g610"));
        assert_eq!(c.device_type, CL_DEVICE_TYPE_GPU);
        assert_eq!(c.limits.local_mem_size, 32768);
        assert!(c.unavailable.is_none());
        let c = read_config(Some("accelerator"), Some(""));
        assert_eq!(c.device_type, CL_DEVICE_TYPE_ACCELERATOR);
        assert!(c.profile.is_none());
    }

    #[test]
    fn a_bad_value_leaves_no_device_and_says_why() {
        let c = read_config(Some("fpga"), Some("nope"));
        assert_eq!(
            c.unavailable.as_deref(),
            Some(
                "CRANECL_DEVICE_TYPE: unknown device type 'fpga' (cpu, gpu or accelerator); \
                 CRANECL_PROFILE: unknown profile 'nope' (shipped: nvidia-rtx4090, \
                 amd-rx7900xt, intel-arc-a770, arm-mali-g610; or the path of a .profile \
                 file); the platform reports no device"
            )
        );
    }
}
