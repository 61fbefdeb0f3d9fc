// @buf data uint 64 rand
// @run step g=32 : data uint(2) uint(1)
// @run step g=32 : data uint(4) uint(2)
// @run step g=32 : data uint(4) uint(1)
// @run step g=32 : data uint(8) uint(4)
// @run step g=32 : data uint(8) uint(2)
// @run step g=32 : data uint(8) uint(1)
// @run step g=32 : data uint(16) uint(8)
// @run step g=32 : data uint(16) uint(4)
// @run step g=32 : data uint(16) uint(2)
// @run step g=32 : data uint(16) uint(1)
// @run step g=32 : data uint(32) uint(16)
// @run step g=32 : data uint(32) uint(8)
// @run step g=32 : data uint(32) uint(4)
// @run step g=32 : data uint(32) uint(2)
// @run step g=32 : data uint(32) uint(1)
// @run step g=32 : data uint(64) uint(32)
// @run step g=32 : data uint(64) uint(16)
// @run step g=32 : data uint(64) uint(8)
// @run step g=32 : data uint(64) uint(4)
// @run step g=32 : data uint(64) uint(2)
// @run step g=32 : data uint(64) uint(1)
// @check data sorted64u
kernel void step(global uint *data, uint k, uint j) {
    uint l = get_global_id(0);
    uint i = 2 * l - (l & (j - 1)), p = i + j;
    bool up = (i & k) == 0;
    uint a = data[i], b = data[p];
    if ((a > b) == up) { data[i] = b; data[p] = a; }
}
