#pragma once

#include <string_view>
#include <vector>

#include "controller/feature/FeatureContext.h"
#include "src/base/Status.h"
#include "src/flags/FlagSet.h"

namespace dra::feature {

// One capability of `dra-controller run` (device health, extended resources,
// allocation metrics, ...), declared in its own folder and registered with
// one line in controller/app/Features.cc. `run` asks every feature for its
// flags, hands the parsed flags back before anything starts, then, once the
// API server's groups are known, lets each wire its informers, reconcilers
// and runnables onto the Manager, in registration order.
class Feature {
 public:
  virtual ~Feature() = default;

  // Names the feature in logs and wiring errors.
  virtual std::string_view Name() const = 0;
  // Features this one feeds and is useless without (--controllers turns it
  // off with them).
  virtual std::vector<std::string_view> Needs() const { return {}; }
  virtual void DeclareFlags(kube::FlagSet& flags) = 0;
  // A usage error (kInvalidArgument) names the flag; `run` exits 2 on it.
  virtual kube::Status ParseFlags(const kube::FlagSet& flags) = 0;
  // Ok also when the feature turns itself off because the cluster does not
  // serve what it needs (it logs why); an error stops `run`.
  virtual kube::Status Wire(FeatureContext& context) = 0;
};

}  // namespace dra::feature
