// @check bounds
// @run k g=4096 l=1 : buf(16380)
// @report global id (4095), local id (0), group id (4095)
// Groups of one work-item run many to a call under `bounds`: the report
// still names the group that wrote one element past the end.
kernel void k(global int *out)
{
    size_t i = get_global_id(0);
    out[i] = (int)i; //! invalid-write
}
