#include "controller/docs/FlagReference.h"

#include <map>

#include "controller/docs/MarkdownTable.h"

namespace dra::docs {
namespace {

std::string Table(const kube::FlagSet& flags) {
  MarkdownTable table({"Flag", "Type", "Default", "Description"});
  for (const auto& flag : flags.Describe()) {
    std::string name = "--" + flag.name;
    if (!flag.short_name.empty()) name = "-" + flag.short_name + ", " + name;
    table.AddRow({MarkdownTable::Code(name), flag.type,
                  MarkdownTable::Code(flag.default_value.empty() ? "\"\"" : flag.default_value),
                  flag.help});
  }
  return table.Render();
}

// Which group declares each flag; an error when one is declared twice or
// `run` parses one no group declares.
kube::Status CheckCoverage(const std::vector<FlagReference::Group>& groups,
                           const kube::FlagSet& all) {
  std::map<std::string, std::string> owner;
  for (const auto& group : groups) {
    for (const auto& flag : group.flags.Describe()) {
      auto [it, added] = owner.emplace(flag.name, group.title);
      if (!added) {
        return kube::Status(kube::StatusCode::kInvalid, "--" + flag.name + " is declared by both " +
                                                            it->second + " and " + group.title);
      }
    }
  }
  for (const auto& flag : all.Describe()) {
    if (owner.erase(flag.name) == 0) {
      return kube::Status(kube::StatusCode::kInvalid,
                          "--" + flag.name + " is parsed by run but declared by no group");
    }
  }
  if (!owner.empty()) {
    return kube::Status(kube::StatusCode::kInvalid,
                        "--" + owner.begin()->first + " is in a group but run does not parse it");
  }
  return kube::Status::Ok();
}

}  // namespace

kube::Result<std::string> FlagReference::Markdown(const std::vector<Group>& groups,
                                                  const kube::FlagSet& all) {
  KUBE_RETURN_IF_ERROR(CheckCoverage(groups, all));
  std::string out =
      "# `dra-controller run` flags\n\n"
      "Generated from the flag definitions by `dra-controller docs flags`; after changing a "
      "flag, run `make docs`.\n\n"
      "`dra-controller run --help` prints the same flags in one list. A flag takes its value as "
      "`--name=value` or `--name value`; a bool flag alone means `true`.\n";
  for (const auto& group : groups) {
    out += "\n## " + group.title + "\n\n";
    if (!group.description.empty()) out += group.description + "\n\n";
    out += Table(group.flags);
  }
  return out;
}

}  // namespace dra::docs
