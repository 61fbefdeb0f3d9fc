// @check uninit
// @run k g=8 l=8 : buf(32)
kernel void k(global float *out)
{
    float4 v;
    v.xyz = (float3)(1.0f, 2.0f, 3.0f);
    float s = v.x + v.y + v.z;
    out[get_global_id(0)] = s + v.w; //! uninit
}
