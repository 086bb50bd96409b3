#include "controller/metrics/TextExposition.h"

#include <charconv>
#include <cmath>

namespace dra::metrics {
namespace {

thread_local std::vector<TextExposition::FamilyHeader>* recording = nullptr;

}  // namespace

TextExposition::Recorder::Recorder(std::vector<FamilyHeader>& families) : previous_(recording) {
  recording = &families;
}

TextExposition::Recorder::~Recorder() { recording = previous_; }

void TextExposition::Family(std::string_view name, std::string_view help,
                            const std::vector<std::string>& label_names) {
  if (recording != nullptr) {
    recording->push_back({std::string(name), std::string(help), label_names});
  }
  name_ = name;
  label_names_ = label_names;
  out_.append("# HELP ").append(name).push_back(' ');
  for (char c : help) {  // HELP escapes only backslash and newline
    if (c == '\\') {
      out_.append("\\\\");
    } else if (c == '\n') {
      out_.append("\\n");
    } else {
      out_.push_back(c);
    }
  }
  out_.append("\n# TYPE ").append(name).append(" gauge\n");
}

void TextExposition::Sample(std::span<const std::string> values, double value) {
  out_.append(name_);
  size_t n = std::min(values.size(), label_names_.size());
  for (size_t i = 0; i < n; ++i) Label(i, values[i]);
  End(n, value);
}

void TextExposition::Sample(std::span<const std::string> values, std::string_view last,
                            double value) {
  Sample(values, {last}, value);
}

void TextExposition::Sample(std::span<const std::string> values,
                            std::initializer_list<std::string_view> more, double value) {
  out_.append(name_);
  size_t n = std::min(values.size(), label_names_.size());
  for (size_t i = 0; i < n; ++i) Label(i, values[i]);
  for (std::string_view extra : more) {
    if (n < label_names_.size()) Label(n++, extra);
  }
  End(n, value);
}

void TextExposition::Label(size_t index, std::string_view value) {
  out_.push_back(index == 0 ? '{' : ',');
  out_.append(label_names_[index]).append("=\"");
  AppendEscaped(out_, value);
  out_.push_back('"');
}

void TextExposition::End(size_t labels, double value) {
  if (labels > 0) out_.push_back('}');
  out_.push_back(' ');
  AppendValue(out_, value);
  out_.push_back('\n');
}

void TextExposition::AppendEscaped(std::string& out, std::string_view value) {
  size_t plain = value.find_first_of("\\\"\n");
  if (plain == std::string_view::npos) {
    out.append(value);
    return;
  }
  for (char c : value) {
    if (c == '\\') {
      out.append("\\\\");
    } else if (c == '"') {
      out.append("\\\"");
    } else if (c == '\n') {
      out.append("\\n");
    } else {
      out.push_back(c);
    }
  }
}

void TextExposition::AppendValue(std::string& out, double value) {
  if (std::isnan(value)) {
    out.append("NaN");
  } else if (std::isinf(value)) {
    out.append(value > 0 ? "+Inf" : "-Inf");
  } else {
    char buffer[32];
    auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    out.append(buffer, result.ptr);
  }
}

}  // namespace dra::metrics
