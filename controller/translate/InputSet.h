#pragma once

#include <istream>
#include <string>
#include <vector>

#include "controller/translate/Translator.h"
#include "src/base/Result.h"

namespace dra::translate {

// The manifests named by -f: a file, a directory (every *.yaml, *.yml and
// *.json below it, in sorted path order) or "-" for standard input.
struct InputSet {
  std::vector<InputFile> files;
  std::string root;  // the directory given, "" for a file or stdin
  bool is_directory = false;

  static kube::Result<InputSet> Read(const std::string& source, std::istream& stdin_stream);
  // The path of `file` relative to the directory given (for -o DIR).
  std::string Relative(const std::string& file) const;
};

}  // namespace dra::translate
