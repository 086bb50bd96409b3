#include "tests/support/RealNode.h"

#include <cstdlib>
#include <fstream>

#include "tests/support/Subprocess.h"

namespace dra::testing {
namespace {

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr ? v : "";
}

}  // namespace

kube::Result<RealNode> RealNode::FromEnvironment() {
  std::string name = Env("DRA_NODE_NAME");
  std::string control_file = Env("DRA_NODE_DRIVER_CONTROL_FILE");
  if (name.empty() || control_file.empty()) {
    return kube::Status(kube::StatusCode::kUnavailable,
                        "no real node: DRA_NODE_NAME is unset; start the cluster with "
                        "`make cluster-up NODE=1` (or `cluster.sh node-up`) and source its env");
  }
  std::ifstream in(control_file);
  std::string control;
  if (!(in >> control) || control.empty()) {
    return kube::Status(kube::StatusCode::kUnavailable,
                        "the real node's driver wrote no control address to " + control_file);
  }
  return RealNode(name, Env("DRA_NODE_DRIVER"), Env("DRA_NODE_GPU_MODEL"), control);
}

kube::Result<nlohmann::json> RealNode::Call(const std::string& method,
                                            const std::string& path) const {
  auto out = Subprocess::Run({"curl", "-sS", "--max-time", "10", "-X", method, "-w",
                              "\n%{http_code}", "http://" + control_ + path},
                             "", std::chrono::seconds(15));
  if (!out.ok()) return out.status();
  if (out->exit_code != 0) {
    return kube::Status(kube::StatusCode::kUnavailable,
                        method + " " + path + " on the node's driver: " + out->err);
  }
  auto cut = out->out.rfind('\n');
  std::string body = out->out.substr(0, cut);
  std::string code = cut == std::string::npos ? "" : out->out.substr(cut + 1);
  if (code != "200") {
    return kube::Status(kube::StatusCode::kInternal,
                        method + " " + path + " on the node's driver: HTTP " + code + ": " + body);
  }
  auto parsed = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) {
    return kube::Status(kube::StatusCode::kParseError, "not JSON from " + path + ": " + body);
  }
  return parsed;
}

kube::Status RealNode::SetHealth(const std::string& device, const std::string& health,
                                 const std::string& message) const {
  std::string path = "/health?device=" + device + "&health=" + health;
  if (!message.empty()) {
    std::string escaped;
    for (char c : message) escaped += c == ' ' ? std::string("%20") : std::string(1, c);
    path += "&message=" + escaped;
  }
  auto out = Call("POST", path);
  return out.ok() ? kube::Status::Ok() : out.status();
}

kube::Status RealNode::SetSilent(bool silent) const {
  auto out = Call("POST", std::string("/silence?on=") + (silent ? "true" : "false"));
  return out.ok() ? kube::Status::Ok() : out.status();
}

kube::Result<nlohmann::json> RealNode::DriverStatus() const { return Call("GET", "/status"); }

kube::Result<nlohmann::json> RealNode::Devices() const { return Call("GET", "/devices"); }

}  // namespace dra::testing
