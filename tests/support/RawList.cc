#include "tests/support/RawList.h"

namespace dra::testing {

kube::Result<std::string> RawList(kube::RestClient& client, const kube::ResourceType& type,
                                  const std::string& ns, const char* accept) {
  kube::HttpRequest request;
  request.path = type.CollectionPath(ns);
  request.headers.emplace_back("Accept", accept);
  auto response = client.Do(request);
  if (!response.ok()) return response.status();
  if (response->status != 200) {
    return kube::Status(kube::StatusCode::kInternal,
                        "LIST answered " + std::to_string(response->status));
  }
  return std::move(response->body);
}

}  // namespace dra::testing
