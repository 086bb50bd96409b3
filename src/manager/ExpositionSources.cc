#include "src/manager/ExpositionSources.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <exception>

namespace kube {

void ExpositionSources::Add(std::string name, Source source) {
  std::lock_guard lock(mu_);
  auto it = std::find_if(sources_.begin(), sources_.end(),
                         [&](const auto& entry) { return entry.first == name; });
  if (it != sources_.end()) {
    it->second = std::move(source);
    return;
  }
  sources_.emplace_back(std::move(name), std::move(source));
}

void ExpositionSources::Remove(const std::string& name) {
  std::lock_guard lock(mu_);
  std::erase_if(sources_, [&](const auto& entry) { return entry.first == name; });
}

void ExpositionSources::AppendTo(std::string& out) const {
  for (const auto& text : Texts()) out += *text;
}

std::vector<std::shared_ptr<const std::string>> ExpositionSources::Texts() const {
  static const auto* newline = new std::shared_ptr<const std::string>(
      std::make_shared<const std::string>("\n"));  // never destroyed, as scrapes may run at exit
  std::vector<std::pair<std::string, Source>> sources;
  {
    std::lock_guard lock(mu_);
    sources = sources_;
  }
  std::vector<std::shared_ptr<const std::string>> texts;
  for (const auto& [name, source] : sources) {
    std::shared_ptr<const std::string> text;
    try {
      if (source) text = source();
    } catch (const std::exception& e) {
      spdlog::warn("metrics exposition source {}: {}", name, e.what());
      continue;
    }
    if (!text || text->empty()) continue;
    texts.push_back(text);
    if (text->back() != '\n') texts.push_back(*newline);
  }
  return texts;
}

}  // namespace kube
