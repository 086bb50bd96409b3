#include <gtest/gtest.h>

#include "controller/docs/CrdReference.h"

namespace dra::docs {
namespace {

constexpr const char* kCrd = R"(
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
spec:
  group: example.dev
  scope: Cluster
  names: {kind: Widget, plural: widgets, shortNames: [wd]}
  versions:
    - name: v1
      schema:
        openAPIV3Schema:
          description: A widget.
          type: object
          required: [spec]
          properties:
            spec:
              type: object
              required: [size]
              x-kubernetes-validations:
                - {rule: "self.size > 0", message: size must be positive}
              properties:
                size: {type: integer, format: int64, minimum: 0, description: How big.}
                color: {type: string, enum: [red, blue], pattern: 'a|b', description: Paint.}
                parts:
                  type: array
                  maxItems: 3
                  items:
                    type: object
                    properties:
                      name: {type: string, minLength: 1, maxLength: 9, description: Part name.}
)";

TEST(CrdReferenceTest, ListsEveryFieldWithTypeRequiredAndConstraints) {
  auto page = CrdReference::Markdown(kCrd, "crds/widgets.yaml");
  ASSERT_TRUE(page.ok()) << page.status().ToString();
  EXPECT_NE(page->find("# Widget reference"), std::string::npos);
  EXPECT_NE(page->find("Generated from `crds/widgets.yaml`"), std::string::npos);
  EXPECT_NE(page->find("| `spec` | object | yes |"), std::string::npos) << *page;
  EXPECT_NE(page->find("| `spec.size` | integer (int64) | yes | How big. At least 0. |"),
            std::string::npos)
      << *page;
  EXPECT_NE(
      page->find("| `spec.color` | string |  | Paint. One of `red`, `blue`. Matches `a\\|b`. |"),
      std::string::npos)
      << *page;
  EXPECT_NE(page->find("| `spec.parts` | []object |  | At most 3 items. |"), std::string::npos)
      << *page;
  EXPECT_NE(page->find("| `spec.parts[].name` | string |  | Part name. Not empty, at most 9 "
                       "characters. |"),
            std::string::npos)
      << *page;
  EXPECT_NE(page->find("| `spec` | size must be positive |"), std::string::npos) << *page;
}

TEST(CrdReferenceTest, BadYamlIsAnErrorNamingTheSource) {
  auto page = CrdReference::Markdown("spec: [unclosed", "crds/broken.yaml");
  ASSERT_FALSE(page.ok());
  EXPECT_NE(page.status().message().find("crds/broken.yaml"), std::string::npos);
}

TEST(CrdReferenceTest, ADocumentThatIsNoCrdIsAnError) {
  EXPECT_FALSE(CrdReference::Markdown("kind: ConfigMap\n", "cm.yaml").ok());
  EXPECT_FALSE(
      CrdReference::Markdown(
          "kind: CustomResourceDefinition\nspec: {names: {kind: X}, versions: []}\n", "x.yaml")
          .ok());
}

}  // namespace
}  // namespace dra::docs
