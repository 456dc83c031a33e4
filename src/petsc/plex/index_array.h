// A std::vector of closure-map indices whose resize() leaves new entries uninitialized.
//
// Why: a DOF map of a million-unknown mesh is tens of MB (843k P2 tetrahedra x 10 entries,
// three maps), and std::vector<int>::resize zeroes it on one thread before the threads that
// fill it write it again; the zeroing is the pages' first touch, which on a virtual machine
// costs about as much as the walk that fills them. Here the filling loop touches them
// first, on all its threads.
// Every map built into an IndexArray is written entirely after resize (the builders' loops
// cover every entry); nothing reads an entry before that.
// Arrays of 4 MiB and more are aligned to 2 MiB and asked for transparent huge pages
// (madvise MADV_HUGEPAGE, where the kernel has it): one page fault per 2 MiB instead of per
// 4 KiB at the first touch, and fewer TLB misses in the closure walks' scattered writes.
// The closure maps of ex13 3D P2 at 843k cells (FEMGPUPlexMaps) took 0.56-0.61 s instead
// of 0.83-0.88 on 2 cores that way.
#pragma once

#include <sys/mman.h>

#include <stdlib.h>  // posix_memalign, free
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace femgpu {

// An allocator that default-initializes (for int: leaves as is) where std::allocator
// value-initializes (zeroes).
template <class T> struct DefaultInitAllocator : std::allocator<T> {
  template <class U> struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  DefaultInitAllocator() = default;
  template <class U> DefaultInitAllocator(const DefaultInitAllocator<U> &) noexcept {}
  T *allocate(std::size_t n)
  {
    const std::size_t bytes = n * sizeof(T);
    if (bytes < kHugeBytes) return std::allocator<T>::allocate(n);
    void *p = nullptr;
    if (::posix_memalign(&p, kHugePage, bytes)) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
    (void)madvise(p, bytes, MADV_HUGEPAGE);  // a hint: refused (THP off), the pages are 4 KiB
#endif
    return static_cast<T *>(p);
  }
  void deallocate(T *p, std::size_t n)
  {
    if (n * sizeof(T) < kHugeBytes) std::allocator<T>::deallocate(p, n);
    else ::free(p);
  }
  static constexpr std::size_t kHugePage = std::size_t(2) << 20, kHugeBytes = std::size_t(4) << 20;
  template <class U> void construct(U *p) noexcept(std::is_nothrow_default_constructible<U>::value) { ::new (static_cast<void *>(p)) U; }
  template <class U, class... Args> void construct(U *p, Args &&...args) { ::new (static_cast<void *>(p)) U(std::forward<Args>(args)...); }
};

// A std::vector whose resize() leaves new entries uninitialized (for arrays that threads fill).
template <class T> using DefaultInitVector = std::vector<T, DefaultInitAllocator<T>>;

using IndexArray = DefaultInitVector<int>;

}  // namespace femgpu
