#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <future>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>

#include "src/http/HttpTransport.h"
#include "tests/support/ScriptedHttpServer.h"
#include "tests/support/TestTime.h"

namespace dra::testing {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using kube::StatusCode;

constexpr auto kDeadline = 5s;

long Millis(Clock::duration d) {
  return static_cast<long>(std::chrono::duration_cast<std::chrono::milliseconds>(d).count());
}

const std::string kPod = R"({"kind":"Pod","apiVersion":"v1","metadata":{"name":"a"}})";

// Collects a streamed response and lets the test wait for what it expects.
class CollectingHandler : public kube::StreamHandler {
 public:
  void OnHead(const kube::HttpResponse& head) override {
    std::lock_guard lock(mu_);
    head_ = head;
    changed_.notify_all();
  }
  bool OnData(std::string_view chunk) override {
    std::lock_guard lock(mu_);
    data_.append(chunk);
    changed_.notify_all();
    return true;
  }
  bool WaitForData(const std::string& needle, std::chrono::milliseconds timeout) {
    std::unique_lock lock(mu_);
    return changed_.wait_for(lock, timeout,
                             [&] { return data_.find(needle) != std::string::npos; });
  }
  std::string data() const {
    std::lock_guard lock(mu_);
    return data_;
  }
  kube::HttpResponse head() const {
    std::lock_guard lock(mu_);
    return head_;
  }

 private:
  mutable std::mutex mu_;
  std::condition_variable changed_;
  kube::HttpResponse head_;
  std::string data_;
};

// Runs HttpTransport::Stream on its own thread. If the test ends while the
// stream still runs, the server is stopped so the stream ends too.
class BackgroundStream {
 public:
  BackgroundStream(kube::HttpTransport& transport, ScriptedHttpServer& server, std::string path,
                   std::chrono::seconds idle_timeout = 5s)
      : server_(server) {
    result_ = std::async(std::launch::async, [this, &transport, path, idle_timeout] {
      kube::HttpRequest request;
      request.path = path;
      auto status = transport.Stream(request, handler_, cancel_, idle_timeout);
      finished_at_ = Clock::now();
      return status;
    });
  }
  ~BackgroundStream() {
    if (!Finished(0ms)) server_.Stop();
    if (result_.valid()) result_.wait();
  }

  bool Finished(std::chrono::milliseconds timeout) {
    return status_ || result_.wait_for(timeout) == std::future_status::ready;
  }
  kube::Status status() {
    if (!status_) status_ = result_.get();
    return *status_;
  }
  Clock::time_point finished_at() const { return finished_at_; }
  CollectingHandler& handler() { return handler_; }
  kube::CancelFlag& cancel() { return cancel_; }

 private:
  ScriptedHttpServer& server_;
  CollectingHandler handler_;
  kube::CancelFlag cancel_;
  Clock::time_point finished_at_;
  std::future<kube::Status> result_;
  std::optional<kube::Status> status_;
};

// A bare TCP client, for bytes the transport would never send.
class RawClient {
 public:
  explicit RawClient(int port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons(static_cast<uint16_t>(port));
    connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0;
  }
  ~RawClient() { ::close(fd_); }

  bool connected() const { return connected_; }
  bool Send(std::string_view bytes) {
    return ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL) ==
           static_cast<ssize_t>(bytes.size());
  }
  // Reads until `needle` has arrived, the peer closes, or the deadline passes.
  std::string ReadUntil(std::string_view needle, std::chrono::milliseconds timeout) {
    auto deadline = Clock::now() + timeout;
    while (received_.find(needle) == std::string::npos && !closed_) {
      auto left = Millis(deadline - Clock::now());
      pollfd readable{fd_, POLLIN, 0};
      if (left <= 0 || ::poll(&readable, 1, static_cast<int>(left)) <= 0) break;
      char buffer[4096];
      ssize_t got = ::recv(fd_, buffer, sizeof(buffer), 0);
      if (got <= 0) {
        closed_ = true;
        break;
      }
      received_.append(buffer, static_cast<std::size_t>(got));
    }
    return received_;
  }
  // True once the peer has closed the connection (EOF or reset).
  bool WaitForClose(std::chrono::milliseconds timeout) {
    ReadUntil(std::string(1, '\0') + "never", timeout);
    return closed_;
  }

 private:
  int fd_ = -1;
  bool connected_ = false;
  bool closed_ = false;
  std::string received_;
};

class ScriptedHttpServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto started = ScriptedHttpServer::Start();
    ASSERT_TRUE(started.ok()) << started.status().ToString();
    server_ = std::move(*started);
    kube::RestConfig config;
    config.server = server_->Url();
    config.user_agent = "scripted-server-test/1.0";
    config.request_timeout = 5s;
    auto transport = kube::HttpTransport::Create(config);
    ASSERT_TRUE(transport.ok()) << transport.status().ToString();
    transport_ = std::move(*transport);
  }

  kube::Result<kube::HttpResponse> Send(const std::string& method, const std::string& path,
                                        const std::string& body = "") {
    kube::HttpRequest request;
    request.method = method;
    request.path = path;
    request.body = body;
    return transport_->Send(request);
  }
  kube::Result<kube::HttpResponse> Get(const std::string& path) { return Send("GET", path); }

  std::unique_ptr<ScriptedHttpServer> server_;
  std::unique_ptr<kube::HttpTransport> transport_;
};

// ---- Simple responses and recording ----------------------------------------

TEST_F(ScriptedHttpServerTest, UrlNamesTheEphemeralPort) {
  EXPECT_GT(server_->port(), 0);
  EXPECT_EQ(server_->Url(), "http://127.0.0.1:" + std::to_string(server_->port()));
}

TEST_F(ScriptedHttpServerTest, AnswersJsonAndRecordsTheRequest) {
  server_->AddRoute(Route::Exact("POST", "/api/v1/namespaces/default/configmaps"),
                    {ScriptedResponse::Json(201, R"({"kind":"ConfigMap"})")});
  auto before = Clock::now();
  kube::HttpRequest request;
  request.method = "POST";
  request.path = "/api/v1/namespaces/default/configmaps?fieldManager=test";
  request.headers = {{"X-Trace", "abc"}};
  request.body = R"({"metadata":{"name":"x"}})";
  auto response = transport_->Send(request);

  ASSERT_TRUE(response.ok()) << response.status().ToString();
  EXPECT_EQ(response->status, 201);
  EXPECT_EQ(response->body, R"({"kind":"ConfigMap"})");
  EXPECT_EQ(response->Header("content-type"), "application/json");
  ASSERT_TRUE(server_->WaitForRequests(1, kDeadline));
  auto requests = server_->Requests();
  ASSERT_EQ(requests.size(), 1u);
  const RecordedRequest& recorded = requests[0];
  EXPECT_EQ(recorded.method, "POST");
  EXPECT_EQ(recorded.target, "/api/v1/namespaces/default/configmaps?fieldManager=test");
  EXPECT_EQ(recorded.Path(), "/api/v1/namespaces/default/configmaps");
  EXPECT_EQ(recorded.QueryParam("fieldManager"), "test");
  EXPECT_EQ(recorded.Header("USER-AGENT"), "scripted-server-test/1.0");
  EXPECT_EQ(recorded.Header("x-trace"), "abc");
  EXPECT_EQ(recorded.Header("absent"), "");
  EXPECT_EQ(recorded.body, R"({"metadata":{"name":"x"}})");
  EXPECT_GE(recorded.arrived_at, before);
  EXPECT_LE(recorded.arrived_at, Clock::now());
  EXPECT_EQ(recorded.connection, 1);
}

TEST_F(ScriptedHttpServerTest, WaitForRequestsGivesUpAtTheDeadline) {
  auto start = Clock::now();
  EXPECT_FALSE(server_->WaitForRequests(1, 50ms));
  EXPECT_GE(Clock::now() - start, 50ms);
}

TEST_F(ScriptedHttpServerTest, ServesQueuedResponsesInOrderThenRepeatsTheLast) {
  server_->AddRoute(Route::Exact("GET", "/x"),
                    {ScriptedResponse::Json(200, "first"), ScriptedResponse::Json(200, "second")});
  EXPECT_EQ(Get("/x")->body, "first");
  EXPECT_EQ(Get("/x")->body, "second");
  EXPECT_EQ(Get("/x")->body, "second");
}

TEST_F(ScriptedHttpServerTest, OnceRouteStopsMatchingWhenDrainedUntilRefilled) {
  auto once = server_->AddRoute(Route::Exact("GET", "/x").Once(),
                                {ScriptedResponse::Json(200, "scripted")});
  server_->AddRoute(Route::Prefix("GET", "/"), {ScriptedResponse::Json(200, "fallback")});
  EXPECT_EQ(Get("/x")->body, "scripted");
  EXPECT_EQ(Get("/x")->body, "fallback");
  ASSERT_TRUE(server_->Enqueue(once, ScriptedResponse::Json(200, "refilled")).ok());
  EXPECT_EQ(Get("/x")->body, "refilled");
  EXPECT_EQ(Get("/x")->body, "fallback");
}

