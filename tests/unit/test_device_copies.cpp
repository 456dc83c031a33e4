// DeviceCopies (src/fem/device_copies.h): one device copy of a listed host array per
// backend and device, handed to every reader while one holds it; none for arrays that
// are not listed.
#include <catch2/catch.hpp>

#include <functional>
#include <memory>
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

// A backend's make() for a copy of v, counting the copies made in *made.
std::function<std::shared_ptr<FakeBuffer>()> counting_make(const std::vector<int> &v, int *made)
{
  return [&v, made]() {
    ++*made;
    return std::make_shared<FakeBuffer>(FakeBuffer{v.data(), v.size()});
  };
}

}  // namespace

TEST_CASE("DeviceCopies: a listed array is copied once per backend and device while a reader holds it", "[device_copies]")
{
  std::vector<int> map(1000, 7), other(1000, 7);
  auto copies = std::make_shared<DeviceCopies>();
  copies->list(map.data(), map.size());
  int made = 0;
  auto make = [&made](const std::vector<int> &v) { return counting_make(v, &made); };
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

TEST_CASE("DeviceCopies: an array shared with another owner gets that owner's copy, and keeps the owner", "[device_copies]")
{
  std::vector<int> coordinates(500, 3), own(500, 3);
  auto fine = std::make_shared<DeviceCopies>();
  fine->list(coordinates.data(), coordinates.size());
  auto level = std::make_shared<DeviceCopies>();
  level->list(own.data(), own.size());
  level->list_shared(coordinates.data(), coordinates.size(), fine);
  int made = 0;
  auto make = [&made](const std::vector<int> &v) { return counting_make(v, &made); };
  auto from_fine = device_copy<FakeBuffer>(fine, "cuda", 0, coordinates.data(), coordinates.size(), make(coordinates));
  auto from_level = device_copy<FakeBuffer>(level, "cuda", 0, coordinates.data(), coordinates.size(), make(coordinates));
  CHECK(made == 1);
  CHECK(from_level == from_fine);
  CHECK(level->listed(coordinates.data(), coordinates.size()));
  CHECK(fine->reused() == 1);  // counted where the copy lives
  // The level's own arrays stay its own; the fine owner does not hand them out.
  auto level_own = device_copy<FakeBuffer>(level, "cuda", 0, own.data(), own.size(), make(own));
  auto fine_own = device_copy<FakeBuffer>(fine, "cuda", 0, own.data(), own.size(), make(own));
  CHECK(made == 3);
  CHECK(level_own != fine_own);
  // The fine owner released by its maps: the level still reaches it (and its live copy).
  std::weak_ptr<DeviceCopies> fine_alive = fine;
  fine.reset();
  CHECK_FALSE(fine_alive.expired());
  auto again = device_copy<FakeBuffer>(level, "cuda", 0, coordinates.data(), coordinates.size(), make(coordinates));
  CHECK(made == 3);
  CHECK(again == from_fine);
  // A null owner or an empty array lists nothing.
  level->list_shared(own.data(), own.size() - 1, nullptr);
  CHECK_FALSE(level->listed(own.data(), own.size() - 1));
}
