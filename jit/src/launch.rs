//! The boundary between the compiler and the executor: what a compiled kernel
//! looks like from the outside, and how one work-group of it is run.
//!
//! The executor (in the `cranecl` crate) deals work-group ids to threads,
//! owns each worker's local arena, packs kernel arguments into an argument
//! block laid out as [`KernelInfo::args`] says, and calls
//! [`CompiledProgram::run_work_group`] for each group. Everything inside a
//! work-group — the loop over work-items, barriers (coroutines or regions),
//! private memory — is the compiler's business.
#![forbid(unsafe_code)]

/// Work-items per sub-group (`__opencl_c_subgroups`): the lanes' width. A
/// sub-group is this many consecutive local linear ids; the last sub-group
/// of a work-group whose size is not a multiple is smaller.
pub const SUB_GROUP_SIZE: u32 = 4;

/// What kind of value a kernel argument is, and so what `clSetKernelArg` expects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgKind {
    /// `global T*`: the argument block holds the buffer's host address (8 bytes), or 0 for NULL.
    GlobalPtr,
    /// `constant T*`: as `GlobalPtr`.
    ConstantPtr,
    /// `local T*`: the argument block holds the byte offset of this argument's
    /// region inside the work-group's local arena (the executor carves
    /// `clSetKernelArg(…, size, NULL)` regions after `KernelInfo::local_mem_size`,
    /// each aligned to 128 bytes); the kernel adds `WorkGroupCtx::local_mem`.
    LocalPtr,
    /// A value passed by copy (scalar, vector, struct): `size` bytes at the offset.
    Value { size: u32, align: u32 },
    /// An image (`image2d_t`, ...): the argument block holds the address of
    /// the image's `cranecl_memory::image::ImageDesc` (8 bytes).
    Image,
    /// A `sampler_t`: the argument block holds its `CLK_*` bits (4 bytes).
    Sampler,
    /// Arguments no kernel can be given (events, pointers to private memory).
    Unsupported,
}

/// One kernel parameter, with what `clGetKernelArgInfo` reports.
#[derive(Clone, Debug, PartialEq)]
pub struct ArgInfo {
    pub kind: ArgKind,
    /// Byte offset in the argument block.
    pub offset: u32,
    pub name: String,
    /// The type as written, without qualifiers (`float4*`, `uint`, `struct S`).
    pub type_name: String,
    /// `CL_KERNEL_ARG_ADDRESS_*` value.
    pub address_qualifier: u32,
    /// `CL_KERNEL_ARG_ACCESS_*` value.
    pub access_qualifier: u32,
    /// `CL_KERNEL_ARG_TYPE_*` bits (const, restrict, volatile, pipe).
    pub type_qualifier: u64,
}

/// Everything the API layer needs to know about one kernel.
#[derive(Clone, Debug, PartialEq)]
pub struct KernelInfo {
    pub name: String,
    pub args: Vec<ArgInfo>,
    /// Size of the argument block in bytes.
    pub args_size: u32,
    /// Bytes of kernel-scope `local` variables (at the start of the local arena).
    pub local_mem_size: u64,
    /// Bytes of private memory per work-item (`CL_KERNEL_PRIVATE_MEM_SIZE`).
    pub private_mem_size: u64,
    /// `reqd_work_group_size(X, Y, Z)`, if given.
    pub reqd_work_group_size: Option<[u64; 3]>,
    /// `work_group_size_hint(X, Y, Z)`, if given.
    pub work_group_size_hint: Option<[u64; 3]>,
    /// `vec_type_hint(T)`, as written.
    pub vec_type_hint: Option<String>,
    /// The attributes as source text (`CL_KERNEL_ATTRIBUTES`).
    pub attributes: String,
    /// The kernel calls `barrier` (directly or through a function).
    pub uses_barriers: bool,
    /// A loop of the kernel may wait for another work-item
    /// (`lower/progress.rs`): its work-items run as coroutines, as with
    /// barriers.
    pub may_wait: bool,
    /// Largest work-group this kernel can run with.
    pub max_work_group_size: u64,
}

/// The geometry of one work-group, filled in by the executor.
#[derive(Clone, Copy, Debug, Default)]
pub struct WorkGroupCtx {
    pub work_dim: u32,
    pub global_size: [u64; 3],
    pub global_offset: [u64; 3],
    /// This group's size (smaller than `enqueued_local_size` in the last
    /// group of a dimension when the global size is not a multiple).
    pub local_size: [u64; 3],
    pub enqueued_local_size: [u64; 3],
    pub num_groups: [u64; 3],
    pub group_id: [u64; 3],
    /// The work-group's local arena: kernel-scope locals, then local pointer arguments.
    pub local_mem: usize,
    pub local_mem_size: u64,
}

/// A run-time fault in a kernel (checked mode, or a trap such as an
/// unsupported operation), reported as a failed command — never a crash.
#[derive(Clone, Debug, PartialEq)]
pub struct KernelFault {
    pub message: String,
}
