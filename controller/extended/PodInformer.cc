#include "controller/extended/PodInformer.h"

#include "controller/extended/ExtendedResourceTypes.h"

namespace dra::extended {

kube::Informer<api::PodView>& PodInformer::Get(kube::InformerRegistry& registry) {
  return registry.Get<api::PodView>(
      ExtendedResourceTypes::kPods, api::PodView::Decoder(), {}, [](const api::PodView& pod) {
        return pod.RequestsExtendedResources() || pod.ReportsDeviceHealth();
      });
}

}  // namespace dra::extended
