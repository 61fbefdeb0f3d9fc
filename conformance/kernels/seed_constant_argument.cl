// @buf in float 256 rand
// @buf coeff float 4 list(0.5,-1,2,0.25)
// @buf out float 256 zero
// @run poly g=256 : in coeff out
// @check out poly3 tol=1e-6
kernel void poly(global const float *in, constant float *c, global float *out) {
    float x = in[get_global_id(0)];
    out[get_global_id(0)] = ((c[3] * x + c[2]) * x + c[1]) * x + c[0];
}
