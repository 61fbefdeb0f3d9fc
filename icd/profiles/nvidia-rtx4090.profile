# NVIDIA GeForce RTX 4090 (Ada Lovelace), NVIDIA's OpenCL 3.0 driver 525.
#
# Source: clinfo of an RTX 4090, driver 525.147.05, in
#   https://github.com/hashcat/hashcat/issues/3916
# (local memory, constant buffer and arguments, kernel argument size,
# images, __opencl_c_fp64); compute units and "No half precision support"
# from clpeak on an RTX 4090 in
#   https://github.com/krrishnarraj/clpeak/issues/106
# Work-group and work-item sizes (1024, 1024x1024x64) and the warp of 32
# are what NVIDIA's driver reports for every recent GPU (the same lines in
# the clinfo outputs of https://github.com/hashcat/hashcat/issues/1640 and
# https://github.com/bene51/3Dscript/issues/27).

device_name = NVIDIA GeForce RTX 4090
max_compute_units = 128
max_work_group_size = 1024
max_work_item_sizes = 1024 1024 64
preferred_work_group_size_multiple = 32
sub_group_sizes = 32
local_mem_size = 49152
max_constant_buffer_size = 65536
max_constant_args = 9
max_parameter_size = 4352
fp64 = yes
fp16 = no

image_support = yes
image2d_max_size = 32768 32768
image3d_max_size = 16384 16384 16384
max_read_image_args = 256
max_write_image_args = 32
