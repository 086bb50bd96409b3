#pragma once

#include <initializer_list>
#include <map>
#include <string>
#include <vector>

namespace dra::metrics {

// The series of one gauge family computed during a scrape: values keyed by
// their label values (in the order of `label_names`), emitted sorted so the
// exposition is stable. Series that are only Ensure()d are emitted at zero,
// so known label sets never disappear while their subject exists.
class GaugeTable {
 public:
  GaugeTable(std::string name, std::string help, std::vector<std::string> label_names);

  void Add(const std::vector<std::string>& label_values, double delta);
  void Set(const std::vector<std::string>& label_values, double value);
  void Ensure(const std::vector<std::string>& label_values);
  // A series the caller knows is unique (no lookup; cheaper for large
  // families). Appended series are sorted at Build() unless they already are.
  void Append(std::vector<std::string> label_values, double value);
  void Reserve(size_t series) { rows_.reserve(series); }

  size_t size() const { return values_.size() + rows_.size(); }
  // Appends the family as text exposition (TextExposition).
  void Render(std::string& out) const;
  static void RenderAll(std::string& out, std::initializer_list<const GaugeTable*> tables);

 private:
  std::string name_;
  std::string help_;
  std::vector<std::string> label_names_;
  std::map<std::vector<std::string>, double> values_;
  std::vector<std::pair<std::vector<std::string>, double>> rows_;
};

}  // namespace dra::metrics
