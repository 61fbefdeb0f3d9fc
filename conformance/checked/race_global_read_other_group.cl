// @check races
// @run k g=64 l=16 : buf(256)
kernel void k(global int *data)
{
    int i = get_global_id(0);
    data[i] = i; //! race
    int next = data[(i + 16) % 64]; //! race-other
    data[i] = i + next; //! race
}
