#include "controller/extended/ImplicitClaimTranslator.h"

#include <algorithm>
#include <set>

namespace dra::extended {
namespace {

using Container = api::PodView::Container;

struct ContainerResult {
  std::optional<ImplicitRequest> request;
  std::vector<ImplicitMapping> mappings;
};

const api::PodView::ExtendedResource* FindResource(const Container& c, std::string_view name) {
  for (const auto& r : c.resources) {
    if (r.name == name) return &r;
  }
  return nullptr;
}

bool IsLongLived(const Container& c) { return !c.is_init || c.is_sidecar; }

// int64 arithmetic that wraps like Go's, without C++'s undefined behaviour on
// overflow, so absurd quantities still give what the scheduler computes.
int64_t WrapAdd(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
int64_t WrapSub(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}

// One container's share of `resource`: the requests it can reuse first, then
// a request of its own for the rest.
ContainerResult TranslateContainer(size_t index, const Container& c, const std::string& resource,
                                   const std::string& device_class,
                                   const std::vector<const ImplicitRequest*>& reusable) {
  ContainerResult result;
  const auto* r = FindResource(c, resource);
  if (r == nullptr) return result;
  std::optional<int64_t> wanted = r->request.AsInt64();
  if (!wanted || *wanted <= 0) return result;
  int64_t covered = 0;
  for (const ImplicitRequest* other : reusable) {
    if (other == nullptr) continue;
    covered = WrapAdd(covered, other->count);
    result.mappings.push_back({c.name, resource, other->name});
    if (covered >= *wanted) return result;
  }
  std::string name =
      "container-" + std::to_string(index) + "-request-" + std::to_string(r->request_index);
  result.mappings.push_back({c.name, resource, name});
  result.request = ImplicitRequest{std::move(name), device_class, WrapSub(*wanted, covered)};
  return result;
}

void TranslateResource(std::span<const Container> containers, const std::string& resource,
                       const std::string& device_class, ImplicitClaim& claim) {
  std::vector<std::optional<ImplicitRequest>> long_lived(containers.size());
  std::vector<ImplicitMapping> long_mappings;
  for (size_t i = 0; i < containers.size(); ++i) {
    if (!IsLongLived(containers[i])) continue;
    ContainerResult r = TranslateContainer(i, containers[i], resource, device_class, {});
    long_lived[i] = std::move(r.request);
    long_mappings.insert(long_mappings.end(), r.mappings.begin(), r.mappings.end());
  }
  std::optional<ImplicitRequest> largest_short;
  std::set<std::string> short_names;
  std::vector<ImplicitMapping> short_mappings;
  for (size_t i = 0; i < containers.size(); ++i) {
    if (IsLongLived(containers[i])) continue;
    std::vector<const ImplicitRequest*> reusable;
    for (size_t k = i; k < containers.size(); ++k) {
      reusable.push_back(long_lived[k] ? &*long_lived[k] : nullptr);
    }
    ContainerResult r = TranslateContainer(i, containers[i], resource, device_class, reusable);
    if (r.request) {
      short_names.insert(r.request->name);
      if (!largest_short || largest_short->count < r.request->count) largest_short = r.request;
    }
    short_mappings.insert(short_mappings.end(), r.mappings.begin(), r.mappings.end());
  }
  if (largest_short && short_names.size() > 1) {
    for (auto& m : short_mappings) {
      if (short_names.contains(m.request_name)) m.request_name = largest_short->name;
    }
  }
  if (largest_short) claim.requests.push_back(*largest_short);
  for (auto& request : long_lived) {
    if (request) claim.requests.push_back(std::move(*request));
  }
  claim.mappings.insert(claim.mappings.end(), long_mappings.begin(), long_mappings.end());
  claim.mappings.insert(claim.mappings.end(), short_mappings.begin(), short_mappings.end());
}

void CollectSkipped(std::span<const Container> containers, const std::string& resource,
                    ImplicitClaim& claim) {
  for (const auto& c : containers) {
    const auto* r = FindResource(c, resource);
    if (r != nullptr && !r->request.AsInt64()) {
      claim.skipped.push_back({c.name, resource, r->request.ToString()});
    }
  }
}

}  // namespace

std::vector<std::string> ImplicitClaimTranslator::DraResources(
    std::span<const Container> containers, const ClassResolver& class_for) {
  std::set<std::string> names;
  for (const auto& c : containers) {
    for (const auto& r : c.resources) {
      if (!r.request.IsZero() && class_for(r.name)) names.insert(r.name);
    }
  }
  return {names.begin(), names.end()};
}

ImplicitClaim ImplicitClaimTranslator::Translate(std::span<const Container> containers,
                                                 const ClassResolver& class_for,
                                                 const DraOnNode& dra_on_node) {
  ImplicitClaim claim;
  for (const std::string& resource : DraResources(containers, class_for)) {
    if (!dra_on_node(resource)) continue;
    std::optional<std::string> device_class = class_for(resource);
    TranslateResource(containers, resource, *device_class, claim);
    CollectSkipped(containers, resource, claim);
  }
  std::sort(claim.requests.begin(), claim.requests.end(),
            [](const auto& a, const auto& b) { return a.name < b.name; });
  return claim;
}

}  // namespace dra::extended
