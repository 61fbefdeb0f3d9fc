# Intel Arc A770 (Alchemist, DG2), Intel's compute-runtime (NEO) driver.
#
# Source: clinfo of an Arc A770 16 GB in
#   https://github.com/intel/compute-runtime/issues/618
# (alignments, global variables, samplers) and of its sibling the Arc A750
# (same DG2 chip and driver) in
#   https://github.com/openvinotoolkit/openvino/issues/20012
# (preferred work-group multiple 64, sub-group sizes 8/16/32, no double
# precision, cl_khr_fp16). Work-group sizes, local memory, constant buffer
# and arguments, kernel argument size and image sizes are the figures NEO
# reports for DG2.
# No fp64: a kernel that uses `double` fails to build, as on the real card.

device_name = Intel(R) Arc(TM) A770 Graphics
max_compute_units = 512
max_work_group_size = 1024
max_work_item_sizes = 1024 1024 1024
preferred_work_group_size_multiple = 64
sub_group_sizes = 8 16 32
local_mem_size = 65536
max_constant_buffer_size = 4294959104
max_constant_args = 8
max_parameter_size = 2048
fp64 = no
fp16 = yes

image_support = yes
image2d_max_size = 16384 16384
image3d_max_size = 16384 16384 2048
max_read_image_args = 128
max_write_image_args = 128
max_samplers = 16
