#pragma once
typedef struct { float x, y; } point2;
