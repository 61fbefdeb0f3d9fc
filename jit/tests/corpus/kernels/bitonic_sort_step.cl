// RUN: -cl-std=CL1.2
// EXPECT: ok
kernel void bitonic_step(global int *data, const uint stage, const uint pass, const uint ascending)
{
    uint i = get_global_id(0);
    uint pair_distance = 1u << (stage - pass);
    uint block_width = 2 * pair_distance;
    uint left = (i % pair_distance) + (i / pair_distance) * block_width;
    uint right = left + pair_distance;
    int a = data[left], b = data[right];
    uint same_dir = ((i / (1u << stage)) % 2 == 0) == (ascending != 0);
    int lesser = min(a, b), greater = max(a, b);
    data[left] = same_dir ? lesser : greater;
    data[right] = same_dir ? greater : lesser;
}
