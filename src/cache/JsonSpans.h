#pragma once

#include <string_view>
#include <vector>

#include "src/base/Result.h"

namespace kube::json {

// Splitting JSON text one level deep without parsing it, so that a document
// simdjson refuses as a whole (e.g. nested deeper than its depth limit) can
// still be taken apart and its pieces parsed one by one. The scanner only
// tracks strings and bracket depth, iteratively: any depth is fine. It does
// not validate the pieces; parse them before use.

struct Member {
  std::string_view key;  // raw, between the quotes (escapes not resolved)
  std::string_view value;
};

// The members of the object `text`, e.g. {"a":1,"b":[2]} -> a:1, b:[2].
Result<std::vector<Member>> ObjectMembers(std::string_view text);
// The elements of the array `text`, e.g. [{"x":1},2] -> {"x":1}, 2.
Result<std::vector<std::string_view>> ArrayElements(std::string_view text);
// The value of member `key` of the object `text`, or "" when absent.
std::string_view MemberText(std::string_view text, std::string_view key);

}  // namespace kube::json
