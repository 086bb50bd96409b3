#include "tests/support/ScriptedHttpServer.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>

namespace dra::testing {
namespace {

using kube::Status;
using kube::StatusCode;

// A WaitFor predicate cannot notify us, so it is polled; Stop() and a client
// hang-up still end the wait at once.
constexpr auto kPredicatePollInterval = std::chrono::milliseconds(1);
constexpr auto kDrainOnCloseTimeout = std::chrono::milliseconds(200);

bool SendAll(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t sent = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (sent < 0 && errno == EINTR) continue;
    if (sent <= 0) return false;
    data.remove_prefix(static_cast<std::size_t>(sent));
  }
  return true;
}

// ---- Response writing ------------------------------------------------------

std::string_view ReasonPhrase(int status) {
  static constexpr std::pair<int, std::string_view> kPhrases[] = {
      {200, "OK"},
      {201, "Created"},
      {202, "Accepted"},
      {204, "No Content"},
      {304, "Not Modified"},
      {400, "Bad Request"},
      {401, "Unauthorized"},
      {403, "Forbidden"},
      {404, "Not Found"},
      {405, "Method Not Allowed"},
      {409, "Conflict"},
      {410, "Gone"},
      {413, "Content Too Large"},
      {415, "Unsupported Media Type"},
      {422, "Unprocessable Content"},
      {429, "Too Many Requests"},
      {500, "Internal Server Error"},
      {502, "Bad Gateway"},
      {503, "Service Unavailable"},
      {504, "Gateway Timeout"},
  };
  for (const auto& [code, phrase] : kPhrases) {
    if (code == status) return phrase;
  }
  return "Unknown";
}

std::string HeadOf(const ScriptedResponse& response, bool close_after) {
  std::string head = "HTTP/1.1 " + std::to_string(response.status) + " " +
                     std::string(ReasonPhrase(response.status)) + "\r\n";
  for (const auto& [name, value] : response.headers) head += name + ": " + value + "\r\n";
  using Framing = ScriptedResponse::Framing;
  if (response.framing == Framing::kContentLength &&
      !HasHeader(response.headers, "content-length")) {
    head += "Content-Length: " + std::to_string(response.body.size()) + "\r\n";
  }
  if (response.framing == Framing::kChunked && !HasHeader(response.headers, "transfer-encoding")) {
    head += "Transfer-Encoding: chunked\r\n";
  }
  if (close_after) head += "Connection: close\r\n";
  return head + "\r\n";
}

std::string ChunkOf(std::string_view bytes) {
  char size[32];
  std::snprintf(size, sizeof(size), "%zx\r\n", bytes.size());
  return std::string(size) + std::string(bytes) + "\r\n";
}

// Closing a socket with unread input sends RST, which can destroy a response
// the client has not read yet (a 400 to a half-read request). So send FIN and
// drain until the client closes too, for a bounded time.
void CloseGracefully(int fd) {
  ::shutdown(fd, SHUT_WR);
  auto deadline = std::chrono::steady_clock::now() + kDrainOnCloseTimeout;
  char discard[4096];
  while (true) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    pollfd readable{fd, POLLIN, 0};
    if (left.count() <= 0 || ::poll(&readable, 1, static_cast<int>(left.count())) <= 0) return;
    if (::recv(fd, discard, sizeof(discard), 0) <= 0) return;
  }
}

ScriptedResponse BadRequest(const std::string& why) {
  return ScriptedResponse::KubeStatus(400, "BadRequest", "malformed request: " + why)
      .ClosingConnection();
}

}  // namespace

// ---- Value types -----------------------------------------------------------

StreamStep StreamStep::Chunk(std::string bytes) {
  StreamStep step;
  step.kind = Kind::kChunk;
  step.bytes = std::move(bytes);
  return step;
}

StreamStep StreamStep::RawBytes(std::string bytes) {
  StreamStep step;
  step.kind = Kind::kRawBytes;
  step.bytes = std::move(bytes);
  return step;
}

