#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "src/http/HttpTransport.h"
#include "tests/support/HostileTcpServer.h"
#include "tests/support/ScopedEnv.h"
#include "tests/support/ScriptedHttpServer.h"
#include "tests/support/TempDir.h"
#include "tests/support/TestCertificates.h"
#include "tests/support/TestTime.h"
#include "tests/support/TlsEchoServer.h"

namespace kube {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using dra::testing::Gate;
using dra::testing::HostileTcpServer;
using dra::testing::Route;
using dra::testing::ScopedEnv;
using dra::testing::ScriptedHttpServer;
using dra::testing::ScriptedResponse;
using dra::testing::StreamStep;
using dra::testing::TempDir;
using dra::testing::TestCertificates;
using dra::testing::TestTime;
using dra::testing::TlsEchoServer;

constexpr auto kDeadline = 10s;

size_t ResidentBytes() {
  std::ifstream statm("/proc/self/statm");
  size_t pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * static_cast<size_t>(sysconf(_SC_PAGESIZE));
}

// Runs Send on its own thread so that a transport that never returns fails
// the test at a deadline instead of hanging it. A thread that finished is
// joined, so its last steps (the transport's destructor, OpenSSL's
// per-thread cleanup) happen before the test ends and the process exits;
// TSan reported those racing with OpenSSL's atexit cleanup while the thread
// was detached. A thread still blocked is detached and owns what it touches.
class BackgroundSend {
 public:
  BackgroundSend(std::shared_ptr<HttpTransport> transport, HttpRequest request)
      : state_(std::make_shared<State>()) {
    state_->started = Clock::now();
    thread_ = std::thread([state = state_, transport, request] {
      auto result = transport->Send(request, state->cancel);
      std::lock_guard lock(state->mu);
      state->result = std::move(result);
      state->finished = Clock::now();
      state->done = true;
      state->cv.notify_all();
    });
  }
  ~BackgroundSend() {
    if (Finished(0ms)) {
      thread_.join();
    } else {
      thread_.detach();
    }
  }
  BackgroundSend(const BackgroundSend&) = delete;
  BackgroundSend& operator=(const BackgroundSend&) = delete;
  bool Finished(std::chrono::milliseconds within) {
    std::unique_lock lock(state_->mu);
    return state_->cv.wait_for(lock, within, [&] { return state_->done; });
  }
  void Cancel() { state_->cancel.Cancel(); }
  const Result<HttpResponse>& result() const { return state_->result; }
  Clock::duration elapsed() const { return state_->finished - state_->started; }

 private:
  struct State {
    std::mutex mu;
    std::condition_variable cv;
    bool done = false;
    CancelFlag cancel;
    Result<HttpResponse> result = Status(StatusCode::kInternal, "not finished");
    Clock::time_point started, finished;
  };
  std::shared_ptr<State> state_;
  std::thread thread_;
};

class HttpTransportTest : public ::testing::Test {
 public:
  std::shared_ptr<HttpTransport> Transport(const RestConfig& config) {
    auto transport = HttpTransport::Create(config);
    EXPECT_TRUE(transport.ok()) << transport.status().ToString();
    return transport.ok() ? std::shared_ptr<HttpTransport>(std::move(*transport)) : nullptr;
  }
  static RestConfig ConfigFor(const std::string& server) {
    RestConfig config;
    config.server = server;
    config.request_timeout = 5s;
    return config;
  }
};

HttpRequest Get(std::string path) {
  HttpRequest request;
  request.path = std::move(path);
  return request;
}

TEST_F(HttpTransportTest, SendsTheRequestAndReadsTheResponse) {
  auto server = ScriptedHttpServer::Start();
  ASSERT_TRUE(server.ok());
  (*server)->AddRoute(Route::Exact("PUT", "/api/v1/x"),
                      {ScriptedResponse::Json(201, R"({"ok":true})").WithHeader("X-A", "b")});
  RestConfig config = ConfigFor((*server)->Url());
  config.token = TokenSource::Static("secret");
  config.user_agent = "transport-test/1";
  HttpRequest request = Get("/api/v1/x");
  request.method = "PUT";
  request.body = R"({"spec":{}})";
  request.headers = {{"X-Trace", "t1"}};
  auto response = Transport(config)->Send(request);
  ASSERT_TRUE(response.ok()) << response.status().ToString();
  EXPECT_EQ(response->status, 201);
  EXPECT_EQ(response->body, R"({"ok":true})");
  EXPECT_EQ(response->Header("x-a"), "b");
  auto seen = (*server)->Requests();
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].method, "PUT");
  EXPECT_EQ(seen[0].body, R"({"spec":{}})");
  EXPECT_EQ(seen[0].Header("authorization"), "Bearer secret");
  EXPECT_EQ(seen[0].Header("user-agent"), "transport-test/1");
  EXPECT_EQ(seen[0].Header("content-type"), "application/json");
  EXPECT_EQ(seen[0].Header("x-trace"), "t1");
}

