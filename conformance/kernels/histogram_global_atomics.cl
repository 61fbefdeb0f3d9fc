// @buf in uchar 8192 randbits
// @buf hist uint 256 zero
// @run hist g=8192 : in hist
// @check hist histogram256
kernel void hist(global const uchar *in, global uint *hist) {
    atom_inc(&hist[in[get_global_id(0)]]);
}
