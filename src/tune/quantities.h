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
// The words the tiled kernel allocates (schedule.h's shared_memory_bytes for registers
// DOFs): local_memory_words with each table row and each cell's slice of e padded to
// an odd stride. The search space keeps the candidates whose allocation fits.
long long allocated_local_words(const KernelShape &s, const Tiles &t);
double eta_simd(const Tiles &t, int simd_width = 32);
double eta_alias(const KernelShape &s, const Tiles &t);
long long ops_usable(const KernelShape &s);     // Eq. (12), per cell
long long ops_performed(const KernelShape &s, const Tiles &t);
double eta_pred(const KernelShape &s, const Tiles &t);

// Words each work-item keeps in registers in the tiled kernel (not a paper quantity):
// the evaluation accumulators of every term (ceil(T_e^r / N_WI) rows each) plus the
// largest group's DOF tile (T_e^c times its values per basis function) while
// evaluating, or ceil(T_q^r / N_WI) output rows while contracting, plus the gathered
// coordinates. On the H200 a footprint past ~100 FP64 words spills and caps occupancy
// at one work-group per multiprocessor (ncu, records/ncu/), which the
// paper's model does not see; the tuner uses it to time low-register candidates too.
// shared_dofs: the DOF tile lives in shared memory and the unrolled evaluation holds
// one column's values (Dofs::Shared with Loops::Unrolled).
long long register_words(const KernelShape &s, const Tiles &t, bool shared_dofs = false);

}  // namespace femgpu
