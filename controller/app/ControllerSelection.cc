#include "controller/app/ControllerSelection.h"

#include <algorithm>

#include "src/base/AsciiText.h"

namespace dra::app {
namespace {

kube::Status Usage(const std::string& message) {
  return kube::Status(kube::StatusCode::kInvalidArgument, "--controllers: " + message);
}

std::string KnownNames(const FeatureList& features) {
  std::string names;
  for (const auto& f : features) names += (names.empty() ? "" : ", ") + std::string(f->Name());
  return names;
}

bool Known(const FeatureList& features, std::string_view name) {
  return std::any_of(features.begin(), features.end(),
                     [&](const auto& f) { return f->Name() == name; });
}

}  // namespace

kube::Result<ControllerSelection> ControllerSelection::Parse(std::string_view spec,
                                                             const FeatureList& features) {
  ControllerSelection selection;
  std::size_t begin = 0;
  while (begin <= spec.size()) {
    std::size_t end = std::min(spec.find(',', begin), spec.size());
    std::string item(kube::AsciiText::Trim(spec.substr(begin, end - begin)));
    begin = end + 1;
    bool remove = !item.empty() && item[0] == '-';
    std::string name = remove ? item.substr(1) : item;
    if (name == "*" && !remove) {
      for (const auto& f : features) selection.enabled_.insert(std::string(f->Name()));
      continue;
    }
    if (name.empty() || !Known(features, name)) {
      return Usage("unknown controller \"" + item + "\" (known: *, " + KnownNames(features) +
                   "; -NAME turns one off)");
    }
    if (remove) {
      selection.enabled_.erase(name);
    } else {
      selection.enabled_.insert(name);
    }
  }
  for (const auto& f : features) {
    std::string name(f->Name());
    if (!selection.Enabled(name)) {
      selection.reasons_.push_back(name + " is off (--controllers)");
      selection.off_.push_back(name);
      continue;
    }
    for (std::string_view need : f->Needs()) {
      if (selection.Enabled(need)) continue;
      selection.enabled_.erase(name);
      selection.reasons_.push_back(name + " is off: it feeds " + std::string(need) +
                                   ", which --controllers turns off");
      selection.off_.push_back(name);
      break;
    }
  }
  return selection;
}

void ControllerSelection::Filter(FeatureList& features) const {
  std::erase_if(features, [&](const auto& f) { return !Enabled(f->Name()); });
}

}  // namespace dra::app
