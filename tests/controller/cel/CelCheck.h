#pragma once

// Shared by the CEL table tests: a sample device and one check per case.
#include <gtest/gtest.h>

#include <string>

#include "controller/cel/Device.h"
#include "controller/cel/Program.h"

namespace dra::cel::testing {

enum class Want { kTrue, kFalse, kError, kCompileError };
struct Case {
  const char* expression;
  Want want;
  const char* error = "";  // substring of the error message
};

inline constexpr Want T = Want::kTrue, F = Want::kFalse, E = Want::kError, P = Want::kCompileError;

// An example-driver GPU: gpu.example.com attributes and memory capacity.
inline const Device& SampleGpu() {
  static const Device device = [] {
    Device d;
    d.driver = "gpu.example.com";
    d.attributes["gpu.example.com"] = {{"model", std::string("H100")},
                                       {"index", int64_t{3}},
                                       {"healthy", true},
                                       {"uuid", std::string("GPU-0a1b-2c3d")},
                                       {"driverVersion", *Semver::Parse("1.2.3")}};
    d.capacity["gpu.example.com"] = {{"memory", *kube::Quantity::Parse("80Gi")}};
    return d;
  }();
  return device;
}

inline void Check(const Case& c, const Device& device = SampleGpu()) {
  SCOPED_TRACE(c.expression);
  auto program = Program::Compile(c.expression);
  if (c.want == Want::kCompileError) {
    ASSERT_FALSE(program.ok());
    EXPECT_NE(program.status().message().find(c.error), std::string::npos)
        << program.status().message();
    return;
  }
  ASSERT_TRUE(program.ok()) << program.status().message();
  auto result = (*program)->Evaluate(device);
  if (c.want == Want::kError) {
    ASSERT_FALSE(result.ok()) << "got " << (result.ok() && *result);
    EXPECT_NE(result.status().message().find(c.error), std::string::npos)
        << result.status().message();
    return;
  }
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_EQ(*result, c.want == Want::kTrue);
}

}  // namespace dra::cel::testing