TEST_F(HttpTransportTest, SendsImpersonationHeadersOnEveryRequest) {
  auto server = ScriptedHttpServer::Start();
  ASSERT_TRUE(server.ok());
  (*server)->AddRoute(Route::Prefix("", "/"), {ScriptedResponse::Json(200, "{}")});
  RestConfig config = ConfigFor((*server)->Url());
  config.impersonate.user = "jane";
  config.impersonate.uid = "u-1";
  config.impersonate.groups = {"devs", "ops"};
  config.impersonate.extra = {{"scopes", {"view"}}, {"a/b", {"c"}}};
  auto transport = Transport(config);
  ASSERT_TRUE(transport->Send(Get("/one")).ok());
  ASSERT_TRUE(transport->Send(Get("/two")).ok());
  auto seen = (*server)->Requests();
  ASSERT_EQ(seen.size(), 2u);
  for (const auto& request : seen) {
    EXPECT_EQ(request.Header("impersonate-user"), "jane");
    EXPECT_EQ(request.Header("impersonate-uid"), "u-1");
    std::vector<std::string> groups;
    for (const auto& [name, value] : request.headers) {
      if (name == "Impersonate-Group") groups.push_back(value);
    }
    std::vector<std::string> expected = {"devs", "ops"};
    EXPECT_EQ(groups, expected);
    EXPECT_EQ(request.Header("impersonate-extra-scopes"), "view");
    EXPECT_EQ(request.Header("impersonate-extra-a%2Fb"), "c");
  }
}

// A listener that accepts and never answers: over plain HTTP the request
// waits for headers, over https:// the TLS handshake never completes.
void ExpectSilentServerTimesOut(const std::string& scheme) {
  auto silent = HostileTcpServer::Start();
  ASSERT_TRUE(silent.ok());
  RestConfig config = HttpTransportTest::ConfigFor((*silent)->Url(scheme));
  config.request_timeout = 1s;
  auto transport = HttpTransport::Create(config);
  ASSERT_TRUE(transport.ok());
  BackgroundSend send(std::move(*transport), Get("/api"));
  ASSERT_TRUE(send.Finished(TestTime::Scaled(5s)))
      << "still blocked 5 s (scaled) after a 1 s request timeout";
  EXPECT_LT(send.elapsed(), TestTime::Scaled(2500ms));
  ASSERT_FALSE(send.result().ok());
  EXPECT_EQ(send.result().status().code(), StatusCode::kTimeout)
      << send.result().status().ToString();
}

TEST_F(HttpTransportTest, SilentServerTimesOutWithinTheRequestTimeout) {
  ExpectSilentServerTimesOut("http");
}

TEST_F(HttpTransportTest, SilentTlsServerTimesOutWithinTheRequestTimeout) {
  ExpectSilentServerTimesOut("https");
}

