#pragma once

#include <map>
#include <span>
#include <string>
#include <vector>

#include "src/base/Status.h"

namespace kube {

// GNU-style flags: --name=value, --name value, and --flag / --flag=false for
// booleans, plus declared one-letter spellings (-n ns, -o json). Everything else is a positional
// argument.
class FlagSet {
 public:
  // One declared flag, as `--help` and the generated reference show it.
  struct Description {
    std::string name;
    std::string type;  // "string" or "bool"
    std::string default_value;
    std::string help;
    std::string short_name;  // "n" for -n, or empty
  };

  void String(const std::string& name, const std::string& default_value, std::string help);
  void Bool(const std::string& name, bool default_value, std::string help);
  // A one-letter spelling of a declared flag: `-n value`, `-n=value`, `-nvalue`.
  void Short(char letter, const std::string& name);

  Status Parse(std::span<const std::string> args);

  const std::string& Get(const std::string& name) const;
  bool GetBool(const std::string& name) const;
  bool WasSet(const std::string& name) const;
  const std::vector<std::string>& positional() const { return positional_; }

  // "Flags:" section for a command's --help.
  std::string Usage() const;
  // Every declared flag, sorted by name.
  std::vector<Description> Describe() const;

 private:
  struct Flag {
    std::string value;
    std::string default_value;
    std::string help;
    bool is_bool = false;
    bool set = false;
  };

  Status Assign(Flag& flag, const std::string& name, const std::string& value);
  // Rewrites `-x...` into the long form; false when `arg` is no known short flag.
  bool ExpandShort(const std::string& arg, std::string& long_form) const;

  std::map<std::string, Flag> flags_;
  std::vector<std::string> positional_;
  std::map<char, std::string> shorts_;
};

}  // namespace kube
