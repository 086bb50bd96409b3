#pragma once

#include <string>

#include "src/base/Result.h"

namespace dra::docs {

// docs/reference/devicehealth.md: the field reference of a
// CustomResourceDefinition, read from its openAPIV3Schema: each field's
// path, type, whether it is required, its description, allowed values and
// limits, then the CEL validation rules by the message they give.
class CrdReference {
 public:
  // `crd_yaml` is the CRD's text; `source` names it in the page's header.
  // Bad YAML or a CRD without a schema is an error, never an exception.
  static kube::Result<std::string> Markdown(const std::string& crd_yaml, const std::string& source);
};

}  // namespace dra::docs
