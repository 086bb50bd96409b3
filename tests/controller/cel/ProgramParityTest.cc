// Table test against upstream: selectors that drivers publish in their
// DeviceClasses and that the resource.k8s.io API documentation and the
// upstream DRA CEL tests use, on device shapes those drivers publish, with
// the result the v1.37.2 scheduler's CEL environment gives. Sources, by name:
//  - NVIDIA k8s-dra-driver-gpu helm chart, DeviceClasses gpu.nvidia.com and
//    mig.nvidia.com (templates deviceclass-gpu.yaml / deviceclass-mig.yaml);
//  - Intel intel-resource-drivers-for-kubernetes, gpu resource driver chart,
//    DeviceClass gpu.intel.com (templates/device-class.yaml);
//  - kubernetes-sigs dra-example-driver, DeviceClass gpu.example.com;
//  - k8s.io/api resource/v1 CELDeviceSelector and CapacityRequirements
//    documentation (cel.bind, optional chaining, capacity compareTo);
//  - k8s.io/dynamic-resource-allocation v0.37.2 cel/compile_test.go cases
//    (named in the comments below).
// Expected results follow the CEL spec and cel-go: && and || are
// commutative over errors, a missing domain reads as an empty map, a
// missing attribute is a "no such key" error, values of different types
// are unequal.
#include "controller/cel/Program.h"
#include "tests/controller/cel/CelCheck.h"