TEST_F(ScriptedHttpServerTest, EnqueueOnAnUnknownRouteIsNotFound) {
  EXPECT_EQ(server_->Enqueue(42, ScriptedResponse::Json(200, "{}")).code(), StatusCode::kNotFound);
}

TEST_F(ScriptedHttpServerTest, MatchesByMethodPathPrefixAndQuery) {
  const std::string pods = "/api/v1/pods";
  server_->AddRoute(
      Route::Where("GET",
                   [&](const RecordedRequest& r) { return r.QueryParam("watch") == "true"; }),
      {ScriptedResponse::Json(200, "watch")});
  server_->AddRoute(Route::Exact("GET", pods + "?limit=1"), {ScriptedResponse::Json(200, "page")});
  server_->AddRoute(Route::Exact("GET", pods), {ScriptedResponse::Json(200, "list")});
  server_->AddRoute(Route::Prefix("", "/apis/"), {ScriptedResponse::Json(200, "any method")});

  EXPECT_EQ(Get(pods + "?watch=true&resourceVersion=5")->body, "watch");
  EXPECT_EQ(Get(pods + "?limit=1")->body, "page");
  EXPECT_EQ(Get(pods + "?limit=2")->body, "list");
  EXPECT_EQ(Send("DELETE", "/apis/resource.k8s.io/v1/resourceclaims/a")->body, "any method");
  EXPECT_EQ(Send("POST", pods, "{}")->status, 404);
}

TEST_F(ScriptedHttpServerTest, UnmatchedRequestGetsA404Status) {
  auto response = Get("/nope?x=1");
  ASSERT_TRUE(response.ok()) << response.status().ToString();
  EXPECT_EQ(response->status, 404);
  auto status = nlohmann::json::parse(response->body);
  EXPECT_EQ(status["kind"], "Status");
  EXPECT_EQ(status["apiVersion"], "v1");
  EXPECT_EQ(status["status"], "Failure");
  EXPECT_EQ(status["reason"], "NotFound");
  EXPECT_EQ(status["code"], 404);
  EXPECT_NE(status["message"].get<std::string>().find("GET /nope?x=1"), std::string::npos);
}

TEST_F(ScriptedHttpServerTest, TooManyRequestsCarriesRetryAfter) {
  server_->AddRoute(Route::Prefix("GET", "/api/"),
                    {ScriptedResponse::KubeStatus(429, "TooManyRequests", "slow down", 3)});
  auto response = Get("/api/v1/pods");
  ASSERT_TRUE(response.ok()) << response.status().ToString();
  EXPECT_EQ(response->status, 429);
  EXPECT_EQ(response->Header("retry-after"), "3");
  auto status = nlohmann::json::parse(response->body);
  EXPECT_EQ(status["reason"], "TooManyRequests");
  EXPECT_EQ(status["message"], "slow down");
  EXPECT_EQ(status["code"], 429);
  EXPECT_EQ(status["details"]["retryAfterSeconds"], 3);
}

// ---- Connections -----------------------------------------------------------

TEST_F(ScriptedHttpServerTest, KeepAliveServesSequentialRequestsOnOneConnection) {
  server_->AddRoute(Route::Exact("GET", "/a"), {ScriptedResponse::Json(200, "AAA")});
  server_->AddRoute(Route::Exact("GET", "/b"),
                    {ScriptedResponse::Streamed({StreamStep::Chunk("BBB"), StreamStep::End()})});
  RawClient client(server_->port());
  ASSERT_TRUE(client.connected());
  ASSERT_TRUE(client.Send("GET /a HTTP/1.1\r\nHost: a\r\n\r\n"));
  ASSERT_NE(client.ReadUntil("AAA", kDeadline).find("AAA"), std::string::npos);
  ASSERT_TRUE(client.Send("GET /b HTTP/1.1\r\nHost: a\r\n\r\n"));
  ASSERT_NE(client.ReadUntil("0\r\n\r\n", kDeadline).find("3\r\nBBB\r\n0\r\n\r\n"),
            std::string::npos);
  ASSERT_TRUE(client.Send("GET /a HTTP/1.1\r\nHost: a\r\n\r\n"));
  ASSERT_TRUE(server_->WaitForRequests(3, kDeadline));
  EXPECT_EQ(server_->AcceptedConnections(), 1);
  EXPECT_EQ(server_->OpenConnections(), 1);
}

