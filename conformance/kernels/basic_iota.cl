// @buf out uint 3000 zero
// @run iota g=3000 : out
// @check out iota
kernel void iota(global uint *out) { out[get_global_id(0)] = (uint)get_global_id(0); }