TEST_F(HttpTransportTest, StreamFromASilentTlsServerEndsAtTheIdleTimeout) {
  auto silent = HostileTcpServer::Start();
  ASSERT_TRUE(silent.ok());
  auto transport = Transport(ConfigFor((*silent)->Url("https")));
  struct Ignore : StreamHandler {
    void OnHead(const HttpResponse&) override {}
    bool OnData(std::string_view) override { return true; }
  };
  auto done = std::make_shared<std::atomic<bool>>(false);
  auto status = std::make_shared<Status>();
  auto start = Clock::now();
  std::thread([transport, done, status] {
    Ignore handler;
    CancelFlag cancel;
    *status = transport->Stream(Get("/w?watch=true"), handler, cancel, 1s);
    done->store(true);
  }).detach();
  auto until = start + TestTime::Scaled(5s);
  while (!done->load() && Clock::now() < until) std::this_thread::sleep_for(10ms);
  ASSERT_TRUE(done->load()) << "stream still blocked 5 s (scaled) after a 1 s idle timeout";
  EXPECT_LT(Clock::now() - start, TestTime::Scaled(2500ms));
  EXPECT_FALSE(status->ok());
}

TEST_F(HttpTransportTest, CancelInterruptsAnInFlightRequest) {
  auto silent = HostileTcpServer::Start();
  ASSERT_TRUE(silent.ok());
  RestConfig config = ConfigFor((*silent)->Url("https"));
  config.request_timeout = 60s;
  BackgroundSend send(Transport(config), Get("/api"));
  auto until = Clock::now() + kDeadline;
  while ((*silent)->accepted() == 0 && Clock::now() < until) std::this_thread::sleep_for(10ms);
  ASSERT_EQ((*silent)->accepted(), 1);
  auto cancelled_at = Clock::now();
  send.Cancel();
  // Far below the 60 s request timeout, so only the cancel can have ended it.
  ASSERT_TRUE(send.Finished(TestTime::Scaled(2s))) << "cancel did not interrupt the request";
  EXPECT_LT(Clock::now() - cancelled_at, TestTime::Scaled(1s));
  EXPECT_EQ(send.result().status().code(), StatusCode::kCancelled)
      << send.result().status().ToString();
}

// A redirect goes to the caller; the transport does not follow it.
TEST_F(HttpTransportTest, RedirectIsReturnedNotFollowed) {
  auto server = ScriptedHttpServer::Start();
  ASSERT_TRUE(server.ok());
  (*server)->AddRoute(Route::Exact("GET", "/old"),
                      {ScriptedResponse::Json(302, "{}").WithHeader("Location", "/new")});
  (*server)->AddRoute(Route::Exact("GET", "/new"), {ScriptedResponse::Json(200, "{}")});
  auto response = Transport(ConfigFor((*server)->Url()))->Send(Get("/old"));
  ASSERT_TRUE(response.ok()) << response.status().ToString();
  EXPECT_EQ(response->status, 302);
  EXPECT_EQ(response->Header("location"), "/new");
  ASSERT_EQ((*server)->Requests().size(), 1u);
  EXPECT_EQ((*server)->Requests()[0].target, "/old");
}

TEST_F(HttpTransportTest, TimedOutRequestIsNotReplayed) {
  auto server = ScriptedHttpServer::Start();
  ASSERT_TRUE(server.ok());
  Gate never;
  (*server)->AddRoute(Route::Prefix("PUT", "/lease"),
                      {ScriptedResponse::Raw({StreamStep::WaitFor(never, 20s)})});
  RestConfig config = ConfigFor((*server)->Url());
  config.request_timeout = 1s;
  auto transport = Transport(config);
  // A pooled keep-alive connection first: replays happen on reused ones.
  (*server)->AddRoute(Route::Exact("GET", "/warm"), {ScriptedResponse::Json(200, "{}")});
  ASSERT_TRUE(transport->Send(Get("/warm")).ok());
  HttpRequest put = Get("/lease");
  put.method = "PUT";
  put.body = "{}";
  auto response = transport->Send(put);
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.status().code(), StatusCode::kTimeout) << response.status().ToString();
  // A replay would come within milliseconds; 2 s leaves room for a late one.
  EXPECT_FALSE((*server)->WaitForRequests(3, 2s));
  EXPECT_EQ((*server)->Requests().size(), 2u);
}

