#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>

namespace kube {

// Bounds the memory that the LIST pages of all reflectors of a process hold
// at once. Each LIST response is capped (RestConfig::max_response_body_bytes,
// 64 MiB) and held while its page is decoded and applied, so reflectors
// listing together (at start-up, after a relist storm) could otherwise hold
// one cap each. A page reserves `per_list` bytes before it is requested and
// releases them once it is applied; a page that does not fit waits for
// another to finish. One page always fits, however small the budget.
// Thread-safe.
class ListMemoryBudget {
 public:
  // 3 pages of the default 64 MiB response cap.
  static constexpr size_t kDefaultTotalBytes = size_t{192} * 1024 * 1024;
  static constexpr size_t kDefaultPerListBytes = size_t{64} * 1024 * 1024;

  explicit ListMemoryBudget(size_t total_bytes = kDefaultTotalBytes,
                            size_t per_list_bytes = kDefaultPerListBytes);
  ListMemoryBudget(const ListMemoryBudget&) = delete;
  ListMemoryBudget& operator=(const ListMemoryBudget&) = delete;

  // Holds one page's share until destroyed (or moved from).
  class Reservation {
   public:
    Reservation() = default;
    explicit Reservation(ListMemoryBudget* budget) : budget_(budget) {}
    Reservation(Reservation&& other) noexcept : budget_(other.budget_) { other.budget_ = nullptr; }
    Reservation& operator=(Reservation&& other) noexcept;
    ~Reservation();
    Reservation(const Reservation&) = delete;
    Reservation& operator=(const Reservation&) = delete;
    bool held() const { return budget_ != nullptr; }

   private:
    ListMemoryBudget* budget_ = nullptr;
  };

  // Waits until a page's share fits; an empty reservation once `stopping`
  // returns true (it is asked about every `poll`).
  Reservation Acquire(const std::function<bool()>& stopping,
                      std::chrono::milliseconds poll = std::chrono::milliseconds(100));

  size_t in_use_bytes() const;
  // The most ever reserved at once.
  size_t peak_bytes() const;
  size_t per_list_bytes() const { return per_list_; }

 private:
  void Release();

  const size_t total_;
  const size_t per_list_;
  mutable std::mutex mu_;
  std::condition_variable released_;
  size_t in_use_ = 0;
  size_t peak_ = 0;
};

}  // namespace kube