StreamStep StreamStep::Pause(std::chrono::milliseconds duration) {
  StreamStep step;
  step.kind = Kind::kPause;
  step.duration = std::min(duration, kMaxPause);
  return step;
}

StreamStep StreamStep::WaitFor(std::function<bool()> condition,
                               std::chrono::milliseconds deadline) {
  StreamStep step;
  step.kind = Kind::kWaitFor;
  step.condition = std::move(condition);
  step.duration = deadline;
  return step;
}

StreamStep StreamStep::WaitFor(Gate gate, std::chrono::milliseconds deadline) {
  return WaitFor([gate] { return gate.IsOpen(); }, deadline);
}

StreamStep StreamStep::Feed(std::shared_ptr<ChunkFeed> feed, std::chrono::milliseconds duration) {
  StreamStep step;
  step.kind = Kind::kFeed;
  step.feed = std::move(feed);
  step.duration = std::min(duration, kMaxPause);
  return step;
}

StreamStep StreamStep::End() {
  StreamStep step;
  step.kind = Kind::kEnd;
  return step;
}

StreamStep StreamStep::CloseAbruptly(CloseHow how) {
  StreamStep step;
  step.kind = Kind::kCloseAbruptly;
  step.close_how = how;
  return step;
}

ScriptedResponse ScriptedResponse::Json(int status, std::string body) {
  ScriptedResponse response;
  response.status = status;
  response.body = std::move(body);
  response.headers.emplace_back("Content-Type", "application/json");
  return response;
}

ScriptedResponse ScriptedResponse::KubeStatus(int code, std::string_view reason,
                                              std::string_view message,
                                              std::optional<int> retry_after_seconds) {
  ScriptedResponse response = Json(code, StatusJson(code, reason, message, retry_after_seconds));
  if (retry_after_seconds) {
    response.headers.emplace_back("Retry-After", std::to_string(*retry_after_seconds));
  }
  return response;
}

ScriptedResponse ScriptedResponse::Streamed(std::vector<StreamStep> steps, int status) {
  ScriptedResponse response;
  response.framing = Framing::kChunked;
  response.status = status;
  response.steps = std::move(steps);
  response.headers.emplace_back("Content-Type", "application/json");
  return response;
}

ScriptedResponse ScriptedResponse::Raw(std::vector<StreamStep> steps) {
  ScriptedResponse response;
  response.framing = Framing::kRaw;
  response.steps = std::move(steps);
  return response;
}

ScriptedResponse& ScriptedResponse::WithHeader(std::string name, std::string value) {
  headers.emplace_back(std::move(name), std::move(value));
  return *this;
}

ScriptedResponse& ScriptedResponse::ClosingConnection() {
  close_connection = true;
  return *this;
}

std::string WatchEvent(std::string_view type, std::string_view object_json) {
  return "{\"type\":" + nlohmann::json(std::string(type)).dump() +
         ",\"object\":" + std::string(object_json) + "}\n";
}

std::string StatusJson(int code, std::string_view reason, std::string_view message,
                       std::optional<int> retry_after_seconds) {
  nlohmann::json status = {{"kind", "Status"},
                           {"apiVersion", "v1"},
                           {"metadata", nlohmann::json::object()},
                           {"status", "Failure"},
                           {"message", std::string(message)},
                           {"reason", std::string(reason)},
                           {"code", code}};
  if (retry_after_seconds) status["details"] = {{"retryAfterSeconds", *retry_after_seconds}};
  return status.dump();
}

Route Route::Exact(std::string method, std::string path) {
  bool with_query = path.find('?') != std::string::npos;
  return Where(std::move(method), [path = std::move(path), with_query](const RecordedRequest& r) {
    return (with_query ? r.target : r.Path()) == path;
  });
}

Route Route::Prefix(std::string method, std::string path_prefix) {
  return Where(std::move(method), [prefix = std::move(path_prefix)](const RecordedRequest& r) {
    return r.Path().rfind(prefix, 0) == 0;
  });
}

