// Golden tests of translate over testdata/: each NAME.yaml (or .json) is
// translated with testdata/classes.yaml and must give NAME.golden.yaml, and
// the refusals listed in NAME.refusals.txt. Translating the output again
// changes nothing. DRA_UPDATE_GOLDEN=1 rewrites the golden files (review the diff!).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "controller/translate/ClassSource.h"
#include "controller/translate/Translator.h"
#include "tests/controller/translate/TestData.h"

namespace dra::translate {
namespace {

namespace fs = std::filesystem;

fs::path TestData() { return testdata::Dir(); }

std::string Slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void Spit(const fs::path& path, const std::string& content) {
  std::ofstream(path, std::ios::binary) << content;
}

extended::ExtendedResourceMapping Mapping() {
  auto classes = ClassSource::FromText(Slurp(TestData() / "classes.yaml"));
  EXPECT_TRUE(classes.ok()) << classes.status().ToString();
  return extended::ExtendedResourceMapping::Build(classes.ok() ? *classes : ClassSource::Classes{});
}

std::string RefusalLines(const TranslateReport& report) {
  std::string out;
  for (const auto& r : report.refusals) out += r.place.ToString() + ": " + r.reason + "\n";
  return out;
}

TranslateReport Translate(const std::string& name, const std::string& content) {
  auto mapping = Mapping();
  return Translator(mapping).Run({{name, content}});
}

class GoldenTest : public ::testing::TestWithParam<std::string> {};

TEST_P(GoldenTest, MatchesGoldenAndIsIdempotent) {
  const std::string input_name = GetParam();
  const std::string stem = fs::path(input_name).stem().string();
  const std::string input = Slurp(TestData() / input_name);
  ASSERT_FALSE(input.empty());
  TranslateReport report = Translate(input_name, input);
  ASSERT_EQ(report.files.size(), 1u);
  const std::string& output = report.files[0].output;
  fs::path golden = TestData() / (stem + ".golden.yaml");
  fs::path refusals = TestData() / (stem + ".refusals.txt");
  if (std::getenv("DRA_UPDATE_GOLDEN") != nullptr) {
    Spit(golden, output);
    Spit(refusals, RefusalLines(report));
  }
  EXPECT_EQ(output, Slurp(golden));
  EXPECT_EQ(RefusalLines(report), Slurp(refusals));

  TranslateReport again = Translate(input_name, output);
  EXPECT_EQ(again.files[0].output, output) << "translating the output changed it";
  EXPECT_EQ(again.workloads_rewritten, 0u);
  EXPECT_EQ(RefusalLines(again), RefusalLines(report));
}

INSTANTIATE_TEST_SUITE_P(Testdata, GoldenTest,
                         ::testing::Values("deployment.yaml", "kinds.yaml", "init-containers.yaml",
                                           "collisions.yaml", "refusals.yaml", "passthrough.yaml",
                                           "json-deployment.json", "kube-list.yaml",
                                           "kube-list-refused.yaml", "live-pods.yaml"),
                         [](const auto& info) {
                           std::string name = fs::path(info.param).stem().string();
                           for (char& c : name) {
                             if (c == '-') c = '_';
                           }
                           return name;
                         });

TEST(TranslatorTest, RefusedAndUntouchedDocumentsComeOutByteForByte) {
  for (const char* name : {"refusals.yaml", "passthrough.yaml", "kube-list-refused.yaml"}) {
    std::string input = Slurp(TestData() / name);
    TranslateReport report = Translate(name, input);
    EXPECT_EQ(report.files[0].output, input) << name;
    EXPECT_FALSE(report.files[0].changed());
  }
}

// `kubectl get pod -o yaml | dra-controller translate -f -` must give a Pod
// that `kubectl apply` creates and the scheduler places (its claim allocated).
TEST(TranslatorTest, LiveObjectsLoseServerSetFields) {
  TranslateReport report = Translate("live-pods.yaml", Slurp(TestData() / "live-pods.yaml"));
  ASSERT_EQ(report.workloads_rewritten, 3u) << RefusalLines(report);
  const std::string& out = report.files[0].output;
  for (const char* gone :
       {"uid:", "resourceVersion:", "creationTimestamp:", "managedFields:", "generation:",
        "status:", "nodeName: node-a", "controller-uid", "selector:"}) {
    EXPECT_EQ(out.find(gone), std::string::npos) << gone << " in\n" << out;
  }
  EXPECT_NE(out.find("nodeName: node-b"), std::string::npos) << out;
  EXPECT_NE(out.find("job-name: once"), std::string::npos) << out;
}

TEST(TranslatorTest, EveryWorkloadKindIsRewritten) {
  TranslateReport report = Translate("kinds.yaml", Slurp(TestData() / "kinds.yaml"));
  EXPECT_EQ(report.workloads_rewritten, 8u);
  EXPECT_EQ(report.templates_written, 8u);
  EXPECT_TRUE(report.refusals.empty()) << RefusalLines(report);
  EXPECT_EQ(report.findings.size(), 8u);
}

TEST(TranslatorTest, EveryRefusalCaseIsReportedWithDocumentKindNameAndPath) {
  TranslateReport report = Translate("refusals.yaml", Slurp(TestData() / "refusals.yaml"));
  ASSERT_EQ(report.refusals.size(), 8u) << RefusalLines(report);
  const auto& crd = report.refusals[0].place;
  EXPECT_EQ(crd.document, 1u);
  EXPECT_EQ(crd.kind, "PyTorchJob");
  EXPECT_EQ(crd.name, "ml/train");
  EXPECT_EQ(crd.path, "spec.pytorchReplicaSpecs.Worker.template.spec");
  EXPECT_EQ(report.refusals[3].place.path, "spec.containers[0].resources.limits[example.com/gpu]");
  EXPECT_EQ(report.refusals[7].place.document, 8u);
  EXPECT_EQ(report.workloads_rewritten, 0u);
}

TEST(TranslatorTest, TemplateNamesAreUniqueAcrossFilesAndStableAcrossRuns) {
  std::string pod =
      "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n"
      "    resources: {limits: {example.com/gpu: 1}}\n";
  std::string job =
      "apiVersion: batch/v1\nkind: Job\nmetadata: {name: p}\nspec:\n  template:\n    spec:\n"
      "      containers:\n      - name: c\n        resources: {limits: {example.com/gpu: 1}}\n";
  auto mapping = Mapping();
  TranslateReport first = Translator(mapping).Run({{"a.yaml", pod}, {"b.yaml", job}});
  TranslateReport second = Translator(mapping).Run({{"a.yaml", pod}, {"b.yaml", job}});
  EXPECT_NE(first.files[0].output.find("name: p-gpu\n"), std::string::npos);
  EXPECT_NE(first.files[1].output.find("name: p-job-gpu\n"), std::string::npos);
  EXPECT_EQ(first.files[0].output, second.files[0].output);
  EXPECT_EQ(first.files[1].output, second.files[1].output);
}

TEST(TranslatorTest, UnmappedExtendedResourceAloneIsLeftAlone) {
  std::string pod =
      "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n"
      "    resources: {limits: {nvidia.com/gpu: 1}}\n";
  TranslateReport report = Translate("p.yaml", pod);
  EXPECT_EQ(report.files[0].output, pod);
  EXPECT_TRUE(report.refusals.empty());
  EXPECT_TRUE(report.findings.empty());
}

TEST(TranslatorTest, MalformedStructureIsRefusedNotCrashed) {
  for (std::string spec :
       {"spec: {containers: [7]}", "spec: {containers: {a: b}}",
        "spec:\n  containers:\n  - name: c\n    resources: [1]",
        "spec:\n  containers:\n  - name: c\n    resources:\n      limits: "
        "{example.com/gpu: 1}\n      claims: {a: b}",
        "spec:\n  resourceClaims: 3\n  containers:\n  - name: c\n    resources:\n"
        "      limits: {example.com/gpu: 1}"}) {
    std::string pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n" + spec + "\n";
    TranslateReport report = Translate("p.yaml", pod);
    if (!report.files[0].changed()) continue;
    EXPECT_TRUE(report.refusals.empty()) << spec;
  }
}

}  // namespace
}  // namespace dra::translate
