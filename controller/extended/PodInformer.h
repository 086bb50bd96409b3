#pragma once

#include "controller/api/PodView.h"
#include "src/cache/InformerRegistry.h"

namespace dra::extended {

// The one Pod informer every feature shares. It caches only Pods that
// request extended resources (PodView::RequestsExtendedResources) or whose
// kubelet reports the health of DRA devices (PodView::ReportsDeviceHealth): on a
// cluster where most Pods use no GPU, the others would be most of the
// controller's memory and are read by nothing. Every feature must ask for it
// here, since the registry serves the first caller's projection to all.
class PodInformer {
 public:
  static kube::Informer<api::PodView>& Get(kube::InformerRegistry& registry);
};

}  // namespace dra::extended
