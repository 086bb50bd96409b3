#pragma once

#include <vector>

#include "controller/alerts/ResolutionMemory.h"
#include "src/base/Result.h"

namespace dra::alerts {

// Where the ResolutionMemory lives, shared by every replica and kept across
// restarts; behind an interface so the receiver is tested without an API
// server (RestResolutionStore is the real one). Implementations are
// thread-safe.
class ResolutionStore {
 public:
  virtual ~ResolutionStore() = default;
  // The memory as stored now; empty when nothing is stored yet.
  virtual kube::Result<ResolutionMemory> Load() = 0;
  // Adds `resolved` to what is stored, pruned (ResolutionMemory::Prune).
  virtual kube::Status Add(const std::vector<ResolutionMemory::Entry>& resolved) = 0;
};

}  // namespace dra::alerts