TEST_F(ScriptedHttpServerTest, KeepAliveLetsHttpTransportReuseConnections) {
  server_->AddRoute(Route::Exact("GET", "/x"), {ScriptedResponse::Json(200, "{}")});
  server_->AddRoute(Route::Exact("GET", "/chunked"),
                    {ScriptedResponse::Streamed({StreamStep::Chunk("{}"), StreamStep::End()})});
  constexpr int kRequests = 20;
  for (int i = 0; i < kRequests; ++i) {
    auto response = Get(i % 2 == 0 ? "/x" : "/chunked");
    ASSERT_TRUE(response.ok()) << response.status().ToString();
    EXPECT_EQ(response->body, "{}");
  }
  // The server closed none of the connections, and back-to-back requests
  // all went over the one kept alive.
  EXPECT_EQ(server_->OpenConnections(), server_->AcceptedConnections());
  EXPECT_EQ(server_->AcceptedConnections(), 1);
  EXPECT_EQ(server_->Requests().size(), static_cast<std::size_t>(kRequests));
}

TEST_F(ScriptedHttpServerTest, ClosingResponseMakesTheClientReconnect) {
  server_->AddRoute(Route::Exact("GET", "/x"),
                    {ScriptedResponse::Json(200, "{}").ClosingConnection()});
  EXPECT_EQ(Get("/x")->Header("connection"), "close");
  EXPECT_EQ(Get("/x")->status, 200);
  EXPECT_EQ(server_->AcceptedConnections(), 2);
}

TEST_F(ScriptedHttpServerTest, RawResponseCanCutAContentLengthBody) {
  server_->AddRoute(Route::Exact("GET", "/x"),
                    {ScriptedResponse::Raw(
                        {StreamStep::RawBytes("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc"),
                         StreamStep::CloseAbruptly()})});
  auto response = Get("/x");
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.status().code(), StatusCode::kUnavailable) << response.status().ToString();
}

TEST_F(ScriptedHttpServerTest, HonoursConnectionCloseFromTheClient) {
  server_->AddRoute(Route::Exact("GET", "/x"), {ScriptedResponse::Json(200, "{}")});
  RawClient client(server_->port());
  ASSERT_TRUE(client.connected());
  ASSERT_TRUE(client.Send("GET /x HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"));
  EXPECT_TRUE(client.WaitForClose(kDeadline));
  std::string response = client.ReadUntil("", 0ms);
  EXPECT_EQ(response.rfind("HTTP/1.1 200 OK\r\n", 0), 0u) << response;
  EXPECT_NE(response.find("Connection: close\r\n"), std::string::npos) << response;
}

TEST_F(ScriptedHttpServerTest, ServesPipelinedRequestsInOrder) {
  server_->AddRoute(Route::Exact("GET", "/a"), {ScriptedResponse::Json(200, "AAA")});
  server_->AddRoute(Route::Exact("POST", "/b"), {ScriptedResponse::Json(200, "BBB")});
  RawClient client(server_->port());
  ASSERT_TRUE(client.connected());
  ASSERT_TRUE(
      client.Send("GET /a HTTP/1.1\r\nHost: a\r\n\r\n"
                  "POST /b HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello"
                  "GET /a HTTP/1.0\r\n\r\n"));
  std::string responses = client.ReadUntil("never", kDeadline);
  EXPECT_NE(responses.find("AAA"), std::string::npos);
  EXPECT_LT(responses.find("AAA"), responses.find("BBB"));
  EXPECT_LT(responses.find("BBB"), responses.rfind("AAA"));
  EXPECT_TRUE(client.WaitForClose(0ms)) << "HTTP/1.0 without keep-alive closes";
  auto requests = server_->Requests();
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_EQ(requests[1].body, "hello");
  EXPECT_EQ(server_->AcceptedConnections(), 1);
}

TEST_F(ScriptedHttpServerTest, DecodesAChunkedRequestBody) {
  server_->AddRoute(Route::Exact("PUT", "/x"), {ScriptedResponse::Json(200, "{}")});
  RawClient client(server_->port());
  ASSERT_TRUE(
      client.Send("PUT /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
                  "3\r\nabc\r\n2;name=value\r\nde\r\n0\r\nTrailer: x\r\n\r\n"));
  EXPECT_NE(client.ReadUntil("{}", kDeadline).find("200 OK"), std::string::npos);
  ASSERT_TRUE(server_->WaitForRequests(1, kDeadline));
  EXPECT_EQ(server_->Requests()[0].body, "abcde");
}

class MalformedRequestTest : public ScriptedHttpServerTest,
                             public ::testing::WithParamInterface<std::string> {};

TEST_P(MalformedRequestTest, GetsA400AndAClosedConnection) {
  {
    RawClient client(server_->port());
    ASSERT_TRUE(client.connected());
    ASSERT_TRUE(client.Send(GetParam()));
    EXPECT_TRUE(client.WaitForClose(kDeadline));
    std::string response = client.ReadUntil("", 0ms);
    EXPECT_EQ(response.rfind("HTTP/1.1 400 Bad Request\r\n", 0), 0u) << response;
    EXPECT_NE(response.find("\"reason\":\"BadRequest\""), std::string::npos) << response;
  }
  EXPECT_TRUE(server_->Requests().empty());
  EXPECT_EQ(Get("/still-serving")->status, 404);
}