Route Route::Where(std::string method, std::function<bool(const RecordedRequest&)> predicate) {
  Route route;
  route.method = std::move(method);
  route.matches = std::move(predicate);
  return route;
}

Route& Route::Once() {
  once = true;
  return *this;
}

// ---- Server lifecycle ------------------------------------------------------

kube::Result<std::unique_ptr<ScriptedHttpServer>> ScriptedHttpServer::Start() {
  auto fail = [](const char* what, int fd) {
    Status status(StatusCode::kUnavailable,
                  std::string("scripted server: ") + what + ": " + std::strerror(errno));
    if (fd >= 0) ::close(fd);
    return status;
  };
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return fail("socket", -1);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0) {
    return fail("bind 127.0.0.1:0", fd);
  }
  if (::listen(fd, 64) != 0) return fail("listen", fd);
  socklen_t length = sizeof(address);
  if (::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    return fail("getsockname", fd);
  }
  int wake[2];
  if (::pipe2(wake, O_CLOEXEC) != 0) return fail("pipe", fd);
  std::unique_ptr<ScriptedHttpServer> server(
      new ScriptedHttpServer(fd, wake[0], wake[1], ntohs(address.sin_port)));
  try {
    server->accept_thread_ = std::thread(&ScriptedHttpServer::AcceptLoop, server.get());
  } catch (const std::exception& e) {
    return Status(StatusCode::kInternal, std::string("scripted server: thread: ") + e.what());
  }
  return server;
}

ScriptedHttpServer::ScriptedHttpServer(int listen_fd, int wake_read_fd, int wake_write_fd, int port)
    : listen_fd_(listen_fd),
      wake_read_fd_(wake_read_fd),
      wake_write_fd_(wake_write_fd),
      port_(port) {}

ScriptedHttpServer::~ScriptedHttpServer() {
  Stop();
  ::close(wake_read_fd_);
  ::close(wake_write_fd_);
}

void ScriptedHttpServer::Stop() {
  std::lock_guard stop_lock(stop_mu_);
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
    // Unblocks recv() and send() of the serving threads; each closes its own
    // descriptor, so none is reused while we touch it.
    for (const auto& connection : connections_) {
      if (connection->fd >= 0) ::shutdown(connection->fd, SHUT_RDWR);
    }
  }
  changed_.notify_all();
  // Never read, so it stays readable and wakes every poll(): the accept loop,
  // pauses and waits.
  char wake = 1;
  if (::write(wake_write_fd_, &wake, 1) < 0) {
    // Only fails when the pipe is full, i.e. Stop() already ran many times.
  }
  if (accept_thread_.joinable()) accept_thread_.join();
  if (listen_fd_ >= 0) {
    ::close(listen_fd_);  // new connections are refused from now on
    listen_fd_ = -1;
  }
  std::list<std::unique_ptr<Connection>> remaining;
  {
    std::lock_guard lock(mu_);
    remaining.swap(connections_);
  }
  for (auto& connection : remaining) {
    if (connection->thread.joinable()) connection->thread.join();
  }
}

std::string ScriptedHttpServer::Url() const { return "http://127.0.0.1:" + std::to_string(port_); }

kube::Result<std::shared_ptr<kube::RestClient>> ScriptedHttpServer::NewClient(
    kube::RestClientOptions options, kube::RestConfig config) const {
  config.server = Url();
  auto transport = kube::HttpTransport::Create(config);
  if (!transport.ok()) return transport.status();
  return std::make_shared<kube::RestClient>(
      std::shared_ptr<kube::HttpTransport>(std::move(*transport)), std::move(options));
}

bool ScriptedHttpServer::stopping() const {
  std::lock_guard lock(mu_);
  return stopping_;
}

// ---- Accepting and serving -------------------------------------------------

