// @buf p float 512 rand
// @run move g=128 : p float(0.5)
// @check p aos_move
typedef struct { float x, y; float vx, vy; } particle;
kernel void move(global particle *p, float dt) {
    global particle *q = &p[get_global_id(0)];
    q->x += q->vx * dt;
    q->y += q->vy * dt;
    q->vx *= 0.5f;
}
