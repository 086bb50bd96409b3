#pragma once

#include <memory>
#include <vector>

#include "controller/feature/Feature.h"

namespace dra::app {

using FeatureList = std::vector<std::unique_ptr<feature::Feature>>;

// Every feature `run` has, in wiring order. A new feature is a folder with a
// feature::Feature and one line here.
FeatureList AllFeatures();

}  // namespace dra::app
