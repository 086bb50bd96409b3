#include "src/flags/FlagSet.h"

#include <sstream>

namespace kube {

void FlagSet::String(const std::string& name, const std::string& default_value, std::string help) {
  flags_[name] = Flag{default_value, default_value, std::move(help), false, false};
}

void FlagSet::Bool(const std::string& name, bool default_value, std::string help) {
  std::string v = default_value ? "true" : "false";
  flags_[name] = Flag{v, v, std::move(help), true, false};
}

void FlagSet::Short(char letter, const std::string& name) { shorts_[letter] = name; }

bool FlagSet::ExpandShort(const std::string& arg, std::string& long_form) const {
  if (arg.size() < 2 || arg[0] != '-' || arg[1] == '-') return false;
  auto it = shorts_.find(arg[1]);
  if (it == shorts_.end()) return false;
  std::string rest = arg.substr(2);
  if (!rest.empty() && rest[0] == '=') rest = rest.substr(1);
  long_form = "--" + it->second + (arg.size() > 2 ? "=" + rest : "");
  return true;
}

Status FlagSet::Assign(Flag& flag, const std::string& name, const std::string& value) {
  if (flag.is_bool && value != "true" && value != "false") {
    return Status(StatusCode::kInvalidArgument,
                  "flag --" + name + " takes true or false, got \"" + value + "\"");
  }
  flag.value = value;
  flag.set = true;
  return Status::Ok();
}

Status FlagSet::Parse(std::span<const std::string> args) {
  for (size_t i = 0; i < args.size(); ++i) {
    std::string arg = args[i];
    std::string long_form;
    if (ExpandShort(arg, long_form)) arg = long_form;
    if (arg == "--") {
      std::span<const std::string> rest = args.subspan(i + 1);
      positional_.insert(positional_.end(), rest.begin(), rest.end());
      break;
    }
    if (arg.rfind("--", 0) != 0 || arg.size() == 2) {
      positional_.push_back(arg);
      continue;
    }
    std::string body = arg.substr(2);
    size_t eq = body.find('=');
    std::string name = body.substr(0, eq);
    auto it = flags_.find(name);
    if (it == flags_.end()) {
      return Status(StatusCode::kInvalidArgument, "unknown flag --" + name);
    }
    Flag& flag = it->second;
    std::string value;
    if (eq != std::string::npos) {
      value = body.substr(eq + 1);
    } else if (flag.is_bool) {
      value = "true";
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      return Status(StatusCode::kInvalidArgument, "flag --" + name + " needs a value");
    }
    Status assigned = Assign(flag, name, value);
    if (!assigned.ok()) return assigned;
  }
  return Status::Ok();
}

const std::string& FlagSet::Get(const std::string& name) const { return flags_.at(name).value; }

bool FlagSet::GetBool(const std::string& name) const { return flags_.at(name).value == "true"; }

bool FlagSet::WasSet(const std::string& name) const { return flags_.at(name).set; }

std::string FlagSet::Usage() const {
  std::ostringstream out;
  out << "Flags:\n";
  for (const auto& [name, flag] : flags_) {
    out << "  ";
    for (const auto& [letter, long_name] : shorts_) {
      if (long_name == name) out << "-" << letter << ", ";
    }
    out << "--" << name << (flag.is_bool ? "" : " string") << "\n      " << flag.help;
    if (!flag.default_value.empty() && flag.default_value != "false") {
      out << " (default \"" << flag.default_value << "\")";
    }
    out << "\n";
  }
  return out.str();
}

std::vector<FlagSet::Description> FlagSet::Describe() const {
  std::vector<Description> described;
  described.reserve(flags_.size());
  for (const auto& [name, flag] : flags_) {
    std::string short_name;
    for (const auto& [letter, long_name] : shorts_) {
      if (long_name == name) short_name = std::string(1, letter);
    }
    described.push_back(
        {name, flag.is_bool ? "bool" : "string", flag.default_value, flag.help, short_name});
  }
  return described;
}

}  // namespace kube
