#pragma once

#include <memory>
#include <string_view>

#include "controller/extended/ExtendedOptions.h"
#include "controller/extended/ExtendedWiring.h"
#include "controller/feature/Feature.h"

namespace dra::extended {

// Extended resources as a `run` feature: the mapping, Pod-event and leak
// reconcilers (ExtendedWiring) and their flags (--repair-extended-resource-
// mapping, --extended-resource-leak-grace-period, --delete-leaked-claims).
class ExtendedFeature : public feature::Feature {
 public:
  std::string_view Name() const override { return "extended-resources"; }
  void DeclareFlags(kube::FlagSet& flags) override;
  kube::Status ParseFlags(const kube::FlagSet& flags) override;
  kube::Status Wire(feature::FeatureContext& context) override;

  const ExtendedOptions& options() const { return options_; }

 private:
  void ReportReleaseDefault(feature::FeatureContext& context) const;

  ExtendedOptions options_;
  std::unique_ptr<ExtendedWiring> wiring_;
};

}  // namespace dra::extended
