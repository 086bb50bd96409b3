#pragma once

#include <string>

#include "controller/health/SourcedHealth.h"
#include "src/base/Result.h"

namespace dra::health {

// What SourcedHealthWriter::Apply did.
enum class SourcedWrite {
  kCreated,
  kUpdated,
  kUnchanged,
  // An object of that name exists without the source's label (a person's):
  // left as it is.
  kNotOurs,
};

// Writes the DeviceHealth objects monitoring sources state; behind an
// interface so sources can be tested without an API server
// (RestSourcedHealthWriter is the real one). Implementations are thread-safe.
class SourcedHealthWriter {
 public:
  virtual ~SourcedHealthWriter() = default;
  // Creates the object, or updates spec and the given annotations of one
  // carrying the same source label; never touches another's.
  virtual kube::Result<SourcedWrite> Apply(const SourcedHealth& health) = 0;
  // The object `name` when it carries `source`'s label; nullopt when it does
  // not exist or is not that source's.
  virtual kube::Result<std::optional<api::DeviceHealth>> Get(const std::string& name,
                                                             const std::string& source) = 0;
};

}  // namespace dra::health
