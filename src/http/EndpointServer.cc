#include "src/http/EndpointServer.h"

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <spdlog/spdlog.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ip/v6_only.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/thread_pool.hpp>
#include <mutex>
#include <thread>
#include <vector>

#include "src/base/LogThrottle.h"
#include "src/http/EndpointConnections.h"
#include "src/http/EndpointSession.h"

namespace kube {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

namespace {

// Fixed thread counts: sockets are served asynchronously, so these do not
// grow with the number of connections.
constexpr int kIoThreads = 2;
constexpr int kHandlerThreads = 2;
// After a failed accept (EMFILE, ENFILE, ENOBUFS), before the next one.
constexpr std::chrono::milliseconds kAcceptBackoff{100};
constexpr std::chrono::seconds kAcceptErrorLogInterval{10};
constexpr std::chrono::seconds kCertificatePollInterval{1};

Status OpenSslError(const std::string& what) {
  unsigned long code = ERR_get_error();
  char text[256] = "unknown error";
  if (code != 0) ERR_error_string_n(code, text, sizeof(text));
  ERR_clear_error();
  return Status(StatusCode::kInvalidArgument, what + ": " + text);
}

// Leaf certificate, chain and key from PEM text into `ctx`.
Status LoadCertificate(SSL_CTX* ctx, const std::string& cert_pem, const std::string& key_pem) {
  BIO* certs = BIO_new_mem_buf(cert_pem.data(), static_cast<int>(cert_pem.size()));
  X509* leaf = PEM_read_bio_X509(certs, nullptr, nullptr, nullptr);
  bool ok = leaf != nullptr && SSL_CTX_use_certificate(ctx, leaf) == 1;
  X509_free(leaf);
  while (ok) {
    X509* chain = PEM_read_bio_X509(certs, nullptr, nullptr, nullptr);
    if (chain == nullptr) break;
    if (SSL_CTX_add0_chain_cert(ctx, chain) != 1) X509_free(chain);
  }
  BIO_free(certs);
  ERR_clear_error();  // the chain loop ends on "no start line"
  if (!ok) return OpenSslError("TLS certificate");
  BIO* key_bio = BIO_new_mem_buf(key_pem.data(), static_cast<int>(key_pem.size()));
  EVP_PKEY* key = PEM_read_bio_PrivateKey(key_bio, nullptr, nullptr, nullptr);
  BIO_free(key_bio);
  ok = key != nullptr && SSL_CTX_use_PrivateKey(ctx, key) == 1 && SSL_CTX_check_private_key(ctx);
  EVP_PKEY_free(key);
  if (!ok) return OpenSslError("TLS private key (missing, or not the certificate's)");
  return Status::Ok();
}

Result<std::shared_ptr<asio::ssl::context>> NewServerContext(const std::string& cert_pem,
                                                             const std::string& key_pem) {
  try {
    auto ctx = std::make_shared<asio::ssl::context>(asio::ssl::context::tls_server);
    ctx->set_options(asio::ssl::context::default_workarounds | asio::ssl::context::no_sslv2 |
                     asio::ssl::context::no_sslv3 | asio::ssl::context::no_tlsv1 |
                     asio::ssl::context::no_tlsv1_1);
    SSL_CTX_set_min_proto_version(ctx->native_handle(), TLS1_2_VERSION);
    KUBE_RETURN_IF_ERROR(LoadCertificate(ctx->native_handle(), cert_pem, key_pem));
    return ctx;
  } catch (const std::exception& e) {
    return Status(StatusCode::kInternal, std::string("TLS context: ") + e.what());
  }
}

struct BindTarget {
  std::string host;
  unsigned short port = 0;
};

// "HOST:PORT", "[IPv6]:PORT", ":PORT"; nullopt when malformed.
std::optional<BindTarget> ParseBindAddress(const std::string& bind_address) {
  auto colon = bind_address.rfind(':');
  if (colon == std::string::npos) return std::nullopt;
  BindTarget target;
  target.host = bind_address.substr(0, colon);
  std::string port = bind_address.substr(colon + 1);
  if (target.host.size() >= 2 && target.host.front() == '[' && target.host.back() == ']') {
    target.host = target.host.substr(1, target.host.size() - 2);
  }
  if (port.empty() || port.size() > 5 ||
      port.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  int number = std::stoi(port);
  if (number > 65535) return std::nullopt;
  target.port = static_cast<unsigned short>(number);
  return target;
}

template <class Session>
void AdmitAndStart(EndpointConnections& connections, const std::shared_ptr<Session>& session) {
  if (connections.Admit(session)) session->Start();
}

}  // namespace

struct EndpointServer::Impl {
  Impl(std::map<std::string, Route> routes, Limits limits_in)
      : router(std::move(routes)),
        limits(limits_in),
        connections(limits_in.max_connections),
        backlog(limits_in.max_connections) {}

