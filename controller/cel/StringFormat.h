#pragma once

#include <optional>
#include <string>

#include "controller/cel/Value.h"

namespace dra::cel {

// "...".format([args]) of cel-go's strings extension v2 (the formatter
// before v4): %s, %d, %f/%.Nf, %e/%.Ne, %b, %x, %X, %o and %%. Locales are
// not supported (Kubernetes does not set one).
class StringFormat {
 public:
  // cel-go v2 has no bound; a selector needs no more (a deliberate limit).
  static constexpr int kMaxPrecision = 1000;

  static Value Format(const std::string& format, const ValueList& args);

 private:
  static Value Clause(char verb, std::optional<int> precision, const Value& arg);
  static Value AsString(const Value& arg, bool quoted);
};

}  // namespace dra::cel
