// Device copies of host index arrays that several kernels read, made once per device.
//
// A DM's closure maps are read by its residual's kernel, its Jacobian's (action and
// diagonal) and the p-multigrid's transfers; each used to upload its own copy (the P2 map
// is 34 MB at 843k cells, one upload and one more device buffer per reader). The owner of
// the host arrays (PlexMaps) keeps one DeviceCopies and lists the arrays it never changes
// while it lives; a backend asks for a listed array's copy on its device and gets the one
// another backend made, or makes it. An array that is not listed (a scratch map of a
// subset of cells, a coefficient's own map) gets none: its backend uploads its own.
// A copy lives as long as a backend holds it (kept here weakly), so no device memory is
// held for arrays nobody reads.
// Does not: know any device API (a copy is what the backend's `make` returns).
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <tuple>
#include <utility>

namespace femgpu {

class DeviceCopies {
 public:
  // host[0, n) stays unchanged while this object lives.
  void list(const int *host, std::size_t n);
  // host[0, n) is an array `owner` listed, shared with its owner (a p-multigrid level's
  // coordinate map is the fine DM's): get() hands out owner's copy, so the readers of
  // both read one. Keeps `owner` alive; the caller keeps the array alive with it.
  void list_shared(const int *host, std::size_t n, std::shared_ptr<DeviceCopies> owner);
  bool listed(const int *host, std::size_t n) const;
  // The copy of listed host[0, n) on `backend`'s device `device`, made by make() where no
  // live copy exists; null (make not called) where the array is not listed.
  std::shared_ptr<void> get(const std::string &backend, int device, const int *host, std::size_t n,
                            const std::function<std::shared_ptr<void>()> &make);
  // How many times get() handed out a copy that was already made (for -info and tests).
  std::size_t reused() const;

 private:
  using Key = std::tuple<std::string, int, const int *, std::size_t>;
  mutable std::mutex mutex_;
  std::set<std::pair<const int *, std::size_t>> listed_;
  std::map<std::pair<const int *, std::size_t>, std::shared_ptr<DeviceCopies>> shared_;
  std::map<Key, std::weak_ptr<void>> made_;
  std::size_t reused_ = 0;
};

// The copy of host[0, n) from `copies` (may be null), or a copy of the caller's own:
// make()'s result either way. The typed form of DeviceCopies::get for a backend's buffer.
template <class Buffer>
std::shared_ptr<Buffer> device_copy(const std::shared_ptr<DeviceCopies> &copies, const std::string &backend, int device, const int *host,
                                    std::size_t n, const std::function<std::shared_ptr<Buffer>()> &make)
{
  if (copies)  // null where the array is not listed (get() checks, once)
    if (std::shared_ptr<void> shared = copies->get(backend, device, host, n, [&]() -> std::shared_ptr<void> { return make(); }))
      return std::static_pointer_cast<Buffer>(shared);
  return make();
}

}  // namespace femgpu
