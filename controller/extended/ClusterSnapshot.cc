#include "controller/extended/ClusterSnapshot.h"

#include <simdjson.h>

#include <functional>

#include "controller/extended/ExtendedResourceTypes.h"
#include "controller/inventory/InventoryInformers.h"
#include "src/client/ApiError.h"

namespace dra::extended {
namespace {

using ItemFn = std::function<bool(simdjson::dom::element)>;  // false: skipped

// Lists every page of `type`, handing each item to `each`.
kube::Status ListAll(kube::RestClient& client, const kube::ResourceType& type, const ItemFn& each,
                     int& errors) {
  kube::ListOptions options;
  options.limit = 500;
  simdjson::dom::parser parser;
  do {
    auto page = client.List(type, "", options);
    if (!page.ok()) return page.status();
    std::string text = page->dump();
    simdjson::dom::element root;
    if (parser.parse(text).get(root) != simdjson::SUCCESS) {
      return kube::Status(kube::StatusCode::kInternal, "cannot parse list of " + type.plural);
    }
    simdjson::dom::array items;
    if (root["items"].get_array().get(items) == simdjson::SUCCESS) {
      for (auto item : items) errors += each(item) ? 0 : 1;
    }
    std::string_view next;
    options.continue_token.clear();
    if (root["metadata"]["continue"].get_string().get(next) == simdjson::SUCCESS) {
      options.continue_token = std::string(next);
    }
  } while (!options.continue_token.empty());
  return kube::Status::Ok();
}

template <typename T, typename Sink>
ItemFn Decode(Sink sink) {
  return [sink](simdjson::dom::element item) {
    auto object = T::FromJson(item);
    if (!object.ok()) return false;
    sink(std::make_shared<const T>(std::move(*object)));
    return true;
  };
}

}  // namespace

std::shared_ptr<const api::ResourceClaim> ClusterSnapshot::Claim(const std::string& namespace_name,
                                                                 const std::string& name) const {
  for (const auto& c : claims) {
    if (c->meta.namespace_name == namespace_name && c->meta.name == name) return c;
  }
  return nullptr;
}

kube::Result<std::unique_ptr<ClusterSnapshot>> ClusterSnapshot::List(kube::RestClient& client,
                                                                     Options options) {
  auto snapshot = std::make_unique<ClusterSnapshot>();
  ClusterSnapshot* s = snapshot.get();
  inventory::Inventory* inv = s->inventory.get();
  using Types = inventory::DraResourceTypes;
  kube::Status status =
      ListAll(client, Types::kDeviceClasses, Decode<api::DeviceClass>([s, inv](auto c) {
                s->classes.push_back(c);
                inv->ApplyClass(c);
              }),
              s->decode_errors);
  if (!status.ok()) return status;
  status = ListAll(client, Types::kResourceSlices,
                   Decode<api::ResourceSlice>([inv](auto x) { inv->ApplySlice(std::move(x)); }),
                   s->decode_errors);
  if (!status.ok()) return status;
  status = ListAll(client, Types::kResourceClaims, Decode<api::ResourceClaim>([s, inv](auto x) {
                     s->claims.push_back(x);
                     inv->ApplyClaim(std::move(x));
                   }),
                   s->decode_errors);
  if (!status.ok()) return status;
  status =
      ListAll(client, Types::kDeviceTaintRules,
              Decode<api::DeviceTaintRule>([inv](auto x) { inv->ApplyTaintRule(std::move(x)); }),
              s->decode_errors);
  if (!status.ok() && status.code() != kube::StatusCode::kNotFound) return status;
  status = ListAll(client, ExtendedResourceTypes::kNodes, Decode<api::NodeView>([s, inv](auto n) {
                     inv->ApplyNode(n);
                     s->nodes.push_back(std::move(n));
                   }),
                   s->decode_errors);
  if (!status.ok()) return status;
  if (options.with_pods) {
    status = ListAll(client, ExtendedResourceTypes::kPods,
                     Decode<api::PodView>([s](auto p) { s->pods.push_back(std::move(p)); }),
                     s->decode_errors);
    if (!status.ok()) return status;
  }
  return snapshot;
}

}  // namespace dra::extended
