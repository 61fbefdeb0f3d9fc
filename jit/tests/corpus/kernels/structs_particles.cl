// RUN: -cl-std=CL1.2
// EXPECT: ok
typedef struct {
    float3 position;
    float3 velocity;
    float mass;
    int alive;
} particle_t;
typedef struct { float3 gravity; float drag; float dt; } sim_params_t;
float3 step_velocity(float3 v, sim_params_t p) { return v * (1.0f - p.drag * p.dt) + p.gravity * p.dt; }
kernel void simulate(global particle_t *ps, const sim_params_t params)
{
    global particle_t *p = &ps[get_global_id(0)];
    if (!p->alive) return;
    p->velocity = step_velocity(p->velocity, params);
    p->position += p->velocity * params.dt;
    if (p->position.y < 0.0f) p->alive = 0;
}
