#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace kube {

// Named producers of ready-made Prometheus text exposition that /metrics
// appends after the registry's own text. A feature whose families are
// expensive to build as registry objects renders them itself (typically
// when its inputs change) and hands out the cached text, which /metrics
// writes from the shared buffer (Texts()). Each source must give whole
// families (HELP, TYPE, samples) that no other source or the registry also
// exposes. Thread-safe.
class ExpositionSources {
 public:
  // nullptr means "nothing to expose yet".
  using Source = std::function<std::shared_ptr<const std::string>()>;

  // Adding a name again replaces its source.
  void Add(std::string name, Source source);
  void Remove(const std::string& name);

  // Appends every source's text in the order the names were first added,
  // each ending in a newline. A source that throws is skipped and logged.
  void AppendTo(std::string& out) const;
  // The same texts, shared rather than copied (a newline of its own follows
  // a text that lacks one), for a /metrics reply that writes them as they are.
  std::vector<std::shared_ptr<const std::string>> Texts() const;

 private:
  mutable std::mutex mu_;
  std::vector<std::pair<std::string, Source>> sources_;
};

}  // namespace kube