INSTANTIATE_TEST_SUITE_P(
    ScriptedHttpServer, MalformedRequestTest,
    ::testing::Values(std::string("\x16\x03\x01\x02\x00\x01\x00", 7),  // a TLS ClientHello
                      "GET /\r\n\r\n", "GET / HTTP/2.0\r\n\r\n", "GET  / HTTP/1.1\r\n\r\n",
                      "GET x HTTP/1.1\r\n\r\n", "GET / HTTP/1.1\r\nNo colon\r\n\r\n",
                      "GET / HTTP/1.1\r\nA: b\r\n folded\r\n\r\n",
                      "GET / HTTP/1.1\r\nBad Name: x\r\n\r\n",
                      "POST / HTTP/1.1\r\nContent-Length: ten\r\n\r\n",
                      "POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
                      "POST / HTTP/1.1\r\nContent-Length: 99999999999\r\n\r\n",
                      "POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n",
                      "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"));

TEST_F(ScriptedHttpServerTest, StopReturnsPromptlyWithAClientMidRequest) {
  RawClient client(server_->port());
  ASSERT_TRUE(client.Send("POST /x HTTP/1.1\r\nContent-Length: 100\r\n\r\nonly part"));
  ASSERT_TRUE(server_->WaitForOpenConnections(1, kDeadline));
  auto start = Clock::now();
  server_->Stop();
  EXPECT_LT(Clock::now() - start, 1s);
  EXPECT_TRUE(client.WaitForClose(kDeadline));
  EXPECT_EQ(server_->OpenConnections(), 0);
}

// ---- Streamed responses through HttpTransport::Stream ----------------------

TEST_F(ScriptedHttpServerTest, StreamDeliversEachEventBeforeTheStreamEnds) {
  Gate seen_first;
  const std::string added = WatchEvent("ADDED", kPod);
  const std::string modified = WatchEvent("MODIFIED", kPod);
  server_->AddRoute(
      Route::Exact("GET", "/api/v1/pods?watch=true"),
      {ScriptedResponse::Streamed({StreamStep::Chunk(added), StreamStep::WaitFor(seen_first),
                                   StreamStep::Chunk(modified), StreamStep::End()})});
  BackgroundStream stream(*transport_, *server_, "/api/v1/pods?watch=true");

  // The server holds the second event back until the first is seen, so a
  // client that buffers the body would never get here.
  ASSERT_TRUE(stream.handler().WaitForData(added, kDeadline)) << stream.handler().data();
  EXPECT_FALSE(stream.Finished(0ms));
  seen_first.Open();
  ASSERT_TRUE(stream.Finished(kDeadline));
  EXPECT_TRUE(stream.status().ok()) << stream.status().ToString();
  EXPECT_EQ(stream.handler().data(), added + modified);
  EXPECT_EQ(stream.handler().head().status, 200);
  EXPECT_EQ(stream.handler().head().Header("content-type"), "application/json");
  EXPECT_EQ(stream.handler().head().Header("transfer-encoding"), "chunked");
}

TEST(ScriptedHttpServerHelpersTest, WatchEventLinesAreKubernetesWatchEvents) {
  auto event = nlohmann::json::parse(WatchEvent("ERROR", StatusJson(410, "Expired", "too old")));
  EXPECT_EQ(event["type"], "ERROR");
  EXPECT_EQ(event["object"]["kind"], "Status");
  EXPECT_EQ(event["object"]["code"], 410);
  EXPECT_EQ(event["object"]["reason"], "Expired");
  EXPECT_EQ(WatchEvent("ADDED", "{}"), "{\"type\":\"ADDED\",\"object\":{}}\n");
}

TEST_F(ScriptedHttpServerTest, GoneMidWatchArrivesAsAnErrorEvent) {
  const std::string gone =
      WatchEvent("ERROR", StatusJson(410, "Expired", "too old resource version"));
  server_->AddRoute(Route::Prefix("GET", "/api/v1/pods"),
                    {ScriptedResponse::Streamed({StreamStep::Chunk(WatchEvent("ADDED", kPod)),
                                                 StreamStep::Chunk(gone), StreamStep::End()})});
  BackgroundStream stream(*transport_, *server_, "/api/v1/pods?watch=true");
  ASSERT_TRUE(stream.Finished(kDeadline));
  EXPECT_TRUE(stream.status().ok()) << stream.status().ToString();
  EXPECT_EQ(stream.handler().data(), WatchEvent("ADDED", kPod) + gone);
  // Each stream has its own client, which closes the connection when done.
  EXPECT_TRUE(server_->WaitForOpenConnections(0, kDeadline));
}

