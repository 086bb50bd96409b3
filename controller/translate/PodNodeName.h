#pragma once

#include <nlohmann/json.hpp>

namespace dra::translate {

// Who set a live Pod's spec.nodeName. The scheduler binds a Pod through the
// pods/binding subresource: the API server writes spec.nodeName and a
// PodScheduled=True condition and records no field manager for nodeName. An
// author who sets nodeName owns f:spec.f:nodeName in managedFields, and the
// Pod bypasses the scheduler (no PodScheduled condition until a kubelet runs it).
class PodNodeName {
 public:
  // True when spec.nodeName is set and its author set it. With managedFields
  // (`kubectl get -o yaml --show-managed-fields`) the answer is exact: a
  // manager of the main resource owns the field. Without them, a Pod carrying
  // PodScheduled=True reads as bound by the scheduler (a kubelet also sets
  // that condition on a Pod it runs, so an author's nodeName can read as the
  // scheduler's there).
  static bool SetByAuthor(const nlohmann::json& pod);

 private:
  static bool ManagerOwnsNodeName(const nlohmann::json& entry);
};

}  // namespace dra::translate
