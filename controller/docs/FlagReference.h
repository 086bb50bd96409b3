#pragma once

#include <string>
#include <vector>

#include "src/base/Result.h"
#include "src/flags/FlagSet.h"

namespace dra::docs {

// docs/reference/flags.md: the flags of `dra-controller run`, one table per
// group as the code declares them (run's own, then each feature's), from
// the FlagSets themselves.
class FlagReference {
 public:
  struct Group {
    std::string title;        // "run" or the feature's name
    std::string description;  // one line above the table
    kube::FlagSet flags;
  };

  // `all` is the FlagSet `run` parses; every flag in it must be in exactly
  // one group, else an error names the flag.
  static kube::Result<std::string> Markdown(const std::vector<Group>& groups,
                                            const kube::FlagSet& all);
};

}  // namespace dra::docs
