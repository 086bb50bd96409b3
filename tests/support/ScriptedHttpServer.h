#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "src/base/Result.h"
#include "src/client/RestClient.h"
#include "src/config/RestConfig.h"
#include "tests/support/ChunkFeed.h"
#include "tests/support/HttpRequestReader.h"

namespace dra::testing {

// A switch a test flips to let a WaitFor step continue. Copies share state.
struct Gate {
  std::shared_ptr<std::atomic<bool>> open = std::make_shared<std::atomic<bool>>(false);

  void Open() const { open->store(true); }
  bool IsOpen() const { return open->load(); }
};

enum class CloseHow {
  kFin,    // shutdown + close: the client reads EOF
  kReset,  // SO_LINGER 0 + close: the client reads ECONNRESET
};

// One step of a streamed (or raw) response body.
struct StreamStep {
  enum class Kind { kChunk, kRawBytes, kPause, kWaitFor, kFeed, kEnd, kCloseAbruptly };

  static constexpr std::chrono::milliseconds kDefaultWaitDeadline{10000};
  static constexpr std::chrono::milliseconds kMaxPause{60000};

  Kind kind = Kind::kEnd;
  std::string bytes;                      // kChunk, kRawBytes
  std::chrono::milliseconds duration{0};  // kPause, kFeed: how long; kWaitFor: deadline
  std::function<bool()> condition;        // kWaitFor
  std::shared_ptr<ChunkFeed> feed;        // kFeed
  CloseHow close_how = CloseHow::kFin;    // kCloseAbruptly

  // One well-formed HTTP chunk carrying `bytes`; empty bytes write nothing
  // (the zero-size chunk is End()).
  static StreamStep Chunk(std::string bytes);
  // Written as is: cut a chunk, send a malformed chunk header, a status line...
  static StreamStep RawBytes(std::string bytes);
  // Waits (at most kMaxPause). Stop() or the client hanging up ends the
  // wait and closes the connection.
  static StreamStep Pause(std::chrono::milliseconds duration);
  // Waits until `condition` holds; Stop() or a client hang-up ends the wait
  // like Pause. Past the deadline the connection is closed and a script error
  // is recorded.
  static StreamStep WaitFor(std::function<bool()> condition,
                            std::chrono::milliseconds deadline = kDefaultWaitDeadline);
  static StreamStep WaitFor(Gate gate, std::chrono::milliseconds deadline = kDefaultWaitDeadline);
  // For `duration` (at most kMaxPause), writes each chunk pushed into `feed`
  // as one HTTP chunk as soon as it is pushed; Stop() or a client hang-up
  // ends it like Pause. Chunks pushed after it ended wait in the feed.
  static StreamStep Feed(std::shared_ptr<ChunkFeed> feed, std::chrono::milliseconds duration);
  // The terminating zero-size chunk.
  static StreamStep End();
  static StreamStep CloseAbruptly(CloseHow how = CloseHow::kFin);
};

// What the server answers to one request.
struct ScriptedResponse {
  enum class Framing {
    kContentLength,  // status, headers and `body`; Content-Length is added
    kChunked,        // status and headers, then `steps` (Transfer-Encoding: chunked)
    kRaw,            // nothing but `steps`: they write the status line themselves
  };

  Framing framing = Framing::kContentLength;
  int status = 200;
  HeaderList headers;
  std::string body;
  std::vector<StreamStep> steps;
  bool close_connection = false;  // sends "Connection: close" and closes afterwards

  static ScriptedResponse Json(int status, std::string body);
  // A metav1.Status error; with `retry_after_seconds` also details.retryAfterSeconds
  // and a Retry-After header, as kube-apiserver sends them with 429.
  static ScriptedResponse KubeStatus(int code, std::string_view reason, std::string_view message,
                                     std::optional<int> retry_after_seconds = std::nullopt);
  // A JSON body streamed chunk by chunk, as kube-apiserver streams a watch.
  // The connection serves further requests only when the last step is End();
  // steps that run out without End() close it (the client sees EOF mid-body).
  static ScriptedResponse Streamed(std::vector<StreamStep> steps, int status = 200);
  // Everything comes from `steps`; the connection is closed after them.
  static ScriptedResponse Raw(std::vector<StreamStep> steps);

  ScriptedResponse& WithHeader(std::string name, std::string value);
  ScriptedResponse& ClosingConnection();
};

// A watch event line: {"type":TYPE,"object":OBJECT}\n. `object_json` is
// inserted verbatim.
std::string WatchEvent(std::string_view type, std::string_view object_json);

// {"kind":"Status","apiVersion":"v1","status":"Failure",...} as kube-apiserver
// sends it in error responses and in ERROR watch events.
std::string StatusJson(int code, std::string_view reason, std::string_view message,
                       std::optional<int> retry_after_seconds = std::nullopt);

// Which requests a route answers.
struct Route {
  std::string method;  // "" matches every method
  std::function<bool(const RecordedRequest&)> matches;
  bool once = false;

  // Compares the path; compares the whole target when `path` has a query.
  static Route Exact(std::string method, std::string path);
  static Route Prefix(std::string method, std::string path_prefix);
  // The predicate runs with the server's lock held: it must not call the server.
  static Route Where(std::string method, std::function<bool(const RecordedRequest&)> predicate);

