// RestClient::CancelAll(): requests in flight end at once, retry waits are
// cut short, and later requests fail without reaching the transport.
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <thread>

#include "src/client/RestClient.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using namespace std::chrono_literals;

// Blocks every request until its cancel flag fires (as a hung API server
// would keep a transport waiting), or answers `status` at once when set.
class HangingTransport : public kube::HttpTransport {
 public:
  explicit HangingTransport(int status = 0) : status_(status) {}

  kube::Result<kube::HttpResponse> Send(const kube::HttpRequest&) override {
    ADD_FAILURE() << "the request must be sent with a cancel flag";
    return kube::Status(kube::StatusCode::kInternal, "uncancellable send");
  }
  kube::Result<kube::HttpResponse> Send(const kube::HttpRequest&,
                                        kube::CancelFlag& cancel) override {
    ++sent;
    if (status_ != 0) {
      kube::HttpResponse response;
      response.status = status_;
      response.headers["retry-after"] = "60";
      return response;
    }
    return Hang(cancel);
  }
  kube::Status Stream(const kube::HttpRequest&, kube::StreamHandler&, kube::CancelFlag& cancel,
                      std::chrono::seconds) override {
    ++sent;
    return Hang(cancel).status();
  }

  std::atomic<int> sent{0};
  std::atomic<int> hanging{0};

 private:
  kube::Result<kube::HttpResponse> Hang(kube::CancelFlag& cancel) {
    ++hanging;
    auto deadline = std::chrono::steady_clock::now() + 30s;
    while (!cancel.cancelled() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(1ms);
    }
    --hanging;
    return kube::Status(kube::StatusCode::kCancelled, "request cancelled");
  }

  int status_;
};

class NullHandler : public kube::StreamHandler {
 public:
  void OnHead(const kube::HttpResponse&) override {}
  bool OnData(std::string_view) override { return true; }
};

TEST(RestClientCancelTest, CancelAllEndsRequestsInFlightAndRefusesLaterOnes) {
  auto transport = std::make_shared<HangingTransport>();
  kube::RestClient client(transport);
  auto get = std::async(std::launch::async, [&] { return client.Get("/api/v1/pods"); });
  kube::CancelFlag watch_cancel;
  NullHandler handler;
  auto watch = std::async(std::launch::async, [&] {
    return client.Stream(kube::HttpRequest{}, handler, watch_cancel, 300s);
  });
  ASSERT_TRUE(WaitFor("both requests in flight", 5s, [&] { return transport->hanging == 2; }).ok());

  client.CancelAll();
  ASSERT_EQ(get.wait_for(5s), std::future_status::ready) << "the GET was not cancelled";
  ASSERT_EQ(watch.wait_for(5s), std::future_status::ready) << "the watch was not cancelled";
  EXPECT_EQ(get.get().status().code(), kube::StatusCode::kCancelled);
  EXPECT_EQ(watch.get().code(), kube::StatusCode::kCancelled);
  EXPECT_TRUE(watch_cancel.cancelled());

  int sent = transport->sent;
  auto later = client.Get("/api/v1/nodes");
  EXPECT_EQ(later.status().code(), kube::StatusCode::kCancelled);
  kube::CancelFlag later_cancel;
  EXPECT_EQ(client.Stream(kube::HttpRequest{}, handler, later_cancel, 300s).code(),
            kube::StatusCode::kCancelled);
  EXPECT_EQ(transport->sent, sent) << "requests after CancelAll() must not be sent";
  EXPECT_TRUE(client.cancelled());
}

TEST(RestClientCancelTest, CancelAllCutsARetryWaitShort) {
  auto transport = std::make_shared<HangingTransport>(503);  // Retry-After: 60
  kube::RestClient client(transport);
  auto get = std::async(std::launch::async, [&] { return client.Get("/api/v1/pods"); });
  ASSERT_TRUE(WaitFor("the first attempt", 5s, [&] { return transport->sent == 1; }).ok());
  client.CancelAll();
  ASSERT_EQ(get.wait_for(5s), std::future_status::ready) << "still waiting out Retry-After";
  EXPECT_EQ(get.get().status().code(), kube::StatusCode::kCancelled);
  EXPECT_EQ(transport->sent, 1);
}

}  // namespace
}  // namespace dra::testing