namespace dra::cel {
namespace {

using namespace testing;

Semver V(const char* text) { return *Semver::Parse(text); }
kube::Quantity Q(const char* text) { return *kube::Quantity::Parse(text); }

// Attribute names as the NVIDIA driver publishes them (deviceinfo.go).
Device NvidiaGpu() {
  Device d;
  d.driver = "gpu.nvidia.com";
  d.attributes["gpu.nvidia.com"] = {{"type", std::string("gpu")},
                                    {"productName", std::string("NVIDIA H100 80GB HBM3")},
                                    {"architecture", std::string("Hopper")},
                                    {"cudaComputeCapability", V("9.0.0")},
                                    {"driverVersion", V("580.82.7")}};
  d.attributes["resource.kubernetes.io"] = {{"pcieRoot", std::string("pci0000:0f")}};
  d.capacity["gpu.nvidia.com"] = {{"memory", Q("80Gi")}};
  return d;
}

Device NvidiaMig() {
  Device d;
  d.driver = "gpu.nvidia.com";
  d.attributes["gpu.nvidia.com"] = {{"type", std::string("mig")},
                                    {"profile", std::string("1g.10gb")},
                                    {"productName", std::string("NVIDIA H100 80GB HBM3")}};
  d.capacity["gpu.nvidia.com"] = {{"memory", Q("10Gi")}};
  return d;
}

Device IntelGpu() {
  Device d;
  d.driver = "gpu.intel.com";
  d.attributes["gpu.intel.com"] = {{"model", std::string("Max_1550")},
                                   {"family", std::string("Max_Series")}};
  d.capacity["gpu.intel.com"] = {{"memory", Q("128Gi")}, {"millicores", Q("1k")}};
  return d;
}

Device ExampleGpu() {
  Device d;
  d.driver = "gpu.example.com";
  d.attributes["gpu.example.com"] = {{"model", std::string("LATEST-GPU-MODEL")},
                                     {"index", int64_t{0}},
                                     {"driverVersion", V("1.0.0")}};
  d.capacity["gpu.example.com"] = {{"memory", Q("80Gi")}};
  return d;
}

// The dra.example.com device of the API documentation and upstream tests.
Device DocDevice() {
  Device d;
  d.driver = "dra.example.com";
  d.attributes["dra.example.com"] = {{"someBool", true},
                                     {"anotherBool", true},
                                     {"name", V("1.0.0")},
                                     {"services", std::string("some_example_value")},
                                     {"model", std::string("asymetric")}};
  d.capacity["dra.example.com"] = {{"name", Q("1Mi")}};
  d.capacity["test-driver.cdi.k8s.io"] = {{"counters", Q("4")}};
  return d;
}

struct Row {
  const char* expression;
  // Upstream's result on NvidiaGpu, NvidiaMig, IntelGpu, ExampleGpu, DocDevice.
  Want want[5];
  const char* error = "";
};

const std::string kNvidiaGpuClass =
    "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'gpu'";
const std::string kNvidiaMigClass =
    "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'mig'";

TEST(ProgramParityTest, DriverDeviceClassesAndDocumentedSelectors) {
  const Row rows[] = {
      // DeviceClasses. The driver check short-circuits, so the other
      // drivers' devices (which lack the domain) give false, not an error.
      {kNvidiaGpuClass.c_str(), {T, F, F, F, F}},
      {kNvidiaMigClass.c_str(), {F, T, F, F, F}},
      {R"(device.driver == "gpu.intel.com")", {F, F, T, F, F}},
      {R"(device.driver == 'gpu.example.com')", {F, F, F, T, F}},
      // A class written without the driver precondition errors on devices
      // of other drivers: the empty domain has no "type" key.
      {"device.attributes['gpu.nvidia.com'].type == 'gpu'", {T, F, E, E, E}, "no such key"},
      // API docs: cel.bind over one domain.
      {R"(cel.bind(dra, device.attributes["dra.example.com"], dra.someBool && dra.anotherBool))",
       {E, E, E, E, T},
       "no such key"},
      // API docs: optional chaining with orValue() avoids "no such key".
      {R"(device.attributes["gpu.nvidia.com"].?productName.orValue("").contains("H100"))",
       {T, T, F, F, F}},
      // API docs (CapacityRequirements): capacity compared to a quantity.
      {R"(device.capacity['test-driver.cdi.k8s.io'].counters.compareTo(quantity('2')) >= 0)",
       {E, E, E, E, T},
       "no such key"},
      // compile_test.go "domain-check-negative" / "domain-check-positive".
      {R"("gpu.nvidia.com" in device.attributes)", {T, T, F, F, F}},
      // compile_test.go "version_v": normalizing semver.
      {R"(device.attributes["dra.example.com"].name.isGreaterThan(semver("v0.0.1", true)) && isSemver("v1.0.0", true))",
       {E, E, E, E, T},
       "no such key"},
      // compile_test.go "split_attribute" and "regexp_attribute".
      {R"(device.attributes["dra.example.com"].services.split("example").size() >= 2)",
       {E, E, E, E, T},
       "no such key"},
      {R"(device.attributes["dra.example.com"].model.matches("[^a]?sym"))",
       {E, E, E, E, T},
       "no such key"},
      // compile_test.go "runtime-error-lookup-identifier".
      {R"(device.attributes["no-such-domain"].noSuchAttr.isGreaterThan(quantity("0")))",
       {E, E, E, E, E},
       "no such key"},
      // compile_test.go "check-negative": guarded capacity check.
      {R"(!("name" in device.capacity["dra.example.com"]) || device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki")))",
       {T, T, T, T, T}},
      // compile_test.go "includes" on a scalar attribute (ListsVersion(1)).
      {R"(device.attributes["gpu.nvidia.com"].?architecture.orValue("").includes("Hopper"))",
       {T, F, F, F, F}},
      // Compute capability, as NVIDIA's attributes are versions.
      {R"(device.attributes["gpu.nvidia.com"].cudaComputeCapability.isGreaterThan(semver("8.0.0")))",
       {T, E, E, E, E},
       "no such key"},
  };
  const Device devices[] = {NvidiaGpu(), NvidiaMig(), IntelGpu(), ExampleGpu(), DocDevice()};
  for (const Row& row : rows) {
    for (size_t i = 0; i < 5; ++i) {
      SCOPED_TRACE("device " + std::to_string(i));
      Check({row.expression, row.want[i], row.want[i] == E ? row.error : ""}, devices[i]);
    }
  }
}

}  // namespace
}  // namespace dra::cel
