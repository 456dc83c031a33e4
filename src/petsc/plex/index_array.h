// A std::vector of closure-map indices whose resize() leaves new entries uninitialized.
//
// Why: a DOF map of a million-unknown mesh is tens of MB (843k P2 tetrahedra x 10 entries,
// three maps), and std::vector<int>::resize zeroes it on one thread before the threads that
// fill it write it again; the zeroing is the pages' first touch, which on a virtual machine
// costs about as much as the walk that fills them. Here the filling loop touches them
// first, on all its threads.
// Every map built into an IndexArray is written entirely after resize (the builders' loops
// cover every entry); nothing reads an entry before that.
#pragma once

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
  template <class U> void construct(U *p) noexcept(std::is_nothrow_default_constructible<U>::value) { ::new (static_cast<void *>(p)) U; }
  template <class U, class... Args> void construct(U *p, Args &&...args) { ::new (static_cast<void *>(p)) U(std::forward<Args>(args)...); }
};

// A std::vector whose resize() leaves new entries uninitialized (for arrays that threads fill).
template <class T> using DefaultInitVector = std::vector<T, DefaultInitAllocator<T>>;

using IndexArray = DefaultInitVector<int>;

}  // namespace femgpu