  // Serves each queued response once; a drained route stops matching until
  // more responses are enqueued. Without it the last response repeats.
  Route& Once();
};

// An HTTP/1.1 server on 127.0.0.1 that answers with scripted responses, to
// stand in for kube-apiserver when a test needs failures on demand: errors,
// cut chunks, stalls, resets. Plain HTTP, one thread per connection, keep-alive.
// Unmatched requests get a 404 Status, malformed ones a 400 and a closed
// connection. All methods are thread-safe; routes and responses may be added
// while requests are served. A watch that expires after one event:
//
//   Gate resume;
//   server->AddRoute(Route::Where("GET", [](const RecordedRequest& r) {
//                      return r.QueryParam("watch") == "true"; }).Once(),
//                    {ScriptedResponse::Streamed({
//                        StreamStep::Chunk(WatchEvent("ADDED", pod_json)),
//                        StreamStep::WaitFor(resume),  // the test calls resume.Open()
//                        StreamStep::Chunk(WatchEvent("ERROR", StatusJson(410, "Expired", ""))),
//                        StreamStep::End()})});
class ScriptedHttpServer {
 public:
  using RouteId = int;

  // Listens on an ephemeral port.
  static kube::Result<std::unique_ptr<ScriptedHttpServer>> Start();
  ~ScriptedHttpServer();
  ScriptedHttpServer(const ScriptedHttpServer&) = delete;
  ScriptedHttpServer& operator=(const ScriptedHttpServer&) = delete;

  int port() const { return port_; }
  std::string Url() const;  // http://127.0.0.1:PORT
  // A RestClient talking to this server; `config.server` is set to Url().
  kube::Result<std::shared_ptr<kube::RestClient>> NewClient(kube::RestClientOptions options = {},
                                                            kube::RestConfig config = {}) const;

  // Routes are tried in the order they were added.
  RouteId AddRoute(Route route, std::vector<ScriptedResponse> responses = {});
  // A route whose response is made from the request, every time it matches
  // (Enqueue on it is refused). `respond` runs with the server's lock held: it
  // must not call the server.
  using Responder = std::function<ScriptedResponse(const RecordedRequest&)>;
  RouteId AddResponder(Route route, Responder respond);
  kube::Status Enqueue(RouteId route, ScriptedResponse response);

  std::vector<RecordedRequest> Requests() const;
  // True once at least `count` requests have arrived; false at the deadline.
  bool WaitForRequests(std::size_t count, std::chrono::milliseconds timeout) const;
  int AcceptedConnections() const;
  int OpenConnections() const;
  // True once exactly `count` connections are open; false at the deadline.
  bool WaitForOpenConnections(int count, std::chrono::milliseconds timeout) const;
  // Scripting problems found while serving, e.g. a WaitFor past its deadline.
  std::vector<std::string> ScriptErrors() const;

  // Closes the listener (later connects are refused) and every connection,
  // interrupts pauses and waits, and joins all threads. Idempotent; the
  // destructor calls it.
  void Stop();

 private:
  struct Connection {
    int id = 0;
    int fd = -1;  // -1 once the serving thread has closed it
    bool finished = false;
    std::thread thread;
  };
  struct RouteEntry {
    RouteId id = 0;
    Route route;
    std::deque<ScriptedResponse> responses;
    Responder respond;  // when set, answers instead of `responses`
  };
  enum class StepOutcome { kContinue, kEnded, kClose, kReset };
  enum class WaitResult { kElapsed, kStopping, kClientGone };

  ScriptedHttpServer(int listen_fd, int wake_read_fd, int wake_write_fd, int port);

  void AcceptLoop();
  void StartConnection(int fd);
  void JoinFinishedConnections();
  void ServeConnection(Connection* connection);
  void ServeRequests(Connection* connection, CloseHow* close_how);
  void CloseConnection(Connection* connection, CloseHow how);
  void Record(const RecordedRequest& request);
  void AddScriptError(std::string error);
  ScriptedResponse NextResponse(const RecordedRequest& request);
  // Returns whether the connection may serve another request. `what` names
  // the request in script errors.
  bool WriteResponse(int fd, const ScriptedResponse& response, bool client_wants_close,
                     std::string_view what, CloseHow* close_how);
  bool RunSteps(int fd, const std::vector<StreamStep>& steps, std::string_view what,
                CloseHow* close_how);
  StepOutcome RunStep(int fd, const StreamStep& step, std::string_view what);
  WaitResult WaitOnConnection(int fd, std::chrono::milliseconds timeout) const;
  bool PauseFor(int fd, std::chrono::milliseconds duration);  // false when interrupted
  StepOutcome WaitUntil(int fd, const StreamStep& step, std::string_view what);
  StepOutcome ServeFeed(int fd, const StreamStep& step);
  bool stopping() const;

  int listen_fd_;  // -1 once stopped; owned by the accept thread until then
  const int wake_read_fd_;
  const int wake_write_fd_;
  const int port_;
  std::thread accept_thread_;
  std::mutex stop_mu_;  // serializes Stop()

  mutable std::mutex mu_;
  mutable std::condition_variable changed_;  // requests and connections
  bool stopping_ = false;
  std::vector<RouteEntry> routes_;
  RouteId next_route_id_ = 1;
  std::vector<RecordedRequest> requests_;
  std::list<std::unique_ptr<Connection>> connections_;
  int accepted_ = 0;
  int open_ = 0;
  std::vector<std::string> script_errors_;
};

}  // namespace dra::testing
