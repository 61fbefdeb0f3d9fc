// @buf in uint 256 rand(0,15)
// @buf out uint 256 zero
// @run k g=256 : in out
// @check out constant_table
constant uint squares[16] = {0, 1, 4, 9, 16, 25, 36, 49, 64, 81, 100, 121, 144, 169, 196, 225};
constant char msg[] = "cranecl";
kernel void k(global const uint *in, global uint *out) {
    uint v = in[get_global_id(0)];
    out[get_global_id(0)] = squares[v] + msg[v % 7];
}