TEST_F(HttpTransportTest, OversizedChunkedBodyFailsWithBoundedMemory) {
  auto flood = HostileTcpServer::Start(
      {"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
       "100000\r\n" + std::string(0x100000, 'x') + "\r\n", 256u << 20, true});
  ASSERT_TRUE(flood.ok());
  RestConfig config = ConfigFor((*flood)->Url());
  config.request_timeout = 20s;
  config.max_response_body_bytes = 8u << 20;
  size_t before = ResidentBytes();
  auto response = Transport(config)->Send(Get("/api/v1/pods"));
  size_t growth = ResidentBytes() - std::min(ResidentBytes(), before);
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.status().code(), StatusCode::kTooLarge) << response.status().ToString();
  EXPECT_NE(response.status().message().find("max_response_body_bytes"), std::string::npos)
      << response.status().ToString();
  EXPECT_LT(growth, 64u << 20) << "resident memory grew by " << (growth >> 20) << " MiB";
}

TEST_F(HttpTransportTest, OversizedContentLengthFailsBeforeTheBodyIsRead) {
  auto flood = HostileTcpServer::Start({"HTTP/1.1 200 OK\r\nContent-Length: 209715200\r\n\r\n",
                                        std::string(1 << 20, 'x'), 200u << 20});
  ASSERT_TRUE(flood.ok());
  RestConfig config = ConfigFor((*flood)->Url());
  config.max_response_body_bytes = 1u << 20;
  auto response = Transport(config)->Send(Get("/api/v1/pods"));
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.status().code(), StatusCode::kTooLarge) << response.status().ToString();
  EXPECT_NE(response.status().message().find("max_response_body_bytes"), std::string::npos)
      << response.status().ToString();
}

// Each failure reaches the caller as a value, round after round on one
// transport.
TEST_F(HttpTransportTest, EveryOversizedResponseFailsAsTooLarge) {
  auto flood = HostileTcpServer::Start({"HTTP/1.1 200 OK\r\nContent-Length: 209715200\r\n\r\n",
                                        std::string(1 << 16, 'x'), 200u << 20});
  ASSERT_TRUE(flood.ok());
  RestConfig config = ConfigFor((*flood)->Url());
  config.max_response_body_bytes = 1u << 20;
  auto transport = Transport(config);
  for (int round = 0; round < 20; ++round) {
    auto response = transport->Send(Get("/api/v1/pods"));
    ASSERT_FALSE(response.ok()) << "round " << round;
    ASSERT_EQ(response.status().code(), StatusCode::kTooLarge)
        << "round " << round << ": " << response.status().ToString();
  }
}

// The flood is 512 MiB. Under ASan freed blocks wait in its quarantine
// (256 MiB by default) instead of being reused, so resident memory follows
// what was allocated, not what is live; the bound still catches a reader
// that keeps the flood.
#if defined(__SANITIZE_ADDRESS__)
constexpr size_t kEndlessHeaderGrowthLimit = 300u << 20;
#else
constexpr size_t kEndlessHeaderGrowthLimit = 32u << 20;
#endif

void ExpectEndlessHeadersFail(const std::string& filler) {
  auto flood = HostileTcpServer::Start({"HTTP/1.1 200 OK\r\n", filler, 512u << 20});
  ASSERT_TRUE(flood.ok());
  RestConfig config = HttpTransportTest::ConfigFor((*flood)->Url());
  config.request_timeout = 20s;
  auto transport = HttpTransport::Create(config);
  ASSERT_TRUE(transport.ok());
  size_t before = ResidentBytes();
  auto start = Clock::now();
  auto response = (*transport)->Send(Get("/api"));
  size_t growth = ResidentBytes() - std::min(ResidentBytes(), before);
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.status().code(), StatusCode::kUnavailable) << response.status().ToString();
  EXPECT_LT(Clock::now() - start, 5s);
  EXPECT_LT(growth, kEndlessHeaderGrowthLimit)
      << "resident memory grew by " << (growth >> 20) << " MiB";
}

TEST_F(HttpTransportTest, EndlessHeaderLinesFailWithBoundedMemory) {
  ExpectEndlessHeadersFail("X-Filler: " + std::string(1000, 'a') + "\r\n");
}

TEST_F(HttpTransportTest, EndlessSingleHeaderLineFailsWithBoundedMemory) {
  ExpectEndlessHeadersFail(std::string(64 * 1024, 'a'));
}

