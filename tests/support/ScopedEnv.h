#pragma once

#include <optional>
#include <string>

namespace dra::testing {

// Sets (or, with a null value, unsets) an environment variable for one test
// and puts the old value back.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value);
  ~ScopedEnv();
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

}  // namespace dra::testing
