//! Every CL object type by one path: the types that have their own module,
//! re-exported, and `Sampler`, declared here as a CL object (handle type and
//! the error code a bad handle gets) though the device never creates one.

use opencl_sys::*;

pub use super::context::Context;
pub use super::event::Event;
pub use super::kernel::Kernel;
pub use super::program::Program;
pub use super::queue::Queue;
/// Never created: the device has no image support.
pub struct Sampler;
crate::cl_object!(Sampler, cl_sampler, CL_INVALID_SAMPLER, "sampler");
