#include "src/auth/PeerGroup.h"

#include <arpa/inet.h>

#include <algorithm>
#include <array>

namespace kube {

std::string PeerGroup::Of(std::string_view address) {
  std::string text(address);
  std::array<unsigned char, 16> bytes{};
  if (inet_pton(AF_INET, text.c_str(), bytes.data()) == 1) return text;
  if (inet_pton(AF_INET6, text.c_str(), bytes.data()) != 1) return text;
  static constexpr std::array<unsigned char, 12> kMapped{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
  if (std::equal(kMapped.begin(), kMapped.end(), bytes.begin())) {
    return std::to_string(bytes[12]) + "." + std::to_string(bytes[13]) + "." +
           std::to_string(bytes[14]) + "." + std::to_string(bytes[15]);
  }
  std::array<char, INET6_ADDRSTRLEN> canonical{};
  if (inet_ntop(AF_INET6, bytes.data(), canonical.data(), canonical.size()) == nullptr) return text;
  return canonical.data();
}

}  // namespace kube
