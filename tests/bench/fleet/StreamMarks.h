#pragma once

#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "tests/support/ScriptedHttpServer.h"

namespace dra::bench {

// Times the server wrote the steps that follow each Mark() (a WaitFor that
// records the moment it is reached and holds at once).
class StreamMarks {
 public:
  using Clock = std::chrono::steady_clock;

  dra::testing::StreamStep Mark(const std::string& key);
  // Now, for what the bench itself writes (e.g. a WriteEcho flip).
  void Record(const std::string& key);
  std::optional<Clock::time_point> At(const std::string& key);

 private:
  std::mutex mu_;
  std::map<std::string, Clock::time_point> at_;
};

}  // namespace dra::bench
