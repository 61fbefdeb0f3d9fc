// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void k(global float *in)
{
    int i = get_global_id(0);
    printf("item %d value %f hex %x str %s char %c\n", i, in[i], i, "ok", 'z');
    printf("vector %v4hlf\n", (float4)(1.0f));
}
