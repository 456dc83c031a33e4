// femgpu_atomic_add(p, v): *p += v atomically, for real = double (FEMGPU_FP64) or float.
// OpenCL C 1.2 has no floating-point atomic add, so this is a compare-and-swap loop on
// the value's bits; the double version needs cl_khr_int64_base_atomics. Compared as
// integers so that a NaN already in *p cannot make the loop spin forever. Printed by
// kernel/emit.cpp into every OpenCL kernel (embedded in the library at build time).
#ifdef FEMGPU_FP64
inline void femgpu_atomic_add(volatile __global double *p, double v)
{
  long expected = as_long(*p);
  for (;;) {
    long seen = atom_cmpxchg((volatile __global long *)p, expected, as_long(as_double(expected) + v));
    if (seen == expected) return;
    expected = seen;
  }
}
#else
inline void femgpu_atomic_add(volatile __global float *p, float v)
{
  int expected = as_int(*p);
  for (;;) {
    int seen = atomic_cmpxchg((volatile __global int *)p, expected, as_int(as_float(expected) + v));
    if (seen == expected) return;
    expected = seen;
  }
}
#endif
