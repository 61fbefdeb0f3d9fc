// @check uninit
// @run k g=8 l=8 : buf(32)
typedef struct {
    int index;
    float weight;
} pair;

kernel void k(global float *out)
{
    pair p;
    p.index = get_global_id(0);
    out[p.index] = p.weight; //! uninit
}
