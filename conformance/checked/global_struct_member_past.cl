// @check bounds
// @run k g=32 l=32 : buf(256)
typedef struct { int a; float b; } pair;
kernel void k(global pair *out)
{
    size_t i = get_global_id(0);
    out[i + 1].b = 1.0f; //! invalid-write
}
