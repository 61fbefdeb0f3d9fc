// Work-groups of one work-item (a launch with a local size of 1, as naive
// host code writes it): each writes one value, so the time is the cost of
// running a work-group.
kernel void groups1(global uint *out)
{
    size_t i = get_global_id(0);
    out[i] = (uint)i * 3u + 1u;
}
