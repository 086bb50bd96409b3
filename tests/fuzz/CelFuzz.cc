// Fuzz target: any input compiles to a Program or a parse error, and
// evaluating a Program against sample devices yields true, false or an error
// value, never a crash. Evaluation is also deterministic.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "controller/cel/Device.h"
#include "controller/cel/Program.h"

namespace {

void Check(bool invariant) {
  if (!invariant) __builtin_trap();
}

dra::cel::Device SampleDevice() {
  dra::cel::Device d;
  d.driver = "gpu.example.com";
  d.attributes["gpu.example.com"] = {{"type", std::string("gpu")},
                                     {"model", std::string("H100")},
                                     {"index", int64_t{3}},
                                     {"healthy", true},
                                     {"driverVersion", *dra::cel::Semver::Parse("1.2.3-rc.1")}};
  d.attributes["resource.kubernetes.io"] = {{"pcieRoot", std::string("pci0000:00")}};
  d.capacity["gpu.example.com"] = {{"memory", *kube::Quantity::Parse("80Gi")},
                                   {"cores", *kube::Quantity::Parse("1500m")}};
  return d;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const dra::cel::Device device = SampleDevice();
  static const dra::cel::Device empty;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto program = dra::cel::Program::Compile(text);
  if (!program.ok()) {
    Check(program.status().code() == kube::StatusCode::kParseError);
    Check(!program.status().message().empty());
    return 0;
  }
  auto first = (*program)->Evaluate(device);
  auto second = (*program)->Evaluate(device);
  Check(first.ok() == second.ok());
  if (first.ok())
    Check(*first == *second);
  else
    Check(first.status().message() == second.status().message());
  (void)(*program)->Evaluate(empty);
  return 0;
}
