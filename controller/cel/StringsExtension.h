#pragma once

#include <string>
#include <vector>

#include "controller/cel/Ast.h"
#include "controller/cel/Value.h"

namespace dra::cel {

// cel-go's strings extension at the version Kubernetes enables (v2):
// charAt, indexOf, lastIndexOf, join, replace, split, substring, trim,
// format and strings.quote (lowerAscii/upperAscii are in Functions), plus
// Kubernetes' regex find/findAll. Indexes count code points, as cel-go's
// do; text is UTF-8.
class StringsExtension {
 public:
  // replace() refuses to build a longer string (an error, where cel-go
  // would build it and then exceed the cost limit on it).
  static constexpr size_t kMaxResultBytes = size_t{8} << 20;

  static Value Call(const Node& call, const std::vector<Value>& args);

 private:
  static Value CharAt(const std::string& s, int64_t index);
  static Value IndexOf(const std::string& s, const std::string& sub, int64_t offset, bool last);
  static Value Substring(const std::string& s, int64_t start, std::optional<int64_t> end);
  static Value Replace(const std::string& s, const std::string& from, const std::string& to,
                       int64_t n);
  static Value Split(const std::string& s, const std::string& sep, int64_t n);
  static Value Join(const Value& list, const std::string& separator);
  static Value Trim(const std::string& s);
  static Value Quote(const std::string& s);
  static Value Find(const Node& call, const std::vector<Value>& args);
};

}  // namespace dra::cel
