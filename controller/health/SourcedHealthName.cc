#include "controller/health/SourcedHealthName.h"

#include <cstdint>
#include <cstdio>
#include <string_view>

namespace dra::health {
namespace {

constexpr size_t kHashDigits = 12;

uint64_t Fnv1a(std::string_view text) {
  uint64_t hash = 14695981039346656037ull;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return hash;
}

// Lowercase letters and digits; every run of anything else becomes one '-'.
std::string Readable(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    bool keep = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (keep) {
      out.push_back(c);
    } else if (!out.empty() && out.back() != '-') {
      out.push_back('-');
    }
  }
  return out;
}

std::string_view TrimDashes(std::string_view text) {
  while (!text.empty() && text.front() == '-') text.remove_prefix(1);
  while (!text.empty() && text.back() == '-') text.remove_suffix(1);
  return text;
}

}  // namespace

std::string SourcedHealthName::For(std::string_view prefix, std::string_view readable_text,
                                   std::string_view identity) {
  char hash[17];
  std::snprintf(hash, sizeof(hash), "%016llx", static_cast<unsigned long long>(Fnv1a(identity)));
  const size_t room = kMaxLength - prefix.size() - 1 - kHashDigits;
  std::string readable = Readable(readable_text);
  std::string_view part(readable);
  // The end of the readable part (a device's name, a GPU's index) is the telling one.
  if (part.size() > room) part.remove_prefix(part.size() - room);
  part = TrimDashes(part);
  std::string name(prefix);
  if (!part.empty()) name.append(part).push_back('-');
  name.append(hash, kHashDigits);
  return name;
}

}  // namespace dra::health
