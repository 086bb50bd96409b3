#pragma once

#include <atomic>
#include <cstdint>

namespace dra::inventory {

// The Inventory's change count (Inventory::change_count). An update holds a
// Bump for its whole length, declared after its write lock, so the count
// moves on every way out of the update, an exception included, while the
// lock is still held.
class ChangeCounter {
 public:
  class Bump {
   public:
    explicit Bump(ChangeCounter& counter) : counter_(counter) {}
    ~Bump() { counter_.Moved(); }
    Bump(const Bump&) = delete;
    Bump& operator=(const Bump&) = delete;

   private:
    ChangeCounter& counter_;
  };

  Bump Update() { return Bump(*this); }
  // For an update that knows only at its end whether it changed anything.
  void Moved() { count_.fetch_add(1, std::memory_order_release); }
  uint64_t value() const { return count_.load(std::memory_order_acquire); }

 private:
  std::atomic<uint64_t> count_{0};
};

}  // namespace dra::inventory
