#pragma once

#include <string>

#include "src/base/Result.h"
#include "src/client/ResourceType.h"
#include "src/client/RestClient.h"

namespace dra::testing {

// The body of one LIST of `type` in `ns`, asked for with Accept: `accept`
// (JSON, or protobuf: ProtoEnvelope::kAccept); non-200 answers are errors.
kube::Result<std::string> RawList(kube::RestClient& client, const kube::ResourceType& type,
                                  const std::string& ns, const char* accept);

}  // namespace dra::testing
