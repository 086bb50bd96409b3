#include "controller/extended/PodInformer.h"

#include "controller/extended/ExtendedResourceTypes.h"

namespace dra::extended {

kube::Informer<api::PodView>& PodInformer::Get(kube::InformerRegistry& registry) {
  return registry.Get<api::PodView>(ExtendedResourceTypes::kPods, api::PodView::Decoder(), {},
                                    &api::PodView::RequestsExtendedResources);
}

}  // namespace dra::extended
