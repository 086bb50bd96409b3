// The operator commands' output contract against the real control plane:
// with -o json, stdout is one JSON document and nothing else, while a
// DeviceClass selector fails at runtime (its warning goes to stderr) and
// while the API server answers slowly. Each command runs as the real binary
// in a subprocess; stdout is parsed strictly.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>

#include "tests/support/ClusterTest.h"
#include "tests/support/FleetManifests.h"
#include "tests/support/SlowTcpProxy.h"
#include "tests/support/Subprocess.h"
#include "tests/support/TempDir.h"

namespace dra::testing {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

constexpr const char* kClass = "co-broken.example.com";
constexpr const char* kResource = "example.com/co-gpu";
const std::vector<std::string> kFleet{"co-a:2:24Gi:gpu-co"};

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

class CommandOutputTest : public ClusterTest {
 protected:
  void SetUp() override {
    ClusterTest::SetUp();
    if (Skipped()) return;
    auto fleet = ApplyFakeFleet(*cluster_, kFleet);
    ASSERT_TRUE(fleet.ok()) << fleet.ToString();
    // The fake devices have no attribute "missing": evaluating the selector
    // fails with "no such key" on every device.
    ASSERT_TRUE(
        cluster_
            ->Apply(DeviceClassManifest(kClass, kResource,
                                        "device.attributes[\"gpu.example.com\"].missing == \"x\""))
            .ok());
    auto ns = cluster_->CreateTestNamespace("output");
    ASSERT_TRUE(ns.ok()) << ns.status().ToString();
    ns_ = *ns;
    ASSERT_TRUE(cluster_->Create(ExtendedResourcePodManifest("asks", ns_, kResource)).ok());
  }

  void TearDown() override {
    if (!cluster_) return;
    if (!ns_.empty()) cluster_->DeleteTestNamespace(ns_);
    (void)cluster_->Kubectl({"delete", "deviceclass", kClass, "--ignore-not-found"});
    RemoveFakeFleet(*cluster_, kFleet);
  }

  std::vector<std::vector<std::string>> JsonCommands() const {
    return {{"devices", "-o", "json"},
            {"mapping", "-o", "json"},
            {"explain", "pod", ns_ + "/asks", "-o", "json"},
            {"check", "-o", "json"}};
  }

  // Runs each command with `kubeconfig`; stdout must be exactly one JSON
  // document. Returns the commands' stderr, joined.
  std::string ExpectJsonOnStdout(const std::string& kubeconfig) {
    std::string errors;
    for (auto argv : JsonCommands()) {
      const std::string name = argv[0];
      argv.insert(argv.begin(), std::string(DRA_BINARY_DIR) + "/dra-controller");
      argv.insert(argv.end(), {"--kubeconfig", kubeconfig});
      auto run = Subprocess::Run(argv, "", 120s);
      EXPECT_TRUE(run.ok()) << name << ": " << run.status().ToString();
      if (!run.ok()) continue;
      EXPECT_NE(run->exit_code, 2) << name << ": " << run->err;
      json doc = json::parse(run->out, nullptr, /*allow_exceptions=*/false);
      EXPECT_FALSE(doc.is_discarded()) << name << " printed on stdout:\n" << run->out;
      EXPECT_TRUE(doc.is_object() || doc.is_array()) << name << ":\n" << run->out;
      errors += run->err;
    }
    return errors;
  }

  std::string ns_;
};

TEST_F(CommandOutputTest, JsonStaysParseableWhileASelectorFails) {
  if (Skipped()) return;
  std::string errors = ExpectJsonOnStdout(cluster_->kubeconfig());
  EXPECT_NE(errors.find(std::string("DeviceClass ") + kClass + ": selector"), std::string::npos)
      << "the selector warning belongs on stderr:\n"
      << errors;
}

TEST_F(CommandOutputTest, JsonStaysParseableWhileTheApiServerIsSlow) {
  if (Skipped()) return;
  std::string config = Slurp(cluster_->kubeconfig());
  std::smatch server;
  ASSERT_TRUE(
      std::regex_search(config, server, std::regex(R"(server: https://127\.0\.0\.1:(\d+))")))
      << config;
  auto proxy = SlowTcpProxy::Start(std::stoi(server[1].str()), 40ms);
  ASSERT_TRUE(proxy.ok()) << proxy.status().ToString();
  TempDir dir;
  std::string slow = dir.Write(
      "kubeconfig",
      std::regex_replace(config, std::regex(R"(server: https://127\.0\.0\.1:\d+)"),
                         "server: https://127.0.0.1:" + std::to_string((*proxy)->port())));
  ExpectJsonOnStdout(slow);
  EXPECT_GT((*proxy)->connections(), 0) << "the commands went through the slow proxy";
}

}  // namespace
}  // namespace dra::testing
