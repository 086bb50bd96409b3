// cel-go's lists extension v3 (ext/lists.go), enabled in Kubernetes since 1.34.
#include "controller/cel/ListsExtension.h"
#include "tests/controller/cel/CelCheck.h"

namespace dra::cel {
namespace {

using namespace testing;

TEST(ListsExtensionTest, Functions) {
  const Case cases[] = {
      {R"([1, 2, 3, 4].slice(1, 3) == [2, 3])", T},
      {R"([1, 2].slice(2, 2) == [])", T},
      {R"([1, 2].slice(-1, 2) == [])", E, "negative indexes not supported"},
      {R"([1, 2].slice(2, 1) == [])", E, "start index must be less than or equal to end index"},
      {R"([1, 2].slice(0, 3) == [])", E, "list is length 2"},
      {R"([[1], [2, 3]].flatten() == [1, 2, 3])", T},
      {R"([dyn([1]), dyn([[2, 3]])].flatten() == [dyn(1), dyn([2, 3])])", T},
      {R"([dyn([1]), dyn([[2, 3]])].flatten(2) == [1, 2, 3])", T},
      {R"([[1]].flatten(-1) == [])", E, "level must be non-negative"},
      {R"([3, 1, 2].sort() == [1, 2, 3])", T},
      {R"(["b", "a"].sort() == ["a", "b"])", T},
      {R"([1, "a"].sort() == [])", E, "list elements must have the same type"},
      {R"([1, 2, 3].reverse() == [3, 2, 1])", T},
      {R"([1, 2, 2, 1, 3].distinct() == [1, 2, 3])", T},
      {R"(lists.range(3) == [0, 1, 2])", T},
      {R"(lists.range(0) == [])", T},
      {R"(lists.range(-1) == [])", E, "size must be non-negative"},
      {R"(lists.range(1000001) == [])", E, "exceeds maximum allowed (1000000)"},
      {R"(["bb", "a", "ccc"].sortBy(s, s.size()) == ["a", "bb", "ccc"])", T},
      {R"([{"n": dyn(2), "v": dyn("x")}, {"n": dyn(1), "v": dyn("y")}].sortBy(e, e.n)[0].v == "y")",
       T},
      {R"([3, 1, 2].sortBy(x, -x) == [3, 2, 1])", T},
      {R"([1, 2].sortBy(x, x == 1 ? "a" : 1) == [])", E, "list elements must have the same type"},
      {R"([1, 2].sortBy(x, 1 / (x - 1)) == [])", E, "division by zero"},
      {R"(1.sortBy(x, x) == [])", E, "no matching overload for 'sortBy'"},
      {R"(lists.nope(1))", P, "undeclared reference to 'lists.nope'"},
      {R"(device.attributes["gpu.example.com"].uuid.split("-").reverse()[0] == "2c3d")", T},
  };
  for (const Case& c : cases) Check(c);
}

}  // namespace
}  // namespace dra::cel
