#include "controller/check/InterruptFlag.h"

namespace dra::check {

std::atomic<bool> InterruptFlag::raised_{false};

void InterruptFlag::Handle(int) { raised_.store(true); }

InterruptFlag::InterruptFlag() {
  static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");
  raised_.store(false);
  struct sigaction action {};
  action.sa_handler = &InterruptFlag::Handle;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, &previous_int_);
  sigaction(SIGTERM, &action, &previous_term_);
}

InterruptFlag::~InterruptFlag() {
  sigaction(SIGINT, &previous_int_, nullptr);
  sigaction(SIGTERM, &previous_term_, nullptr);
}

}  // namespace dra::check
