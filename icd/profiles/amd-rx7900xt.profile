# AMD Radeon RX 7900 XT (RDNA3, gfx1100), AMD's ROCm OpenCL driver.
#
# Source: clinfo of an RX 7900 XT in
#   https://github.com/tinygrad/tinygrad/issues/2962
# (local memory, constant arguments and buffer size, images); the
# work-group figures of the same driver on an RDNA3 sibling (RX 7800 XT:
# 1024x1024x1024 work-items, wave32) in
#   https://github.com/hashcat/hashcat/issues/3993
# and on RDNA2 (max work group size 256, preferred multiple 32) in
#   https://github.com/hashcat/hashcat/issues/4000
# fp64 and fp16 as ROCm reports them for RDNA3
# (https://github.com/ROCm/legacy-rocm-build/issues/3748, RX 7600M XT); kernel argument
# size 1024 as in every AMD clinfo (e.g.
# https://github.com/todxx/teamredminer/issues/312).

device_name = AMD Radeon RX 7900 XT
max_work_group_size = 256
max_work_item_sizes = 1024 1024 1024
preferred_work_group_size_multiple = 32
sub_group_sizes = 32
local_mem_size = 65536
max_constant_buffer_size = 18239350368
max_constant_args = 8
max_parameter_size = 1024
fp64 = yes
fp16 = yes

image_support = yes
image2d_max_size = 16384 16384
image3d_max_size = 16384 16384 8192
max_read_image_args = 128
max_write_image_args = 8
max_samplers = 16
