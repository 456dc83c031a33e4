// femgpu_mma_8x8x4(d0, d1, a, b): d0, d1 += A B for this lane's fragment words of one
// FP64 tensor-core product (Stmt::Mma, kernel/kernel_ast.h), CUDA sm_80 and later.
// Not volatile: the product has no side effect, so the compiler may schedule loads
// around it. Printed by kernel/emit.cpp into kernels that use it.
__device__ __forceinline__ void femgpu_mma_8x8x4(double &d0, double &d1, const double a, const double b)
{
  asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};" : "+d"(d0), "+d"(d1) : "d"(a), "d"(b));
}
