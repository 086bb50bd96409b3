#include <csignal>

// The test servers (tests/support) write with OpenSSL's write(2); a client
// that hung up first must cost them EPIPE, not the whole test binary, as in
// dra-controller itself (controller/main.cc). Linked into each test
// executable directly, so the static initializer is never dropped.
namespace {

const bool kSigpipeIgnored = [] { return std::signal(SIGPIPE, SIG_IGN) != SIG_ERR; }();

}  // namespace
