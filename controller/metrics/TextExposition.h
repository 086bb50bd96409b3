#pragma once

#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dra::metrics {

// Writes gauge families in the Prometheus text exposition format (0.0.4)
// straight into a string: "# HELP" and "# TYPE" once per family, then one
// line per sample with the label values escaped (\\, \", \n). The caller
// gives the samples in the order they are to appear.
class TextExposition {
 public:
  // A family as Family() declared it.
  struct FamilyHeader {
    std::string name;
    std::string help;
    std::vector<std::string> label_names;
  };

  // While one lives, every Family() started on its thread is also appended
  // to `families`: how the generated metrics reference learns the label
  // names of families rendered without a sample.
  class Recorder {
   public:
    explicit Recorder(std::vector<FamilyHeader>& families);
    ~Recorder();
    Recorder(const Recorder&) = delete;
    Recorder& operator=(const Recorder&) = delete;

   private:
    std::vector<FamilyHeader>* previous_;
  };

  explicit TextExposition(std::string& out) : out_(out) {}

  // Starts a gauge family; the samples that follow use `label_names`.
  void Family(std::string_view name, std::string_view help,
              const std::vector<std::string>& label_names);
  // `values` in the order of the family's label names; extra values beyond
  // the names are ignored, missing ones leave their labels out.
  void Sample(std::span<const std::string> values, double value);
  // The same, with one more label value after `values` (e.g. a taint effect).
  void Sample(std::span<const std::string> values, std::string_view last, double value);
  // The same, with label values after `values` (e.g. a taint effect and source).
  void Sample(std::span<const std::string> values, std::initializer_list<std::string_view> more,
              double value);

  static void AppendEscaped(std::string& out, std::string_view value);
  static void AppendValue(std::string& out, double value);

 private:
  void Label(size_t index, std::string_view value);
  void End(size_t labels, double value);

  std::string& out_;
  std::string name_;
  std::vector<std::string> label_names_;
};

}  // namespace dra::metrics