// What a replay uses to echo writes into a watch: chunks pushed while the
// stream is open arrive at once, in order; what is pushed after the feed
// step ended waits for the next stream that serves the feed.
TEST_F(ScriptedHttpServerTest, FeedWritesPushedChunksWhileTheStreamIsOpen) {
  auto feed = std::make_shared<ChunkFeed>();
  server_->AddRoute(Route::Exact("GET", "/api/v1/pods?watch=true"),
                    {ScriptedResponse::Streamed({StreamStep::Feed(feed, 60s), StreamStep::End()})});
  feed->Push(WatchEvent("ADDED", kPod));  // before the stream: kept for it
  BackgroundStream stream(*transport_, *server_, "/api/v1/pods?watch=true");
  ASSERT_TRUE(stream.handler().WaitForData("ADDED", kDeadline)) << stream.handler().data();
  feed->Push(WatchEvent("MODIFIED", kPod));
  feed->Push(WatchEvent("DELETED", kPod));
  ASSERT_TRUE(stream.handler().WaitForData("DELETED", kDeadline)) << stream.handler().data();
  EXPECT_FALSE(stream.Finished(0ms));
  EXPECT_EQ(stream.handler().data(),
            WatchEvent("ADDED", kPod) + WatchEvent("MODIFIED", kPod) + WatchEvent("DELETED", kPod));
}

TEST_F(ScriptedHttpServerTest, FeedStepEndsAfterItsDurationAndTheStreamGoesOn) {
  auto feed = std::make_shared<ChunkFeed>();
  server_->AddRoute(Route::Exact("GET", "/w"),
                    {ScriptedResponse::Streamed({StreamStep::Feed(feed, 200ms),
                                                 StreamStep::Chunk("after"), StreamStep::End()})});
  BackgroundStream stream(*transport_, *server_, "/w");
  ASSERT_TRUE(stream.Finished(kDeadline));
  EXPECT_EQ(stream.handler().data(), "after");
  feed->Push("later");
  EXPECT_EQ(feed->Take(), std::vector<std::string>{"later"});
}

TEST_F(ScriptedHttpServerTest, ResponderAnswersFromTheRequestEveryTime) {
  auto route =
      server_->AddResponder(Route::Prefix("PATCH", "/items/"), [](const RecordedRequest& r) {
        return ScriptedResponse::Json(200, "echo " + r.Path() + " " + r.body);
      });
  EXPECT_EQ(Send("PATCH", "/items/a", "one")->body, "echo /items/a one");
  EXPECT_EQ(Send("PATCH", "/items/b", "two")->body, "echo /items/b two");
  EXPECT_EQ(Get("/items/a")->status, 404);  // method does not match
  EXPECT_EQ(server_->Enqueue(route, ScriptedResponse::Json(200, "x")).code(),
            StatusCode::kInvalidArgument);
}

TEST_F(ScriptedHttpServerTest, GoneAsTheWatchResponseReachesTheHandlerAsAStatus) {
  server_->AddRoute(Route::Prefix("GET", "/api/v1/pods"),
                    {ScriptedResponse::KubeStatus(410, "Expired", "too old resource version")});
  BackgroundStream stream(*transport_, *server_, "/api/v1/pods?watch=true&resourceVersion=1");
  ASSERT_TRUE(stream.Finished(kDeadline));
  // HTTP errors are responses, not transport errors: the caller checks the head.
  EXPECT_TRUE(stream.status().ok()) << stream.status().ToString();
  EXPECT_EQ(stream.handler().head().status, 410);
  EXPECT_EQ(nlohmann::json::parse(stream.handler().data())["reason"], "Expired");
}

