//! Every CL object type by one path: the types that have their own module,
//! re-exported, and `Sampler`, declared here: its three settings, and the
//! `CLK_*` bits a kernel argument passes to generated code.

use opencl_sys::*;

pub use super::context::Context;
pub use super::event::Event;
pub use super::kernel::Kernel;
pub use super::program::Program;
pub use super::queue::Queue;
/// A sampler object (`clCreateSampler[WithProperties]`).
pub struct Sampler {
    pub context: std::sync::Arc<super::handle::Obj<Context>>,
    pub normalized_coords: bool,
    pub addressing_mode: cl_addressing_mode,
    pub filter_mode: cl_filter_mode,
    /// `CL_SAMPLER_PROPERTIES`: the list given to
    /// `clCreateSamplerWithProperties`, or `None`.
    pub properties: Option<Vec<cl_sampler_properties>>,
}
crate::cl_object!(Sampler, cl_sampler, CL_INVALID_SAMPLER, "sampler");

impl Sampler {
    /// The `CLK_*` bits of the OpenCL C header for these settings (what a
    /// `sampler_t` holds in generated code; `cranecl_memory::image::sampler`).
    pub fn bits(&self) -> u32 {
        use cranecl_memory::image::sampler as s;
        let addr = match self.addressing_mode {
            CL_ADDRESS_CLAMP_TO_EDGE => s::ADDRESS_CLAMP_TO_EDGE,
            CL_ADDRESS_CLAMP => s::ADDRESS_CLAMP,
            CL_ADDRESS_REPEAT => s::ADDRESS_REPEAT,
            CL_ADDRESS_MIRRORED_REPEAT => s::ADDRESS_MIRRORED_REPEAT,
            _ => s::ADDRESS_NONE,
        };
        let filter = if self.filter_mode == CL_FILTER_LINEAR {
            s::FILTER_LINEAR
        } else {
            s::FILTER_NEAREST
        };
        u32::from(self.normalized_coords) | addr | filter
    }
}
