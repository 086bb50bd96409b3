#include "tests/chaos/ChaosOptions.h"

#include <cstdlib>
#include <filesystem>
#include <random>

namespace dra::testing {
namespace {

std::string Env(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

double Number(const char* name, double fallback) {
  std::string text = Env(name);
  if (text.empty()) return fallback;
  try {
    return std::stod(text);
  } catch (const std::exception&) {
    return fallback;
  }
}

}  // namespace

ChaosOptions ChaosOptions::FromEnvironment() {
  ChaosOptions o;
  o.kill_loop = std::chrono::seconds(static_cast<int64_t>(Number("CHAOS_MINUTES", 10) * 60));
  o.kill_interval = std::chrono::seconds(static_cast<int64_t>(Number("CHAOS_KILL_INTERVAL", 30)));
  o.fault_rounds = static_cast<int>(Number("CHAOS_FAULT_ROUNDS", 2));
  o.seed = static_cast<uint32_t>(Number("CHAOS_SEED", std::random_device{}() % 1000000));
  o.audit_log = Env("DRA_CHAOS_AUDIT_LOG");
  o.artifacts = Env("DRA_CHAOS_ARTIFACTS");
  if (o.artifacts.empty()) {
    std::string pattern = (std::filesystem::temp_directory_path() / "dra-chaos.XXXXXX").string();
    if (mkdtemp(pattern.data()) != nullptr) o.artifacts = pattern;
  }
  std::filesystem::create_directories(o.artifacts);
  return o;
}

}  // namespace dra::testing