TEST_F(ScriptedHttpServerTest, TruncatedLineBeforeACleanEndReachesTheHandler) {
  server_->AddRoute(Route::Prefix("GET", "/"),
                    {ScriptedResponse::Streamed(
                        {StreamStep::Chunk(R"({"type":"ADDED","obj)"), StreamStep::End()})});
  BackgroundStream stream(*transport_, *server_, "/w");
  ASSERT_TRUE(stream.Finished(kDeadline));
  // The transport passes bytes on; spotting the incomplete line is the decoder's job.
  EXPECT_TRUE(stream.status().ok()) << stream.status().ToString();
  EXPECT_EQ(stream.handler().data(), R"({"type":"ADDED","obj)");
}

TEST_F(ScriptedHttpServerTest, ConnectionCutMidChunkFailsTheStream) {
  const std::string added = WatchEvent("ADDED", kPod);
  server_->AddRoute(Route::Prefix("GET", "/"),
                    {ScriptedResponse::Streamed({StreamStep::Chunk(added),
                                                 StreamStep::RawBytes("40\r\n{\"type\":\"MODI"),
                                                 StreamStep::CloseAbruptly()})});
  BackgroundStream stream(*transport_, *server_, "/w");
  ASSERT_TRUE(stream.Finished(kDeadline));
  // The stream fails; whatever part of the cut chunk the transport handed
  // over follows the whole event.
  EXPECT_EQ(stream.status().code(), StatusCode::kUnavailable) << stream.status().ToString();
  EXPECT_EQ(stream.handler().data().substr(0, added.size()), added);
}

TEST_F(ScriptedHttpServerTest, ConnectionResetMidStreamFailsTheStream) {
  server_->AddRoute(Route::Prefix("GET", "/"),
                    {ScriptedResponse::Streamed({StreamStep::Chunk(WatchEvent("ADDED", kPod)),
                                                 StreamStep::CloseAbruptly(CloseHow::kReset)})});
  BackgroundStream stream(*transport_, *server_, "/w");
  ASSERT_TRUE(stream.Finished(kDeadline));
  EXPECT_EQ(stream.status().code(), StatusCode::kUnavailable) << stream.status().ToString();
}

TEST_F(ScriptedHttpServerTest, StreamEndingWithoutTheZeroChunkFails) {
  server_->AddRoute(Route::Prefix("GET", "/"),
                    {ScriptedResponse::Streamed({StreamStep::Chunk(WatchEvent("ADDED", kPod))})});
  BackgroundStream stream(*transport_, *server_, "/w");
  ASSERT_TRUE(stream.Finished(kDeadline));
  EXPECT_EQ(stream.status().code(), StatusCode::kUnavailable) << stream.status().ToString();
}

TEST_F(ScriptedHttpServerTest, MalformedChunkHeaderFailsTheStream) {
  Gate never;
  server_->AddRoute(Route::Prefix("GET", "/"),
                    {ScriptedResponse::Streamed({StreamStep::Chunk(WatchEvent("ADDED", kPod)),
                                                 StreamStep::RawBytes("zz\r\nhello\r\n"),
                                                 StreamStep::WaitFor(never)})});
  BackgroundStream stream(*transport_, *server_, "/w");
  ASSERT_TRUE(stream.Finished(kDeadline));
  EXPECT_EQ(stream.status().code(), StatusCode::kUnavailable) << stream.status().ToString();
}

TEST_F(ScriptedHttpServerTest, PauseLongerThanTheIdleTimeoutTimesTheStreamOut) {
  const std::string added = WatchEvent("ADDED", kPod);
  server_->AddRoute(Route::Prefix("GET", "/"),
                    {ScriptedResponse::Streamed({StreamStep::Chunk(added), StreamStep::Pause(10s),
                                                 StreamStep::Chunk(added), StreamStep::End()})});
  auto start = Clock::now();
  BackgroundStream stream(*transport_, *server_, "/w", 1s);
  ASSERT_TRUE(stream.Finished(4s));
  // The idle timeout counts from the last byte, so each chunk resets it.
  EXPECT_GE(stream.finished_at() - start, 900ms);
  EXPECT_EQ(stream.status().code(), StatusCode::kTimeout) << stream.status().ToString();
  EXPECT_EQ(stream.handler().data().substr(0, added.size()), added);
}

TEST_F(ScriptedHttpServerTest, CancelDuringAStalledStreamReturnsPromptly) {
  const std::string added = WatchEvent("ADDED", kPod);
  Gate never;
  server_->AddRoute(
      Route::Prefix("GET", "/"),
      {ScriptedResponse::Streamed({StreamStep::Chunk(added), StreamStep::WaitFor(never)})});
  BackgroundStream stream(*transport_, *server_, "/w", 30s);
  ASSERT_TRUE(stream.handler().WaitForData(added, kDeadline));
  auto cancelled_at = Clock::now();
  stream.cancel().Cancel();
  ASSERT_TRUE(stream.Finished(1s));
  EXPECT_LT(stream.finished_at() - cancelled_at, 1s);
  EXPECT_EQ(stream.status().code(), StatusCode::kCancelled) << stream.status().ToString();
  // The client closed its socket; the server noticed while in the WaitFor step.
  EXPECT_TRUE(server_->WaitForOpenConnections(0, kDeadline));
  EXPECT_TRUE(server_->ScriptErrors().empty());
}

TEST_F(ScriptedHttpServerTest, CancelBeforeTheResponseHeadReturnsPromptly) {
  Gate never;
  server_->AddRoute(Route::Prefix("GET", "/"),
                    {ScriptedResponse::Raw({StreamStep::WaitFor(never)})});
  BackgroundStream stream(*transport_, *server_, "/w", 30s);
  ASSERT_TRUE(server_->WaitForRequests(1, kDeadline));
  auto cancelled_at = Clock::now();
  stream.cancel().Cancel();
  ASSERT_TRUE(stream.Finished(1s));
  EXPECT_LT(stream.finished_at() - cancelled_at, 1s);
  EXPECT_EQ(stream.status().code(), StatusCode::kCancelled) << stream.status().ToString();
  EXPECT_TRUE(server_->WaitForOpenConnections(0, kDeadline));
}

TEST_F(ScriptedHttpServerTest, StopWithAStreamingClientReturnsPromptly) {
  const std::string added = WatchEvent("ADDED", kPod);
  server_->AddRoute(
      Route::Prefix("GET", "/"),
      {ScriptedResponse::Streamed({StreamStep::Chunk(added), StreamStep::Pause(60s)})});
  BackgroundStream stream(*transport_, *server_, "/w", 30s);
  ASSERT_TRUE(stream.handler().WaitForData(added, kDeadline));
  auto start = Clock::now();
  server_->Stop();
  EXPECT_LT(Clock::now() - start, 1s);
  ASSERT_TRUE(stream.Finished(kDeadline));
  EXPECT_EQ(stream.status().code(), StatusCode::kUnavailable) << stream.status().ToString();
  EXPECT_EQ(server_->OpenConnections(), 0);
  EXPECT_TRUE(server_->ScriptErrors().empty());
}

TEST_F(ScriptedHttpServerTest, StopReturnsPromptlyWithAnIdleKeepAliveConnection) {
  server_->AddRoute(Route::Exact("GET", "/x"), {ScriptedResponse::Json(200, "{}")});
  ASSERT_EQ(Get("/x")->status, 200);
  ASSERT_EQ(server_->OpenConnections(), 1);
  auto start = Clock::now();
  server_->Stop();
  EXPECT_LT(Clock::now() - start, 1s);
  EXPECT_EQ(server_->OpenConnections(), 0);
  // The pooled connection is dead and new ones are refused.
  auto after_stop = Get("/x");
  ASSERT_FALSE(after_stop.ok());
  EXPECT_EQ(after_stop.status().code(), StatusCode::kUnavailable) << after_stop.status().ToString();
}

TEST_F(ScriptedHttpServerTest, StopReturnsPromptlyWhileBlockedWritingToAClientThatDoesNotRead) {
  server_->AddRoute(Route::Exact("GET", "/big"),
                    {ScriptedResponse::Json(200, std::string(32 * 1024 * 1024, 'x'))});
  RawClient client(server_->port());
  ASSERT_TRUE(client.Send("GET /big HTTP/1.1\r\nHost: a\r\n\r\n"));
  ASSERT_TRUE(server_->WaitForRequests(1, kDeadline));
  auto start = Clock::now();
  server_->Stop();
  // Took 2.0 s under TSan on a loaded machine.
  EXPECT_LT(Clock::now() - start, TestTime::Scaled(1s));
  EXPECT_EQ(server_->OpenConnections(), 0);
}

TEST_F(ScriptedHttpServerTest, DestructorStopsWithConnectedClients) {
  RawClient idle(server_->port());
  RawClient mid_request(server_->port());
  ASSERT_TRUE(mid_request.Send("GET /x HTTP/1.1\r\nHo"));
  ASSERT_TRUE(server_->WaitForOpenConnections(2, kDeadline));
  auto start = Clock::now();
  server_.reset();
  EXPECT_LT(Clock::now() - start, 1s);
  EXPECT_TRUE(idle.WaitForClose(kDeadline));
  EXPECT_TRUE(mid_request.WaitForClose(kDeadline));
}

TEST_F(ScriptedHttpServerTest, WaitForPastItsDeadlineClosesAndIsReported) {
  server_->AddRoute(Route::Prefix("GET", "/"),
                    {ScriptedResponse::Streamed(
                        {StreamStep::WaitFor([] { return false; }, 100ms), StreamStep::End()})});
  BackgroundStream stream(*transport_, *server_, "/w", 10s);
  ASSERT_TRUE(stream.Finished(kDeadline));
  EXPECT_FALSE(stream.status().ok());
  auto errors = server_->ScriptErrors();
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("GET /w, step 1"), std::string::npos) << errors[0];
}

}  // namespace
}  // namespace dra::testing