void ScriptedHttpServer::AcceptLoop() {
  while (true) {
    pollfd fds[2] = {{listen_fd_, POLLIN, 0}, {wake_read_fd_, POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    if (fds[1].revents != 0) return;
    if ((fds[0].revents & POLLIN) == 0) continue;
    int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd >= 0) StartConnection(fd);
    JoinFinishedConnections();
  }
}

void ScriptedHttpServer::StartConnection(int fd) {
  int one = 1;
  // Without it small chunks wait for the client's delayed ACK.
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  std::lock_guard lock(mu_);
  if (stopping_) {
    ::close(fd);
    return;
  }
  auto connection = std::make_unique<Connection>();
  connection->id = accepted_ + 1;
  connection->fd = fd;
  try {
    connection->thread = std::thread(&ScriptedHttpServer::ServeConnection, this, connection.get());
  } catch (const std::exception& e) {
    script_errors_.push_back(std::string("cannot start a connection thread: ") + e.what());
    ::close(fd);
    return;
  }
  ++accepted_;
  ++open_;
  connections_.push_back(std::move(connection));
  changed_.notify_all();
}

void ScriptedHttpServer::JoinFinishedConnections() {
  std::vector<std::unique_ptr<Connection>> finished;
  {
    std::lock_guard lock(mu_);
    for (auto it = connections_.begin(); it != connections_.end();) {
      if ((*it)->finished) {
        finished.push_back(std::move(*it));
        it = connections_.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (auto& connection : finished) connection->thread.join();
}

void ScriptedHttpServer::ServeConnection(Connection* connection) {
  CloseHow close_how = CloseHow::kFin;
  try {
    ServeRequests(connection, &close_how);
  } catch (const std::exception& e) {
    AddScriptError(std::string("connection thread failed: ") + e.what());
  } catch (...) {
    AddScriptError("connection thread failed with a non-standard exception");
  }
  CloseConnection(connection, close_how);
}

void ScriptedHttpServer::ServeRequests(Connection* connection, CloseHow* close_how) {
  const int fd = connection->fd;  // stays valid until CloseConnection
  HttpRequestReader reader(fd);
  while (!stopping()) {
    auto next = reader.Next();
    if (!next.ok()) {
      WriteResponse(fd, BadRequest(next.status().message()), true, "malformed request", close_how);
      return;
    }
    if (!next->has_value()) return;
    HttpRequestReader::Request& request = **next;
    request.recorded.connection = connection->id;
    Record(request.recorded);
    std::string what = request.recorded.method + " " + request.recorded.target;
    if (!WriteResponse(fd, NextResponse(request.recorded), request.wants_close, what, close_how)) {
      return;
    }
  }
}

void ScriptedHttpServer::CloseConnection(Connection* connection, CloseHow how) {
  int fd;
  {
    std::lock_guard lock(mu_);
    fd = connection->fd;
    connection->fd = -1;
  }
  if (how == CloseHow::kReset) {
    linger reset{1, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_LINGER, &reset, sizeof(reset));
  } else {
    CloseGracefully(fd);
  }
  ::close(fd);
  {
    std::lock_guard lock(mu_);
    --open_;
    connection->finished = true;
  }
  changed_.notify_all();
}

void ScriptedHttpServer::Record(const RecordedRequest& request) {
  {
    std::lock_guard lock(mu_);
    requests_.push_back(request);
  }
  changed_.notify_all();
}

void ScriptedHttpServer::AddScriptError(std::string error) {
  std::lock_guard lock(mu_);
  script_errors_.push_back(std::move(error));
}

// ---- Scripting -------------------------------------------------------------

ScriptedHttpServer::RouteId ScriptedHttpServer::AddRoute(Route route,
                                                         std::vector<ScriptedResponse> responses) {
  std::lock_guard lock(mu_);
  RouteEntry entry;
  entry.id = next_route_id_++;
  entry.route = std::move(route);
  for (auto& response : responses) entry.responses.push_back(std::move(response));
  routes_.push_back(std::move(entry));
  return routes_.back().id;
}

ScriptedHttpServer::RouteId ScriptedHttpServer::AddResponder(Route route, Responder respond) {
  std::lock_guard lock(mu_);
  RouteEntry entry;
  entry.id = next_route_id_++;
  entry.route = std::move(route);
  entry.respond = std::move(respond);
  routes_.push_back(std::move(entry));
  return routes_.back().id;
}

kube::Status ScriptedHttpServer::Enqueue(RouteId route, ScriptedResponse response) {
  std::lock_guard lock(mu_);
  for (auto& entry : routes_) {
    if (entry.id != route) continue;
    if (entry.respond) {
      return Status(StatusCode::kInvalidArgument,
                    "route " + std::to_string(route) + " answers with a responder");
    }
    entry.responses.push_back(std::move(response));
    return Status::Ok();
  }
  return Status(StatusCode::kNotFound, "no route with id " + std::to_string(route));
}

ScriptedResponse ScriptedHttpServer::NextResponse(const RecordedRequest& request) {
  std::lock_guard lock(mu_);
  for (auto& entry : routes_) {
    if (entry.responses.empty() && !entry.respond) continue;
    if (!entry.route.method.empty() && entry.route.method != request.method) continue;
    if (entry.route.matches && !entry.route.matches(request)) continue;
    if (entry.respond) return entry.respond(request);
    if (!entry.route.once && entry.responses.size() == 1) return entry.responses.front();
    ScriptedResponse next = std::move(entry.responses.front());
    entry.responses.pop_front();
    return next;
  }
  return ScriptedResponse::KubeStatus(
      404, "NotFound", "no scripted route for " + request.method + " " + request.target);
}

bool ScriptedHttpServer::WriteResponse(int fd, const ScriptedResponse& response,
                                       bool client_wants_close, std::string_view what,
                                       CloseHow* close_how) {
  bool close_after = client_wants_close || response.close_connection;
  switch (response.framing) {
    case ScriptedResponse::Framing::kContentLength:
      return SendAll(fd, HeadOf(response, close_after) + response.body) && !close_after;
    case ScriptedResponse::Framing::kChunked:
      if (!SendAll(fd, HeadOf(response, close_after))) return false;
      return RunSteps(fd, response.steps, what, close_how) && !close_after;
    case ScriptedResponse::Framing::kRaw:
      RunSteps(fd, response.steps, what, close_how);
      return false;
  }
  return false;
}

bool ScriptedHttpServer::RunSteps(int fd, const std::vector<StreamStep>& steps,
                                  std::string_view what, CloseHow* close_how) {
  bool ended = false;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    std::string step_what = std::string(what) + ", step " + std::to_string(i + 1);
    switch (RunStep(fd, steps[i], step_what)) {
      case StepOutcome::kContinue:
        ended = false;
        break;
      case StepOutcome::kEnded:
        ended = true;
        break;
      case StepOutcome::kClose:
        *close_how = CloseHow::kFin;
        return false;
      case StepOutcome::kReset:
        *close_how = CloseHow::kReset;
        return false;
    }
  }
  return ended;
}

ScriptedHttpServer::StepOutcome ScriptedHttpServer::RunStep(int fd, const StreamStep& step,
                                                            std::string_view what) {
  auto sent = [](bool ok) { return ok ? StepOutcome::kContinue : StepOutcome::kClose; };
  switch (step.kind) {
    case StreamStep::Kind::kChunk:
      return sent(step.bytes.empty() || SendAll(fd, ChunkOf(step.bytes)));
    case StreamStep::Kind::kRawBytes:
      return sent(SendAll(fd, step.bytes));
    case StreamStep::Kind::kPause:
      return sent(PauseFor(fd, step.duration));
    case StreamStep::Kind::kWaitFor:
      return WaitUntil(fd, step, what);
    case StreamStep::Kind::kFeed:
      return ServeFeed(fd, step);
    case StreamStep::Kind::kEnd:
      return SendAll(fd, "0\r\n\r\n") ? StepOutcome::kEnded : StepOutcome::kClose;
    case StreamStep::Kind::kCloseAbruptly:
      return step.close_how == CloseHow::kReset ? StepOutcome::kReset : StepOutcome::kClose;
  }
  return StepOutcome::kClose;
}

ScriptedHttpServer::WaitResult ScriptedHttpServer::WaitOnConnection(
    int fd, std::chrono::milliseconds timeout) const {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    // Only hang-up events on the socket: a pipelined next request is no reason to stop.
    pollfd fds[2] = {{fd, POLLRDHUP, 0}, {wake_read_fd_, POLLIN, 0}};
    int ready = ::poll(fds, 2, static_cast<int>(std::max<long>(left.count(), 0)));
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0 || fds[1].revents != 0) return WaitResult::kStopping;
    if (fds[0].revents != 0) return WaitResult::kClientGone;
    if (ready == 0) return WaitResult::kElapsed;
  }
}

bool ScriptedHttpServer::PauseFor(int fd, std::chrono::milliseconds duration) {
  return WaitOnConnection(fd, std::min(duration, StreamStep::kMaxPause)) == WaitResult::kElapsed;
}

ScriptedHttpServer::StepOutcome ScriptedHttpServer::WaitUntil(int fd, const StreamStep& step,
                                                              std::string_view what) {
  auto deadline = std::chrono::steady_clock::now() + step.duration;
  while (true) {
    if (!step.condition || step.condition()) return StepOutcome::kContinue;
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      AddScriptError(std::string(what) + ": WaitFor not satisfied within " +
                     std::to_string(step.duration.count()) + " ms; connection closed");
      return StepOutcome::kClose;
    }
    if (WaitOnConnection(fd, std::min(left, kPredicatePollInterval)) != WaitResult::kElapsed) {
      return StepOutcome::kClose;
    }
  }
}

