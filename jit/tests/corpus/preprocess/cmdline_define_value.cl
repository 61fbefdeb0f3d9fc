// RUN: -cl-std=CL1.2 -DBLOCK=16 -D TYPE=float -D FLAG
// EXPECT: ok
// -D without a value defines the name to 1
kernel void k(global TYPE *out)
{
    local TYPE tile[BLOCK];
    tile[get_local_id(0) % BLOCK] = (TYPE)FLAG;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tile[0];
}
