#pragma once

#include <string>
#include <string_view>

namespace dra::check {

// One row of `dra-controller check`: what was checked, how it came out, and
// the objects or numbers behind the verdict.
struct CheckResult {
  enum class Outcome { kPass, kWarn, kFail };

  std::string name;
  Outcome outcome = Outcome::kPass;
  std::string detail;

  static CheckResult Pass(std::string name, std::string detail) {
    return {std::move(name), Outcome::kPass, std::move(detail)};
  }
  static CheckResult Warn(std::string name, std::string detail) {
    return {std::move(name), Outcome::kWarn, std::move(detail)};
  }
  static CheckResult Fail(std::string name, std::string detail) {
    return {std::move(name), Outcome::kFail, std::move(detail)};
  }

  // "pass", "warn", "fail"
  static std::string_view OutcomeName(Outcome outcome) {
    switch (outcome) {
      case Outcome::kPass:
        return "pass";
      case Outcome::kWarn:
        return "warn";
      case Outcome::kFail:
        return "fail";
    }
    return "fail";
  }
};

}  // namespace dra::check
