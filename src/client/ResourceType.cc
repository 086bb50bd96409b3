#include "src/client/ResourceType.h"

namespace kube {

std::string ResourceType::CollectionPath(std::string_view ns) const {
  std::string path = group.empty() ? "/api/" + version : "/apis/" + group + "/" + version;
  if (namespaced && !ns.empty()) path += "/namespaces/" + UrlEncode(ns);
  return path + "/" + plural;
}

std::string ResourceType::ItemPath(std::string_view ns, std::string_view name) const {
  return CollectionPath(ns) + "/" + UrlEncode(name);
}

std::string UrlEncode(std::string_view raw) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(raw.size());
  for (unsigned char c : raw) {
    bool unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                      c == '-' || c == '_' || c == '.' || c == '~';
    if (unreserved) {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 0xF]);
    }
  }
  return out;
}

}  // namespace kube
