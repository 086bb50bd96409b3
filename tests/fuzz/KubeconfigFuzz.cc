// Fuzz target: kubeconfig parsing and resolution must never crash or throw,
// whatever the YAML.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "src/config/Kubeconfig.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view yaml(reinterpret_cast<const char*>(data), size);
  auto kubeconfig = kube::Kubeconfig::Parse(yaml, "/nonexistent-base");
  if (kubeconfig.ok()) {
    (void)kubeconfig->ToRestConfig();
    (void)kubeconfig->ToRestConfig("other");
  }
  return 0;
}
