// DeviceCopies (src/fem/device_copies.h): one device copy of a listed host array per
// backend and device, handed to every reader while one holds it; none for arrays that
// are not listed.
#include <catch2/catch.hpp>

#include <stdexcept>
#include <vector>

#include "fem/device_copies.h"

using femgpu::DeviceCopies;
using femgpu::device_copy;

namespace {

// A stand-in for a backend's device buffer: which host array it copied, and how often.
struct FakeBuffer {
  const int *from;
  std::size_t n;
};

}  // namespace

TEST_CASE("DeviceCopies: a listed array is copied once per backend and device while a reader holds it", "[device_copies]")
{
  std::vector<int> map(1000, 7), other(1000, 7);
  auto copies = std::make_shared<DeviceCopies>();
  copies->list(map.data(), map.size());
  int made = 0;
  auto make = [&](const std::vector<int> &v) {
    return [&made, &v]() {
      ++made;
      return std::make_shared<FakeBuffer>(FakeBuffer{v.data(), v.size()});
    };
  };
  auto a = device_copy<FakeBuffer>(copies, "cuda", 0, map.data(), map.size(), make(map));
  auto b = device_copy<FakeBuffer>(copies, "cuda", 0, map.data(), map.size(), make(map));
  CHECK(made == 1);
  CHECK(a == b);
  CHECK(a->from == map.data());
  CHECK(copies->reused() == 1);
  // Another device, another backend: copies of their own.
  auto c = device_copy<FakeBuffer>(copies, "cuda", 1, map.data(), map.size(), make(map));
  auto d = device_copy<FakeBuffer>(copies, "opencl", 0, map.data(), map.size(), make(map));
  CHECK(made == 3);
  CHECK(c != a);
  CHECK(d != a);
  // An array not listed (equal values, another array), or a listed one's prefix: each
  // reader its own copy.
  auto e = device_copy<FakeBuffer>(copies, "cuda", 0, other.data(), other.size(), make(other));
  auto f = device_copy<FakeBuffer>(copies, "cuda", 0, other.data(), other.size(), make(other));
  auto g = device_copy<FakeBuffer>(copies, "cuda", 0, map.data(), map.size() - 1, make(map));
  CHECK(made == 6);
  CHECK(e != f);
  CHECK(g != a);
  // No DeviceCopies at all: the caller's own copy.
  auto h = device_copy<FakeBuffer>(nullptr, "cuda", 0, map.data(), map.size(), make(map));
  CHECK(made == 7);
  CHECK(h != a);
  CHECK(copies->reused() == 1);
}

TEST_CASE("DeviceCopies: a copy no reader holds is released and made again when asked for", "[device_copies]")
{
  std::vector<int> map(64, 1);
  auto copies = std::make_shared<DeviceCopies>();
  copies->list(map.data(), map.size());
  int made = 0, alive = 0;
  auto make = [&]() {
    ++made, ++alive;
    return std::shared_ptr<FakeBuffer>(new FakeBuffer{map.data(), map.size()}, [&alive](FakeBuffer *p) { --alive, delete p; });
  };
  {
    auto a = device_copy<FakeBuffer>(copies, "cuda", 0, map.data(), map.size(), make);
    CHECK(alive == 1);
  }
  CHECK(alive == 0);  // not kept by the DeviceCopies
  auto b = device_copy<FakeBuffer>(copies, "cuda", 0, map.data(), map.size(), make);
  CHECK(made == 2);
  CHECK(alive == 1);
}

TEST_CASE("DeviceCopies: a copy that fails to be made is not kept", "[device_copies]")
{
  std::vector<int> map(64, 1);
  auto copies = std::make_shared<DeviceCopies>();
  copies->list(map.data(), map.size());
  CHECK_THROWS_AS(device_copy<FakeBuffer>(copies, "cuda", 0, map.data(), map.size(),
                                          []() -> std::shared_ptr<FakeBuffer> { throw std::runtime_error("out of device memory"); }),
                  std::runtime_error);
  int made = 0;
  auto a = device_copy<FakeBuffer>(copies, "cuda", 0, map.data(), map.size(), [&]() {
    ++made;
    return std::make_shared<FakeBuffer>(FakeBuffer{map.data(), map.size()});
  });
  CHECK(made == 1);
  CHECK(a->from == map.data());
  // Empty or null arrays are never listed.
  copies->list(nullptr, 5);
  copies->list(map.data(), 0);
  CHECK_FALSE(copies->listed(nullptr, 5));
  CHECK_FALSE(copies->listed(map.data(), 0));
}
