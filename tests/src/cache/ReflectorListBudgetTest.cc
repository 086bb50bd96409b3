// Reflectors listing at once share one ListMemoryBudget: however many start
// together, no more LIST pages are in flight than the budget holds.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <thread>

#include "src/cache/Informer.h"
#include "src/cache/ListMemoryBudget.h"
#include "src/cache/MetaObject.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using namespace std::chrono_literals;

// Counts the LISTs in flight across every reflector that shares it.
struct ListCounter {
  std::atomic<int> in_flight{0};
  std::atomic<int> most{0};
  std::atomic<int> lists{0};
};

class SlowLister : public kube::ListerWatcher {
 public:
  explicit SlowLister(ListCounter& counter) : counter_(counter) {}

  kube::Result<std::string> List(const kube::ListOptions&) override {
    int now = ++counter_.in_flight;
    int most = counter_.most.load();
    while (now > most && !counter_.most.compare_exchange_weak(most, now)) {
    }
    std::this_thread::sleep_for(50ms);  // a page being read and applied
    --counter_.in_flight;
    ++counter_.lists;
    return std::string(R"({"metadata":{"resourceVersion":"5"},"items":[]})");
  }
  kube::Status Watch(const kube::ListOptions&, const kube::WatchChunkHandler&,
                     kube::CancelFlag& cancel) override {
    while (!cancel.cancelled()) std::this_thread::sleep_for(5ms);
    return kube::Status(kube::StatusCode::kCancelled, "cancelled");
  }
  std::string Describe() const override { return "widgets"; }

 private:
  ListCounter& counter_;
};

TEST(ReflectorListBudgetTest, ConcurrentListsStayWithinTheSharedBudget) {
  ListCounter counter;
  auto budget = std::make_shared<kube::ListMemoryBudget>(2 * 100, 100);  // two pages
  std::vector<std::unique_ptr<kube::Informer<kube::MetaObject>>> informers;
  for (int i = 0; i < 6; ++i) {
    kube::ReflectorOptions options;
    options.list_budget = budget;
    options.watch_list = kube::WatchListMode::kOff;
    informers.push_back(std::make_unique<kube::Informer<kube::MetaObject>>(
        std::make_shared<SlowLister>(counter), kube::MetaObject::FromJson, options));
  }
  for (auto& informer : informers) informer->Start();
  ASSERT_TRUE(WaitFor("every informer synced", 10s, [&] { return counter.lists == 6; }).ok());
  for (auto& informer : informers) EXPECT_TRUE(informer->WaitForSync(5000ms));
  EXPECT_EQ(counter.most.load(), 2) << "at most two pages at once, and the budget was used";
  EXPECT_EQ(budget->in_use_bytes(), 0u);
  for (auto& informer : informers) informer->Stop();
}

}  // namespace
}  // namespace dra::testing
