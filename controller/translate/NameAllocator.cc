#include "controller/translate/NameAllocator.h"

#include <cctype>
#include <cstdint>
#include <cstdio>

namespace dra::translate {

void NameAllocator::Reserve(const std::string& ns, const std::string& name) {
  taken_.emplace(ns, name);
}

bool NameAllocator::Taken(const std::string& ns, const std::string& name) const {
  return taken_.contains({ns, name});
}

std::string NameAllocator::Hash8(std::string_view text) {
  uint32_t hash = 2166136261u;  // FNV-1a: stable across platforms and runs
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 16777619u;
  }
  char buf[9];
  std::snprintf(buf, sizeof(buf), "%08x", hash);
  return buf;
}

std::string NameAllocator::Sanitize(std::string_view raw) {
  std::string out;
  for (unsigned char c : raw) {
    if (std::isalnum(c)) {
      out += static_cast<char>(std::tolower(c));
    } else if (!out.empty() && out.back() != '-') {
      out += '-';
    }
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out.empty() ? "x" : out;
}

std::string NameAllocator::Shorten(std::string_view raw, size_t max) {
  std::string name = Sanitize(raw);
  if (name.size() <= max) return name;
  std::string cut = name.substr(0, max - 9);
  while (!cut.empty() && cut.back() == '-') cut.pop_back();
  return cut + "-" + Hash8(name);
}

std::string NameAllocator::ClaimNameFor(std::string_view resource) {
  size_t slash = resource.rfind('/');
  return Shorten(slash == std::string_view::npos ? resource : resource.substr(slash + 1));
}

std::string NameAllocator::Allocate(const std::string& ns, std::string_view kind,
                                    std::string_view workload, std::string_view claim) {
  std::string base = std::string(workload) + "-" + std::string(claim);
  std::string candidates[] = {
      Shorten(base),
      Shorten(std::string(workload) + "-" + std::string(kind) + "-" + std::string(claim)),
  };
  for (const std::string& name : candidates) {
    if (!Taken(ns, name)) {
      Reserve(ns, name);
      return name;
    }
  }
  for (int attempt = 0;; ++attempt) {
    std::string seed = std::string(kind) + "/" + base + "/" + std::to_string(attempt);
    std::string name = Shorten(base, kMaxLabel - 9) + "-" + Hash8(seed);
    if (!Taken(ns, name)) {
      Reserve(ns, name);
      return name;
    }
  }
}

}  // namespace dra::translate
