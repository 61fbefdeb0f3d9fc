// RUN: -cl-std=CL1.2
// EXPECT: ok
float cnd(float d)
{
    const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f, A4 = -1.821255978f, A5 = 1.330274429f;
    const float RSQRT2PI = 0.39894228040143267793994605993438f;
    float K = 1.0f / (1.0f + 0.2316419f * fabs(d));
    float c = RSQRT2PI * exp(-0.5f * d * d) * (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
    return d > 0 ? 1.0f - c : c;
}
kernel void black_scholes(global float *call, global float *put, global const float *S, global const float *X,
                          global const float *T, float R, float V)
{
    size_t i = get_global_id(0);
    float sqrtT = sqrt(T[i]);
    float d1 = (log(S[i] / X[i]) + (R + 0.5f * V * V) * T[i]) / (V * sqrtT);
    float d2 = d1 - V * sqrtT;
    float expRT = exp(-R * T[i]);
    call[i] = S[i] * cnd(d1) - X[i] * expRT * cnd(d2);
    put[i] = X[i] * expRT * (1.0f - cnd(d2)) - S[i] * (1.0f - cnd(d1));
}
