#pragma once

#include <simdjson.h>

#include <string>

#include "src/base/Result.h"

namespace dra::api::testing {

// Parses `json` and projects it with T::FromJson (the parser lives only for
// the call, so T must not keep views into it — which is the point).
template <typename T>
kube::Result<T> Project(const std::string& json) {
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (parser.parse(json).get(doc) != simdjson::SUCCESS) {
    return kube::Status(kube::StatusCode::kParseError, "test JSON does not parse");
  }
  return T::FromJson(doc);
}

}  // namespace dra::api::testing
