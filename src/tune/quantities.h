// The paper's quantities of interest for a tiled candidate (section 3.2.4):
// barriers N_sync, local memory L, SIMD, predication and aliasing efficiencies, and
// the usable/performed operation counts behind eta_pred.
//
// Takes: a KernelShape and Tiles. Returns numbers; no side effects.
// Note: the prefetch buffer counts the tables the kernel really prefetches (distinct
// derivative tables: the components of a vector Lagrange element share them), where
// the paper writes N^deriv; for scalar elements the two agree.
#pragma once

#include "tune/kernel_shape.h"

namespace femgpu {

long long n_sync(const KernelShape &s, const Tiles &t);
// Words of local memory: the aliased prefetch buffer (Eq. 5) plus N_c T^Q N_eval.
long long prefetch_words(const KernelShape &s, const Tiles &t);
long long local_memory_words(const KernelShape &s, const Tiles &t);
double eta_simd(const Tiles &t, int simd_width = 32);
double eta_alias(const KernelShape &s, const Tiles &t);
long long ops_usable(const KernelShape &s);     // Eq. (12), per cell
long long ops_performed(const KernelShape &s, const Tiles &t);
double eta_pred(const KernelShape &s, const Tiles &t);

}  // namespace femgpu
