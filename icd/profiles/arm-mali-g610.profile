# ARM Mali-G610 MC6 (Valhall; RK3588 boards), ARM's OpenCL 3.0 driver r32p1.
#
# Source: clinfo of a "Mali-G610 MC6 r0p0" in
#   https://github.com/hominoids/sgminer-arm/issues/12
# (no double precision, cl_khr_fp16, global memory and max allocation).
# Work-group sizes, preferred multiple (16: a Valhall warp), local memory,
# constant buffer and arguments, kernel argument size and images are the
# figures ARM's driver reports for Valhall GPUs.
# A small embedded GPU: 32 KiB of local memory, 64 KiB of constant memory,
# no fp64.

device_name = Mali-G610 MC6 r0p0
max_compute_units = 6
max_work_group_size = 1024
max_work_item_sizes = 1024 1024 1024
preferred_work_group_size_multiple = 16
sub_group_sizes = 16
local_mem_size = 32768
max_constant_buffer_size = 65536
max_constant_args = 8
max_parameter_size = 1024
max_mem_alloc_size = 7797280768
global_mem_size = 7797280768
fp64 = no
fp16 = yes

image_support = yes
image2d_max_size = 65536 65536
image3d_max_size = 65536 65536 65536
max_read_image_args = 128
max_write_image_args = 64
max_samplers = 16