ScriptedHttpServer::StepOutcome ScriptedHttpServer::ServeFeed(int fd, const StreamStep& step) {
  auto deadline = std::chrono::steady_clock::now() + step.duration;
  while (true) {
    std::vector<std::string> chunks = step.feed->Take();
    for (std::size_t i = 0; i < chunks.size(); ++i) {
      if (chunks[i].empty() || SendAll(fd, ChunkOf(chunks[i]))) continue;
      // The client may not have read it: the next stream of the feed sends it again.
      step.feed->Unshift({std::make_move_iterator(chunks.begin() + static_cast<long>(i)),
                          std::make_move_iterator(chunks.end())});
      return StepOutcome::kClose;
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return StepOutcome::kContinue;
    pollfd fds[3] = {{fd, POLLRDHUP, 0}, {wake_read_fd_, POLLIN, 0}, {step.feed->fd(), POLLIN, 0}};
    int ready = ::poll(fds, 3, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0 || fds[1].revents != 0 || fds[0].revents != 0) return StepOutcome::kClose;
  }
}

// ---- Observation -----------------------------------------------------------

std::vector<RecordedRequest> ScriptedHttpServer::Requests() const {
  std::lock_guard lock(mu_);
  return requests_;
}

bool ScriptedHttpServer::WaitForRequests(std::size_t count,
                                         std::chrono::milliseconds timeout) const {
  std::unique_lock lock(mu_);
  return changed_.wait_for(lock, timeout, [&] { return requests_.size() >= count; });
}

int ScriptedHttpServer::AcceptedConnections() const {
  std::lock_guard lock(mu_);
  return accepted_;
}

int ScriptedHttpServer::OpenConnections() const {
  std::lock_guard lock(mu_);
  return open_;
}

bool ScriptedHttpServer::WaitForOpenConnections(int count,
                                                std::chrono::milliseconds timeout) const {
  std::unique_lock lock(mu_);
  return changed_.wait_for(lock, timeout, [&] { return open_ == count; });
}

std::vector<std::string> ScriptedHttpServer::ScriptErrors() const {
  std::lock_guard lock(mu_);
  return script_errors_;
}

}  // namespace dra::testing
