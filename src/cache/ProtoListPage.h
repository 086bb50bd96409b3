#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "src/base/Result.h"

namespace kube {

// One page of a protobuf LIST answer (a *List message in its envelope): the
// items' own messages, and the page's resourceVersion and continue token.
// An item that is itself malformed is still cut out whole: it fails only
// when projected, so it cannot cost the rest of its page.
struct ProtoListPage {
  std::vector<std::string_view> items;  // views into the body
  std::string resource_version;
  std::string continue_token;

  static Result<ProtoListPage> Parse(std::string_view body);
};

}  // namespace kube
