// femgpu-form: placeholder until the lowering lands (replaced in the next commits).
#include <cstdio>
int main() { std::fprintf(stderr, "femgpu-form: not built yet\n"); return 1; }
