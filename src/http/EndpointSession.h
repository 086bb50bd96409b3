#pragma once

// Included by EndpointServer.cc only: it brings in Boost.Asio.
#include <sys/ioctl.h>

#include <array>
#include <atomic>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/write.hpp>
#include <chrono>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "src/http/EndpointBacklog.h"
#include "src/http/EndpointConnections.h"
#include "src/http/EndpointExchange.h"
#include "src/http/EndpointRouter.h"

namespace kube {

// One connection of an EndpointServer, plain TCP or TLS: the handshake, the
// request read into an EndpointExchange, the route's head admission and
// handler run on the handler pool (never on an I/O thread; no body byte is
// read before the admission), the reply written from its buffers (shared
// bodies are not copied), then an orderly close. Everything happens within
// one absolute deadline from the accept; at the deadline, or when evicted,
// the socket is closed, every pending operation ends and work still queued
// for it is dropped. Handler work beyond the backlog's bound is answered
// 503. A TLS connection is idle (evictable) until its client's first bytes,
// then protected for kHandshakeGrace so that its handshake can finish in an
// eviction storm. All I/O runs on the socket's strand.
template <class Stream>
class EndpointSession : public EndpointConnections::Connection,
                        public std::enable_shared_from_this<EndpointSession<Stream>> {
 public:
  static constexpr bool kTls = !std::is_same_v<Stream, boost::asio::ip::tcp::socket>;

  // How long a TLS connection whose client has begun its handshake cannot
  // be evicted.
  static constexpr std::chrono::milliseconds kHandshakeGrace{1000};

  EndpointSession(Stream stream, std::shared_ptr<void> keep_alive, const EndpointRouter& router,
                  boost::asio::thread_pool& handlers, EndpointBacklog& backlog,
                  std::chrono::milliseconds deadline)
      : keep_alive_(std::move(keep_alive)),
        stream_(std::move(stream)),
        exchange_(router),
        handlers_(handlers),
        backlog_(backlog),
        deadline_(deadline),
        timer_(stream_.get_executor()) {}

  void Start() {
    fd_ = Socket().native_handle();
    boost::system::error_code error;
    auto remote = Socket().remote_endpoint(error);
    if (!error) exchange_.SetPeer(PeerText(remote.address()));
    auto self = this->shared_from_this();
    timer_.expires_after(deadline_);
    timer_.async_wait([self](boost::system::error_code error) {
      if (!error) self->Shut();
    });
    if constexpr (kTls) {
      Socket().async_wait(boost::asio::ip::tcp::socket::wait_read,
                          [self](boost::system::error_code error) {
                            if (error) return self->Shut();
                            self->Handshake();
                          });
    } else {
      ReadSome();
    }
  }

  void Close() override {
    evictable_ = false;
    boost::asio::post(stream_.get_executor(), [self = this->shared_from_this()] { self->Shut(); });
  }

  // Not while bytes wait to be read: a client that just sent its request
  // (a probe in a burst of idle sockets) is about to be served.
  bool Evictable() const override {
    if (!evictable_) return false;
    if (Clock::now().time_since_epoch().count() < protected_until_) return false;
    int fd = fd_;
    int unread = 0;
    return fd < 0 || ioctl(fd, FIONREAD, &unread) != 0 || unread == 0;
  }

 private:
  // Bytes read after the reply, waiting for the client to close, at most.
  static constexpr std::size_t kMaxDrainBytes = 1024 * 1024;
  using Clock = std::chrono::steady_clock;

  static std::string PeerText(const boost::asio::ip::address& address) {
    if (address.is_v6() && address.to_v6().is_v4_mapped()) {
      return boost::asio::ip::make_address_v4(boost::asio::ip::v4_mapped, address.to_v6())
          .to_string();
    }
    return address.to_string();
  }

  void Handshake() {
    protected_until_ = (Clock::now() + kHandshakeGrace).time_since_epoch().count();
    stream_.async_handshake(boost::asio::ssl::stream_base::server,
                            [self = this->shared_from_this()](boost::system::error_code error) {
                              if (error) return self->Shut();
                              self->ReadSome();
                            });
  }

  boost::asio::ip::tcp::socket& Socket() {
    if constexpr (kTls) {
      return stream_.next_layer();
    } else {
      return stream_;
    }
  }

  void ReadSome() {
    stream_.async_read_some(
        boost::asio::buffer(buffer_),
        [self = this->shared_from_this()](boost::system::error_code error, std::size_t n) {
          if (error) return self->Shut();
          self->OnRead(n);
        });
  }

  void OnRead(std::size_t n) { Take(exchange_.Feed(std::string_view(buffer_.data(), n))); }

  void Take(EndpointExchange::Step step) {
    switch (step) {
      case EndpointExchange::Step::kNeedMore:
        return ReadSome();
      case EndpointExchange::Step::kReject:
        evictable_ = false;
        return Write(exchange_.rejection());
      case EndpointExchange::Step::kReady:
        evictable_ = false;
        return RunHandler();
      case EndpointExchange::Step::kAdmitHead:
        evictable_ = false;
        return RunAdmission();
    }
  }

  // The head is in, nothing of the body read: the route decides first.
  void RunAdmission() {
    OnHandlers([self = this->shared_from_this()] {
      auto refusal = EndpointRouter::AdmitHead(*self->exchange_.route(), self->exchange_.request());
      boost::asio::post(self->stream_.get_executor(), [self, refusal = std::move(refusal)] {
        if (self->shut_) return;
        if (refusal) return self->Write(*refusal);
        self->evictable_ = true;  // reading again, like before the head was in
        self->Take(self->exchange_.Admitted());
      });
    });
  }

  void RunHandler() {
    OnHandlers([self = this->shared_from_this()] {
      EndpointReply reply =
          EndpointRouter::Serve(*self->exchange_.route(), self->exchange_.request());
      boost::asio::post(self->stream_.get_executor(), [self, reply = std::move(reply)]() mutable {
        self->Write(std::move(reply));
      });
    });
  }

  // Queues `work` on the handler pool within the backlog's bound (else
  // 503 now); dropped unrun when the connection has ended meanwhile.
  template <class Work>
  void OnHandlers(Work work) {
    if (!backlog_.TryEnter()) {
      return Write(EndpointRouter::Error(503, "server busy; retry later\n"));
    }
    boost::asio::post(handlers_, [self = this->shared_from_this(), work = std::move(work)] {
      struct Leave {
        EndpointBacklog& backlog;
        ~Leave() { backlog.Leave(); }
      } leave{self->backlog_};
      if (!self->shut_) work();
    });
  }

  void Write(EndpointReply reply) {
    if (shut_) return;
    reply_ = std::move(reply);
    head_ = EndpointRouter::ResponseHead(reply_);
    std::vector<boost::asio::const_buffer> buffers{boost::asio::buffer(head_)};
    if (!exchange_.head_only()) {
      if (!reply_.body.empty()) buffers.push_back(boost::asio::buffer(reply_.body));
      for (const auto& text : reply_.shared_body) {
        if (text && !text->empty()) buffers.push_back(boost::asio::buffer(*text));
      }
    }
    boost::asio::async_write(
        stream_, buffers,
        [self = this->shared_from_this()](boost::system::error_code error, std::size_t) {
          if (error) return self->Shut();
          self->Finish();
        });
  }

  // The reply is out: the client closes, or the deadline does. Reading
  // what it still sends keeps the kernel from resetting the connection
  // (and losing the reply) over unread bytes.
  void Finish() {
    evictable_ = true;
    if constexpr (kTls) {
      stream_.async_shutdown(
          [self = this->shared_from_this()](boost::system::error_code) { self->Shut(); });
    } else {
      boost::system::error_code ignored;
      Socket().shutdown(boost::asio::ip::tcp::socket::shutdown_send, ignored);
      Drain();
    }
  }

  void Drain() {
    Socket().async_read_some(
        boost::asio::buffer(buffer_),
        [self = this->shared_from_this()](boost::system::error_code error, std::size_t n) {
          self->drained_ += n;
          if (error || self->drained_ > kMaxDrainBytes) return self->Shut();
          self->Drain();
        });
  }

  void Shut() {
    if (shut_) return;
    shut_ = true;
    // Until its last handler has run the session still holds a slot; a
    // newcomer may take it (evicting a shut session costs nothing).
    evictable_ = true;
    protected_until_ = 0;
    fd_ = -1;
    timer_.cancel();
    boost::system::error_code ignored;
    Socket().shutdown(boost::asio::ip::tcp::socket::shutdown_both, ignored);
    Socket().close(ignored);
  }

  std::shared_ptr<void> keep_alive_;  // the TLS context the stream uses: outlives it
  Stream stream_;
  EndpointExchange exchange_;
  boost::asio::thread_pool& handlers_;
  EndpointBacklog& backlog_;
  std::chrono::milliseconds deadline_;
  boost::asio::steady_timer timer_;
  std::array<char, 4096> buffer_{};
  EndpointReply reply_;
  std::string head_;
  std::size_t drained_ = 0;
  std::atomic<bool> shut_{false};  // also read by queued work, on the handler pool
  std::atomic<bool> evictable_{true};
  std::atomic<Clock::rep> protected_until_{0};  // steady clock ticks
  std::atomic<int> fd_{-1};                     // for Evictable() from the accepting thread
};

}  // namespace kube