  Status Listen(const std::string& bind_address);
  bool ListenOn(const asio::ip::address& address, unsigned short port);
  Status UseTls(const TlsOptions& options);
  void Run();
  void Accept();
  void OnAccept(const boost::system::error_code& error, tcp::socket socket);
  void LogAcceptError(const boost::system::error_code& error);
  void PollCertificate();
  std::shared_ptr<asio::ssl::context> CurrentTls();
  void Stop();

  EndpointRouter router;
  Limits limits;
  EndpointConnections connections;
  // Handler work queued or running; declared before the pool and the
  // io_context, whose queued work refers to it.
  EndpointBacklog backlog;

  std::mutex tls_mu;
  std::shared_ptr<asio::ssl::context> tls;  // new handshakes use this one
  std::function<Result<std::pair<std::string, std::string>>()> tls_source;
  std::pair<std::string, std::string> tls_pem;  // the pair `tls` was built from, or last tried

  int port = 0;
  LogThrottle accept_errors{kAcceptErrorLogInterval};

  asio::io_context io{kIoThreads};
  tcp::acceptor acceptor{io};
  asio::steady_timer accept_backoff{io};
  asio::steady_timer certificate_poll{io};
  std::vector<std::thread> threads;
  // After the io_context, so destroyed before it: a request waiting in this
  // pool's queue at Stop() holds its session, whose socket, timer and strand
  // belong to the io_context's services. Destroying the queue must free those
  // sessions while the services still exist (the other order is a
  // use-after-free on every shutdown with a request queued).
  asio::thread_pool handlers{kHandlerThreads};
};

Status EndpointServer::Impl::Listen(const std::string& bind_address) {
  auto target = ParseBindAddress(bind_address);
  auto invalid = Status(StatusCode::kUnavailable,
                        "cannot listen on " + bind_address + " (address in use or invalid?)");
  if (!target) return invalid;
  if (!target->host.empty() && target->host != "::") {
    boost::system::error_code error;
    auto address = asio::ip::make_address(target->host, error);
    if (error || !ListenOn(address, target->port)) return invalid;
    return Status::Ok();
  }
  // All interfaces: dual-stack, or IPv4 only when the host has no IPv6.
  if (ListenOn(asio::ip::address_v6::any(), target->port)) return Status::Ok();
  if (ListenOn(asio::ip::address_v4::any(), target->port)) return Status::Ok();
  return invalid;
}

bool EndpointServer::Impl::ListenOn(const asio::ip::address& address, unsigned short port) {
  boost::system::error_code error;
  tcp::endpoint endpoint(address, port);
  acceptor.open(endpoint.protocol(), error);
  if (error) return false;
  acceptor.set_option(tcp::acceptor::reuse_address(true), error);
  // "::" takes IPv4 too, whatever net.ipv6.bindv6only says.
  if (address.is_v6()) acceptor.set_option(asio::ip::v6_only(false), error);
  acceptor.bind(endpoint, error);
  if (!error) acceptor.listen(asio::socket_base::max_listen_connections, error);
  if (error) {
    boost::system::error_code ignored;
    acceptor.close(ignored);
    return false;
  }
  return true;
}

Status EndpointServer::Impl::UseTls(const TlsOptions& options) {
  auto ctx = NewServerContext(options.cert_pem, options.key_pem);
  if (!ctx.ok()) return ctx.status();
  tls = *ctx;
  tls_pem = {options.cert_pem, options.key_pem};
  tls_source = options.current;
  return Status::Ok();
}

void EndpointServer::Impl::Run() {
  Accept();
  if (tls_source) PollCertificate();
  for (int i = 0; i < kIoThreads; ++i) threads.emplace_back([this] { io.run(); });
}

void EndpointServer::Impl::Accept() {
  acceptor.async_accept(asio::make_strand(io),
                        [this](const boost::system::error_code& error, tcp::socket socket) {
                          OnAccept(error, std::move(socket));
                        });
}

void EndpointServer::Impl::OnAccept(const boost::system::error_code& error, tcp::socket socket) {
  if (error == asio::error::operation_aborted) return;
  if (error) {
    // Out of descriptors (or buffers): the listening socket stays readable,
    // so wait a moment instead of spinning, and keep serving.
    LogAcceptError(error);
    accept_backoff.expires_after(kAcceptBackoff);
    accept_backoff.async_wait([this](const boost::system::error_code& e) {
      if (!e) Accept();
    });
    return;
  }
  // A reply is written as a head and a body: without this, Nagle holds the
  // body until the client's delayed ACK of the head (about 40 ms a reply).
  boost::system::error_code ignored;
  socket.set_option(tcp::no_delay(true), ignored);
  // Refused: every slot serves a request; the socket closes with the session.
  if (auto ctx = CurrentTls()) {
    using TlsStream = asio::ssl::stream<tcp::socket>;
    AdmitAndStart(connections, std::make_shared<EndpointSession<TlsStream>>(
                                   TlsStream(std::move(socket), *ctx), ctx, router, handlers,
                                   backlog, limits.deadline));
  } else {
    AdmitAndStart(connections,
                  std::make_shared<EndpointSession<tcp::socket>>(
                      std::move(socket), nullptr, router, handlers, backlog, limits.deadline));
  }
  Accept();
}

void EndpointServer::Impl::LogAcceptError(const boost::system::error_code& error) {
  if (auto suppressed = accept_errors.Admit()) {
    spdlog::warn("endpoint server on port {}: accept failed: {} ({} more not logged)", port,
                 error.message(), *suppressed);
  }
}

// Reads the certificate source; a changed pair that loads replaces the
// context for new handshakes. A pair that does not load is reported once.
void EndpointServer::Impl::PollCertificate() {
  auto pem = tls_source();
  if (pem.ok() && *pem != tls_pem) {
    tls_pem = *pem;
    auto ctx = NewServerContext(pem->first, pem->second);
    if (ctx.ok()) {
      std::lock_guard lock(tls_mu);
      tls = *ctx;
      spdlog::info("endpoint server on port {}: serving certificate reloaded", port);
    } else {
      spdlog::warn("endpoint server on port {}: new serving certificate not used: {}", port,
                   ctx.status().ToString());
    }
  }
  certificate_poll.expires_after(kCertificatePollInterval);
  certificate_poll.async_wait([this](const boost::system::error_code& error) {
    if (!error) PollCertificate();
  });
}

std::shared_ptr<asio::ssl::context> EndpointServer::Impl::CurrentTls() {
  std::lock_guard lock(tls_mu);
  return tls;
}

// Never waits on a client: the I/O threads stop at once (sessions and their
// sockets end with the io_context); only a handler running right now is
// waited for, and requests still queued for a handler are dropped unanswered
// (with their sessions, when the pool is destroyed: see `handlers`).
void EndpointServer::Impl::Stop() {
  io.stop();
  for (auto& thread : threads) thread.join();
  threads.clear();
  handlers.stop();
  handlers.join();
  boost::system::error_code ignored;
  acceptor.close(ignored);
}

Result<std::unique_ptr<EndpointServer>> EndpointServer::Start(
    const std::string& bind_address, const std::map<std::string, Handler>& routes) {
  std::map<std::string, Route> adapted;
  for (const auto& [path, handler] : routes) {
    adapted[path].handler = [h = handler](const Request&) { return h(); };
  }
  return StartRoutes(bind_address, std::move(adapted), std::nullopt);
}

Result<std::unique_ptr<EndpointServer>> EndpointServer::Start(
    const std::string& bind_address, std::map<std::string, RequestHandler> routes,
    const std::optional<TlsOptions>& tls) {
  std::map<std::string, Route> adapted;
  for (auto& [path, handler] : routes) adapted[path].handler = std::move(handler);
  return StartRoutes(bind_address, std::move(adapted), tls);
}

Result<std::unique_ptr<EndpointServer>> EndpointServer::StartRoutes(
    const std::string& bind_address, std::map<std::string, Route> routes,
    const std::optional<TlsOptions>& tls, Limits limits) {
  std::unique_ptr<EndpointServer> server(new EndpointServer());
  server->impl_ = std::make_unique<Impl>(std::move(routes), limits);
  if (tls) KUBE_RETURN_IF_ERROR(server->impl_->UseTls(*tls));
  KUBE_RETURN_IF_ERROR(server->impl_->Listen(bind_address));
  boost::system::error_code error;
  server->port_ = server->impl_->port = server->impl_->acceptor.local_endpoint(error).port();

  server->tls_ = tls.has_value();
  server->impl_->Run();
  return server;
}

EndpointServer::~EndpointServer() {
  if (impl_) impl_->Stop();
}

}  // namespace kube