TEST_F(HttpTransportTest, HeaderCapIsConfigurable) {
  auto flood = HostileTcpServer::Start(
      {"HTTP/1.1 200 OK\r\n", "X-Filler: " + std::string(1000, 'a') + "\r\n", 1u << 20, true});
  ASSERT_TRUE(flood.ok());
  RestConfig config = ConfigFor((*flood)->Url());
  config.max_response_header_bytes = 16 * 1024;
  auto response = Transport(config)->Send(Get("/api"));
  ASSERT_FALSE(response.ok());
  EXPECT_NE(response.status().message().find("max_response_header_bytes"), std::string::npos)
      << response.status().ToString();
}

TEST_F(HttpTransportTest, StreamsAreNotLimitedByTheBodyCap) {
  auto server = ScriptedHttpServer::Start();
  ASSERT_TRUE(server.ok());
  std::string chunk(4096, 'y');
  (*server)->AddRoute(Route::Prefix("GET", "/w"),
                      {ScriptedResponse::Streamed({StreamStep::Chunk(chunk),
                                                   StreamStep::Chunk(chunk), StreamStep::End()})});
  RestConfig config = ConfigFor((*server)->Url());
  config.max_response_body_bytes = 1000;
  struct Collect : StreamHandler {
    int status = 0;
    std::string data;
    void OnHead(const HttpResponse& head) override { status = head.status; }
    bool OnData(std::string_view chunk) override {
      data.append(chunk);
      return true;
    }
  } handler;
  CancelFlag cancel;
  Status status = Transport(config)->Stream(Get("/w"), handler, cancel, 5s);
  EXPECT_TRUE(status.ok()) << status.ToString();
  EXPECT_EQ(handler.status, 200);
  EXPECT_EQ(handler.data, chunk + chunk);
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A CA, a server certificate for 127.0.0.1 and one for the name api.example
// only, two client certificates, and an unrelated CA.
class HttpTransportTlsTest : public HttpTransportTest {
 protected:
  void SetUp() override {
    TestCertificates pki(dir_.path().string());
    auto ca = pki.MakeCa("ca");
    ASSERT_TRUE(ca.ok()) << ca.status().ToString();
    ca_ = *ca;
    auto other = pki.MakeCa("other-ca");
    ASSERT_TRUE(other.ok()) << other.status().ToString();
    other_ca_ = *other;
    auto server = pki.MakeLeaf(ca_, "server", "server", "IP:127.0.0.1");
    auto other_server = pki.MakeLeaf(other_ca_, "other-server", "other-server", "IP:127.0.0.1");
    ASSERT_TRUE(other_server.ok()) << other_server.status().ToString();
    other_server_ = *other_server;
    auto named = pki.MakeLeaf(ca_, "named", "named", "DNS:api.example");
    auto a = pki.MakeLeaf(ca_, "client-a", "client-a", "");
    auto b = pki.MakeLeaf(ca_, "client-b", "client-b", "");
    ASSERT_TRUE(server.ok() && named.ok() && a.ok() && b.ok());
    server_ = *server;
    named_ = *named;
    client_a_ = *a;
    client_b_ = *b;
  }
  RestConfig TlsConfig(const TlsEchoServer& server, const TestCertificates::Pair& ca) {
    RestConfig config = ConfigFor(server.Url());
    config.ca_pem = ReadAll(ca.cert);
    return config;
  }
  Result<HttpResponse> GetFrom(const RestConfig& config) {
    auto transport = HttpTransport::Create(config);
    if (!transport.ok()) return transport.status();
    return (*transport)->Send(Get("/version"));
  }

  TempDir dir_;
  TestCertificates::Pair ca_, other_ca_, server_, other_server_, named_, client_a_, client_b_;
};

TEST_F(HttpTransportTlsTest, TrustsTheConfiguredCaOnly) {
  auto server = TlsEchoServer::Start(server_.cert, server_.key);
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  auto ok = GetFrom(TlsConfig(**server, ca_));
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ(ok->body, "none");
  auto untrusted = GetFrom(TlsConfig(**server, other_ca_));
  ASSERT_FALSE(untrusted.ok());
  EXPECT_EQ(untrusted.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(untrusted.status().message().find("certificate"), std::string::npos)
      << untrusted.status().ToString();
}

// The system's trust store, here the unrelated CA through SSL_CERT_FILE,
// serves only a configuration that names no CA: the transport adds no bundle
// of its own to the configured one.
TEST_F(HttpTransportTlsTest, SystemTrustAppliesOnlyWithoutAConfiguredCa) {
  ScopedEnv system_trust("SSL_CERT_FILE", other_ca_.cert.c_str());
  ScopedEnv no_dir("SSL_CERT_DIR", dir_.path().c_str());
  auto server = TlsEchoServer::Start(other_server_.cert, other_server_.key);
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  auto system = GetFrom(ConfigFor((*server)->Url()));
  ASSERT_TRUE(system.ok()) << system.status().ToString();
  auto configured = GetFrom(TlsConfig(**server, ca_));
  ASSERT_FALSE(configured.ok()) << "trusted a CA the configuration does not name";
  EXPECT_NE(configured.status().message().find("certificate"), std::string::npos)
      << configured.status().ToString();
}

TEST_F(HttpTransportTlsTest, InsecureSkipsVerification) {
  auto server = TlsEchoServer::Start(server_.cert, server_.key);
  ASSERT_TRUE(server.ok());
  RestConfig config = ConfigFor((*server)->Url());
  config.insecure_skip_tls_verify = true;
  auto response = GetFrom(config);
  ASSERT_TRUE(response.ok()) << response.status().ToString();
}

TEST_F(HttpTransportTlsTest, PresentsTheClientCertificate) {
  auto server = TlsEchoServer::Start(server_.cert, server_.key, ca_.cert);
  ASSERT_TRUE(server.ok());
  RestConfig config = TlsConfig(**server, ca_);
  config.client_cert_pem = ReadAll(client_a_.cert);
  config.client_key_pem = ReadAll(client_a_.key);
  auto response = GetFrom(config);
  ASSERT_TRUE(response.ok()) << response.status().ToString();
  EXPECT_EQ(response->body, "client-a");
}

TEST_F(HttpTransportTlsTest, RotatedClientCertificateFilesAreUsedByNewConnections) {
  auto server = TlsEchoServer::Start(server_.cert, server_.key, ca_.cert);
  ASSERT_TRUE(server.ok());
  std::string cert = dir_.Write("tls.crt", ReadAll(client_a_.cert));
  std::string key = dir_.Write("tls.key", ReadAll(client_a_.key));
  RestConfig config = TlsConfig(**server, ca_);
  config.client_cert_pem = ReadAll(cert);
  config.client_key_pem = ReadAll(key);
  config.client_cert_file = cert;
  config.client_key_file = key;
  auto transport = HttpTransport::Create(config);
  ASSERT_TRUE(transport.ok()) << transport.status().ToString();
  auto before = (*transport)->Send(Get("/version"));
  ASSERT_TRUE(before.ok()) << before.status().ToString();
  EXPECT_EQ(before->body, "client-a");
  // Swapped the way kubelet and cert-manager do it: new files renamed in place.
  std::filesystem::rename(dir_.Write("tls.crt.new", ReadAll(client_b_.cert)), cert);
  std::filesystem::rename(dir_.Write("tls.key.new", ReadAll(client_b_.key)), key);
  auto after = (*transport)->Send(Get("/version"));
  ASSERT_TRUE(after.ok()) << after.status().ToString();
  EXPECT_EQ(after->body, "client-b");
}

TEST_F(HttpTransportTlsTest, TlsServerNameIsUsedForVerification) {
  auto server = TlsEchoServer::Start(named_.cert, named_.key);
  ASSERT_TRUE(server.ok());
  RestConfig config = TlsConfig(**server, ca_);
  auto mismatch = GetFrom(config);
  ASSERT_FALSE(mismatch.ok()) << "the certificate names api.example, not 127.0.0.1";
  config.tls_server_name = "api.example";
  auto response = GetFrom(config);
  ASSERT_TRUE(response.ok()) << response.status().ToString();
}

}  // namespace
}  // namespace kube
