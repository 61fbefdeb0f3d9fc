// @options -D N=5 -DSCALE=3 -D NAME(x)=x##_suffix
// @buf out int 16 zero
// @run k g=16 : out
// @check out defines
#define STR(x) #x
#if N == 5 && defined(SCALE)
#define VALUE (N * SCALE)
#else
#define VALUE -1
#endif
kernel void k(global int *out) {
    int abc_suffix = 1000;
    out[get_global_id(0)] = VALUE + NAME(abc) + (int)sizeof(STR(hello)) + __LINE__;
}
