#include "controller/cel/Semver.h"

#include <charconv>

namespace dra::cel {
namespace {

bool IsDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

bool IsIdentChars(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    bool ok =
        (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-';
    if (!ok) return false;
  }
  return true;
}

bool ParseNumber(std::string_view s, uint64_t& out) {
  if (!IsDigits(s) || (s.size() > 1 && s[0] == '0')) return false;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && ptr == s.data() + s.size();
}

std::vector<std::string_view> Split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    size_t pos = s.find(sep, start);
    parts.push_back(s.substr(start, pos == std::string_view::npos ? pos : pos - start));
    if (pos == std::string_view::npos) return parts;
    start = pos + 1;
  }
}

int ComparePreIdent(const std::string& a, const std::string& b) {
  bool a_num = IsDigits(a), b_num = IsDigits(b);
  if (a_num && b_num) {
    if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
    return a < b ? -1 : (a > b ? 1 : 0);
  }
  if (a_num != b_num) return a_num ? -1 : 1;
  return a < b ? -1 : (a > b ? 1 : 0);
}

kube::Status Invalid(std::string_view text) {
  return kube::Status(kube::StatusCode::kInvalidArgument,
                      "invalid semver: '" + std::string(text) + "'");
}

}  // namespace

kube::Result<Semver> Semver::Parse(std::string_view text) {
  Semver v;
  std::string_view rest = text;
  if (size_t plus = rest.find('+'); plus != std::string_view::npos) {
    std::string_view build = rest.substr(plus + 1);
    for (auto part : Split(build, '.'))
      if (!IsIdentChars(part)) return Invalid(text);
    v.build_ = std::string(build);
    rest = rest.substr(0, plus);
  }
  if (size_t dash = rest.find('-'); dash != std::string_view::npos) {
    for (auto part : Split(rest.substr(dash + 1), '.')) {
      if (!IsIdentChars(part)) return Invalid(text);
      if (IsDigits(part) && part.size() > 1 && part[0] == '0') return Invalid(text);
      v.pre_.emplace_back(part);
    }
    rest = rest.substr(0, dash);
  }
  auto nums = Split(rest, '.');
  if (nums.size() != 3 || !ParseNumber(nums[0], v.major_) || !ParseNumber(nums[1], v.minor_) ||
      !ParseNumber(nums[2], v.patch_))
    return Invalid(text);
  return v;
}

int Semver::Compare(const Semver& other) const {
  if (major_ != other.major_) return major_ < other.major_ ? -1 : 1;
  if (minor_ != other.minor_) return minor_ < other.minor_ ? -1 : 1;
  if (patch_ != other.patch_) return patch_ < other.patch_ ? -1 : 1;
  if (pre_.empty() != other.pre_.empty()) return pre_.empty() ? 1 : -1;
  for (size_t i = 0; i < pre_.size() && i < other.pre_.size(); ++i)
    if (int c = ComparePreIdent(pre_[i], other.pre_[i]); c != 0) return c;
  if (pre_.size() != other.pre_.size()) return pre_.size() < other.pre_.size() ? -1 : 1;
  return 0;
}

std::string Semver::ToString() const {
  std::string s =
      std::to_string(major_) + "." + std::to_string(minor_) + "." + std::to_string(patch_);
  for (size_t i = 0; i < pre_.size(); ++i) s += (i == 0 ? "-" : ".") + pre_[i];
  if (!build_.empty()) s += "+" + build_;
  return s;
}

kube::Result<Semver> Semver::ParseNormalized(std::string_view text) {
  if (text.starts_with('v')) text.remove_prefix(1);
  // major.minor.(patch with its pre-release and build suffix)
  std::vector<std::string> parts;
  for (size_t start = 0; parts.size() < 3;) {
    size_t dot = parts.size() < 2 ? text.find('.', start) : std::string_view::npos;
    parts.emplace_back(text.substr(start, dot == std::string_view::npos ? dot : dot - start));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  for (std::string& part : parts) {
    if (part.size() < 2) continue;
    size_t zeros = part.find_first_not_of('0');
    part = zeros == std::string::npos ? std::string() : part.substr(zeros);
    if (part.empty() || part[0] < '0' || part[0] > '9') part = "0" + part;
  }
  if (parts.size() < 3 && parts.back().find_first_of("+-") != std::string::npos)
    return kube::Status(kube::StatusCode::kInvalidArgument,
                        "short version cannot contain PreRelease/Build meta data");
  while (parts.size() < 3) parts.emplace_back("0");
  return Parse(parts[0] + "." + parts[1] + "." + parts[2]);
}

}  // namespace dra::cel
