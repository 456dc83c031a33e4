// Device copies of listed host index arrays, shared by the backends that read them
// (see device_copies.h).
#include "fem/device_copies.h"

namespace femgpu {

void DeviceCopies::list(const int *host, std::size_t n)
{
  if (!host || !n) return;
  std::lock_guard<std::mutex> lock(mutex_);
  listed_.insert({host, n});
}

void DeviceCopies::list_shared(const int *host, std::size_t n, std::shared_ptr<DeviceCopies> owner)
{
  if (!host || !n || !owner) return;
  std::lock_guard<std::mutex> lock(mutex_);
  shared_[{host, n}] = std::move(owner);
}

bool DeviceCopies::listed(const int *host, std::size_t n) const
{
  std::lock_guard<std::mutex> lock(mutex_);
  return listed_.count({host, n}) > 0 || shared_.count({host, n}) > 0;
}

std::shared_ptr<void> DeviceCopies::get(const std::string &backend, int device, const int *host, std::size_t n,
                                        const std::function<std::shared_ptr<void>()> &make)
{
  std::shared_ptr<DeviceCopies> owner;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = shared_.find({host, n}); it != shared_.end()) owner = it->second;
  }
  if (owner) return owner->get(backend, device, host, n, make);  // the owner's copy (its lock, not ours)
  std::lock_guard<std::mutex> lock(mutex_);
  if (!listed_.count({host, n})) return nullptr;
  std::weak_ptr<void> &slot = made_[Key{backend, device, host, n}];
  if (std::shared_ptr<void> live = slot.lock()) {
    ++reused_;
    return live;
  }
  std::shared_ptr<void> made = make();  // may throw (out of device memory): nothing is kept then
  slot = made;
  return made;
}

std::size_t DeviceCopies::reused() const
{
  std::lock_guard<std::mutex> lock(mutex_);
  return reused_;
}

}  // namespace femgpu
