#include "controller/extended/PodInformer.h"

#include "controller/api/PodView.h"

namespace dra::extended {

kube::Informer<api::PodView>& PodInformer::Get(kube::InformerRegistry& registry) {
  return registry.Get<api::PodView>(
      api::PodView::kResource, api::PodView::Decoder(), {}, [](const api::PodView& pod) {
        return pod.RequestsExtendedResources() || pod.ReportsDeviceHealth();
      });
}

}  // namespace dra::extended
