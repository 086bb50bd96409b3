// Kubernetes' lists library (k8s.io/apiserver pkg/cel/library/lists.go,
// ListsVersion(1) since 1.37) and cel-go's sets extension (ext/sets.go).
#include "controller/cel/ListsLibrary.h"
#include "tests/controller/cel/CelCheck.h"

namespace dra::cel {
namespace {

using namespace testing;

TEST(ListsLibraryTest, KubernetesLists) {
  const Case cases[] = {
      {R"([1, 2, 3].isSorted())", T},
      {R"(["a", "b", "b", "c"].isSorted())", T},
      {R"([2.0, 1.0].isSorted())", F},
      {R"([].isSorted())", T},
      {R"([1, 3].sum() == 4)", T},
      {R"([1.0, 3.0].sum() == 4.0)", T},
      {R"([].sum() == 0)", T},
      {R"([9223372036854775807, 1].sum() == 0)", E, "integer overflow"},
      {R"([1, 3].min() == 1 && [1, 3].max() == 3)", T},
      {R"(["b", "a"].min() == "a")", T},
      {R"([].min() == 0)", E, "min(list) argument must not be empty"},
      {R"([1, 2, 2, 3].indexOf(2) == 1)", T},
      {R"(["a", "b", "b", "c"].lastIndexOf("b") == 2)", T},
      {R"([1.0].indexOf(1.1) == -1)", T},
      {R"([].indexOf("x") == -1)", T},
      {R"([1, 2, 3].includes(2))", T},
      {R"([1, 2, 3].includes(4))", F},
      {R"("model-a".includes("model-a"))", T},
      {R"("model-a".includes("model-b"))", F},
      {R"([1, 2].includes(2.0))", T},
      {R"(device.attributes["gpu.example.com"].model.includes("H100"))", T},
      {R"(["A100", "H100"].includes(device.attributes["gpu.example.com"].model))", T},
  };
  for (const Case& c : cases) Check(c);
}

TEST(ListsLibraryTest, Sets) {
  const Case cases[] = {
      {R"(sets.contains([], []))", T},
      {R"(sets.contains([1, 2, 3, 4], [2, 3]))", T},
      {R"(sets.contains([1, 2, 3], [3, 4]))", F},
      {R"(sets.contains([1, 2], [dyn(2.0), dyn(1u)]))", T},
      {R"(sets.equivalent([], []))", T},
      {R"(sets.equivalent([1], [1, 1]))", T},
      {R"(sets.equivalent([1, 2, 3], [3, 2, 1]))", T},
      {R"(sets.equivalent([1, 2], [2, 2, 3]))", F},
      {R"(sets.intersects([1], [1, 2]))", T},
      {R"(sets.intersects([1], []))", F},
      {R"(sets.intersects([1, 2], [3, 4]))", F},
      {R"(sets.contains(1, [1]))", E, "no matching overload for 'sets.contains'"},
      {R"(sets.union([1], [2]) == [1, 2])", P, "undeclared reference to 'sets.union'"},
  };
  for (const Case& c : cases) Check(c);
}

}  // namespace
}  // namespace dra::cel
