#include "controller/inventory/Inventory.h"

#include <prometheus/counter.h>
#include <prometheus/registry.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <mutex>
#include <unordered_set>

#include "controller/inventory/CelDeviceInput.h"
#include "controller/inventory/Tolerations.h"
#include "src/metrics/MetricFamilyCache.h"

namespace dra::inventory {
namespace {

std::string ClaimKey(const kube::ObjectMeta& meta) { return meta.namespace_name + "/" + meta.name; }

bool HasEffect(const std::vector<api::DeviceTaint>& taints, api::TaintEffect effect) {
  return std::any_of(taints.begin(), taints.end(),
                     [&](const api::DeviceTaint& t) { return t.EffectiveEffect() == effect; });
}

void Tally(DeviceCounts& counts, const DeviceInfo& device,
           const std::vector<api::DeviceToleration>& tolerations = {}) {
  ++counts.total;
  bool allocated = !device.allocated_to.empty();
  counts.allocated += allocated ? 1 : 0;
  counts.no_schedule += HasEffect(device.taints, api::TaintEffect::kNoSchedule) ? 1 : 0;
  counts.no_execute += HasEffect(device.taints, api::TaintEffect::kNoExecute) ? 1 : 0;
  counts.incomplete_pool += device.pool_complete ? 0 : 1;
  bool available = !allocated || device.allow_multiple_allocations;
  if (available && device.pool_complete && UntoleratedTaints(device.taints, tolerations).empty()) {
    ++counts.free;
  }
}

void MarkUnusable(DeviceCounts& counts, std::optional<ClassUnusable> unusable) {
  if (!unusable) return;
  counts.free = 0;
  counts.selector_error = std::move(unusable);
}

}  // namespace

Inventory::Inventory(std::shared_ptr<prometheus::Registry> metrics) : metrics_(std::move(metrics)) {
  if (!metrics_) return;
  auto family = kube::MetricFamilyCache::Counter(
      metrics_, "dra_controller_selector_errors_total",
      "Device selector evaluations that failed to compile or evaluate (the device then does "
      "not match), by DeviceClass");
  if (family.ok()) selector_error_metric_ = *family;
}

// ---- slices and pools ------------------------------------------------------

void Inventory::ApplySlice(std::shared_ptr<const api::ResourceSlice> slice) {
  std::unique_lock lock(mu_);
  for (const auto& pool_id : pools_.Apply(std::move(slice))) RebuildPool(pool_id);
}

void Inventory::RemoveSlice(const api::ResourceSlice& slice) {
  std::unique_lock lock(mu_);
  for (const auto& pool_id : pools_.Remove(slice.meta.name)) RebuildPool(pool_id);
}

// Devices of slices that did not change keep their entry and match results;
// the devices of new or replaced slices are evaluated against every class.
void Inventory::RebuildPool(const std::string& pool_id) {
  struct Source {
    std::shared_ptr<const api::ResourceSlice> slice;
    const api::Device* device;
  };
  std::unordered_map<std::string_view, Source> wanted;  // by device name
  for (const auto& slice : pools_.CurrentSlices(pool_id)) {
    for (const auto& device : slice->devices) {
      if (!wanted.emplace(device.name, Source{slice, &device}).second) {
        spdlog::warn("inventory: device {} is published twice in pool {}; keeping the first",
                     device.name, pool_id);
      }
    }
  }
  std::vector<DeviceId> kept;
  auto existing = by_pool_.find(pool_id);
  if (existing != by_pool_.end()) {
    for (DeviceId id : existing->second) {
      auto it = wanted.find(entries_[id]->device->name);
      if (it != wanted.end() && it->second.slice == entries_[id]->slice) {
        kept.push_back(id);
        wanted.erase(it);
      } else {
        RemoveDevice(id);
      }
    }
  }
  for (auto& [name, source] : wanted) {
    DeviceId id = AddDevice(Entry{source.slice, source.device});
    EvaluateAllClasses(id);
    kept.push_back(id);
  }
  if (kept.empty()) {
    by_pool_.erase(pool_id);
  } else {
    by_pool_[pool_id] = std::move(kept);
  }
}

Inventory::DeviceId Inventory::AddDevice(Entry entry) {
  DeviceId id;
  if (!free_ids_.empty()) {
    id = free_ids_.back();
    free_ids_.pop_back();
  } else {
    id = static_cast<DeviceId>(entries_.size());
    entries_.emplace_back();
    for (auto& [name, cls] : classes_) cls.matches.resize(entries_.size(), false);
  }
  ++device_count_;
  entries_[id] = std::move(entry);
  const Entry& added = *entries_[id];
  if (auto node = NodeKey(added)) by_node_[std::string(*node)].push_back(id);
  if (auto* selector = NodeLabels::SelectorOf(*added.slice, *added.device)) {
    node_labels_.AddDevice(*selector, id);
  }
  return id;
}

void Inventory::RemoveDevice(DeviceId id) {
  --device_count_;
  if (auto node = NodeKey(*entries_[id])) {
    auto it = by_node_.find(std::string(*node));
    std::erase(it->second, id);
    if (it->second.empty()) by_node_.erase(it);
  }
  const Entry& removed = *entries_[id];
  if (auto* selector = NodeLabels::SelectorOf(*removed.slice, *removed.device)) {
    node_labels_.RemoveDevice(*selector, id);
  }
  entries_[id].reset();
  for (auto& [name, cls] : classes_) {
    cls.matches[id] = false;
    if (!cls.failures.empty()) cls.failures.erase(id);
  }
  free_ids_.push_back(id);
}

// ---- classes and matching ----------------------------------------------------

void Inventory::ApplyClass(std::shared_ptr<const api::DeviceClass> device_class) {
  std::unique_lock lock(mu_);
  auto [it, inserted] = classes_.try_emplace(device_class->meta.name);
  ClassEntry& entry = it->second;
  bool same_selectors = !inserted && entry.object->selectors == device_class->selectors;
  entry.object = std::move(device_class);
  if (same_selectors) return;
  entry.selector = ClassSelector::Compile(entry.object->selectors, programs_);
  entry.matches.assign(entries_.size(), false);
  entry.ForgetFailures();
  for (DeviceId id = 0; id < entries_.size(); ++id) {
    if (!entries_[id]) continue;
    const Entry& device = *entries_[id];
    EvaluateClass(entry, id, ToCelDevice(*device.device, device.slice->driver));
  }
}

void Inventory::RemoveClass(const api::DeviceClass& device_class) {
  std::unique_lock lock(mu_);
  classes_.erase(device_class.meta.name);
}

void Inventory::RecomputeAllMatches() {
  std::unique_lock lock(mu_);
  for (auto& [name, cls] : classes_) {
    cls.matches.assign(entries_.size(), false);
    cls.ForgetFailures();
  }
  for (DeviceId id = 0; id < entries_.size(); ++id) {
    if (entries_[id]) EvaluateAllClasses(id);
  }
}

void Inventory::EvaluateAllClasses(DeviceId id) {
  if (classes_.empty()) return;
  const Entry& device = *entries_[id];
  cel::Device input = ToCelDevice(*device.device, device.slice->driver);
  for (auto& [name, cls] : classes_) EvaluateClass(cls, id, input);
}

void Inventory::EvaluateClass(ClassEntry& entry, DeviceId id, const cel::Device& device) {
  std::optional<ClassSelector::Failure> failure;
  entry.matches[id] = entry.selector.Matches(device, &failure);
  if (!failure) return;
  RecordFailure(entry.object->meta.name, *failure);
  if (!entry.selector.has_compile_error()) entry.RecordFailure(id, std::move(*failure));
}

void Inventory::ClassEntry::ForgetFailures() {
  failures.clear();
  failure_texts.clear();
  failure_index.clear();
}

void Inventory::ClassEntry::RecordFailure(DeviceId id, ClassSelector::Failure failure) {
  std::string text = failure.expression + '\n' + failure.message;
  auto [it, inserted] = failure_index.try_emplace(std::move(text), failure_texts.size());
  if (inserted) failure_texts.push_back(std::move(failure));
  failures[id] = it->second;
}

void Inventory::RecordFailure(const std::string& class_name,
                              const ClassSelector::Failure& failure) {
  ++selector_error_total_;
  if (selector_error_metric_ != nullptr) {
    selector_error_metric_->Add({{"device_class", class_name}}).Increment();
  }
  auto [it, inserted] = selector_errors_.try_emplace({class_name, failure.expression});
  SelectorError& error = it->second;
  if (inserted) {
    error.class_name = class_name;
    error.expression = failure.expression;
    spdlog::warn(
        "DeviceClass {}: selector {} fails, so the class is unusable where the "
        "scheduler evaluates it on such a device: {}",
        class_name, failure.expression, failure.message);
  }
  error.message = failure.message;
  ++error.count;
}

// ---- claims and taint rules --------------------------------------------------

void Inventory::ApplyClaim(std::shared_ptr<const api::ResourceClaim> claim) {
  std::unique_lock lock(mu_);
  std::string claim_key = ClaimKey(claim->meta);
  ForgetClaim(claim_key);
  if (claim->allocated) {
    for (const auto& result : claim->results) {
      allocations_[DeviceKey{result.driver, result.pool, result.device}.ToString()].push_back(
          claim_key);
    }
  }
  claims_[claim_key] = std::move(claim);
}

void Inventory::RemoveClaim(const api::ResourceClaim& claim) {
  std::unique_lock lock(mu_);
  ForgetClaim(ClaimKey(claim.meta));
}

void Inventory::ForgetClaim(const std::string& claim_key) {
  auto it = claims_.find(claim_key);
  if (it == claims_.end()) return;
  for (const auto& result : it->second->results) {
    auto held = allocations_.find(DeviceKey{result.driver, result.pool, result.device}.ToString());
    if (held == allocations_.end()) continue;
    std::erase(held->second, it->first);
    if (held->second.empty()) allocations_.erase(held);
  }
  claims_.erase(it);
}

void Inventory::ApplyTaintRule(std::shared_ptr<const api::DeviceTaintRule> rule) {
  std::unique_lock lock(mu_);
  std::string name = rule->meta.name;
  rules_[name] = std::move(rule);
}

void Inventory::RemoveTaintRule(const api::DeviceTaintRule& rule) {
  std::unique_lock lock(mu_);
  rules_.erase(rule.meta.name);
}

// ---- node labels: only selectors are re-checked, against the changed node --------

void Inventory::ApplyNode(std::shared_ptr<const api::NodeView> node) {
  std::unique_lock lock(mu_);
  node_labels_.ApplyNode(node->meta.name, node->meta.labels);
}

void Inventory::RemoveNode(const api::NodeView& node) {
  std::unique_lock lock(mu_);
  node_labels_.RemoveNode(node.meta.name);
}

// ---- queries -------------------------------------------------------------------

const Inventory::ClassEntry* Inventory::FindClass(std::string_view name) const {
  auto it = classes_.find(name);
  return it == classes_.end() ? nullptr : &it->second;
}

bool Inventory::Matches(const ClassEntry& entry, DeviceId id) const {
  return id < entry.matches.size() && entry.matches[id] && entries_[id].has_value();
}

std::optional<std::string_view> Inventory::NodeKey(const Entry& entry) {
  using Selection = api::ResourceSlice::NodeSelection;
  switch (entry.slice->node_selection) {
    case Selection::kNodeName:
      return entry.slice->node_name;
    case Selection::kAllNodes:
      return std::string_view();
    case Selection::kPerDevice:
      if (entry.device->all_nodes) return std::string_view();
      if (!entry.device->node_name.empty()) return entry.device->node_name;
      break;
    case Selection::kNodeSelector:
    case Selection::kUnspecified:
      break;
  }
  return std::nullopt;
}

std::vector<api::DeviceTaint> Inventory::TaintsOf(const Entry& entry) const {
  std::vector<api::DeviceTaint> taints = entry.device->taints;
  for (const auto& [name, rule] : rules_) {
    if (rule->Matches(entry.slice->driver, entry.slice->pool.name, entry.device->name)) {
      taints.push_back(rule->taint);
    }
  }
  return taints;
}

DeviceInfo Inventory::Describe(const Entry& entry) const {
  using Selection = api::ResourceSlice::NodeSelection;
  DeviceInfo info;
  info.key = entry.Key();
  info.slice_name = entry.slice->meta.name;
  const auto selection = entry.slice->node_selection;
  if (selection == Selection::kNodeName) info.node_name = entry.slice->node_name;
  if (selection == Selection::kPerDevice) info.node_name = entry.device->node_name;
  info.all_nodes = selection == Selection::kAllNodes ||
                   (selection == Selection::kPerDevice && entry.device->all_nodes);
  info.node_selector = selection == Selection::kNodeSelector ||
                       NodeLabels::SelectorOf(*entry.slice, *entry.device) != nullptr;
  const PoolStatus* pool =
      pools_.Find(PoolTracker::PoolId(entry.slice->driver, entry.slice->pool.name));
  info.pool_complete = pool != nullptr && pool->complete();
  info.allow_multiple_allocations = entry.device->allow_multiple_allocations;
  info.taints = TaintsOf(entry);
  auto held = allocations_.find(info.key.ToString());
  if (held != allocations_.end()) info.allocated_to = held->second;
  return info;
}

// ---- unusable classes: the v1.37.2 allocator evaluates class selectors on
// each device of the pools that reach the node, skipping devices in use and
// incomplete pools first, and aborts (Filter returns an error) on a runtime
// error instead of treating the device as "no match".

std::optional<ClassUnusable> Inventory::Blockers::On(std::string_view node) const {
  if (node.empty()) return anywhere;
  auto it = by_node.find(node);
  return it != by_node.end() ? std::optional(it->second) : every_node;
}

bool Inventory::Evaluated(const Entry& entry) const {
  const PoolStatus* pool =
      pools_.Find(PoolTracker::PoolId(entry.slice->driver, entry.slice->pool.name));
  if (pool == nullptr || !pool->complete()) return false;
  return entry.device->allow_multiple_allocations || !allocations_.contains(entry.Key().ToString());
}

void Inventory::AddBlocker(Blockers& blockers, const ClassEntry& entry, DeviceId id,
                           const ClassSelector::Failure& failure) const {
  const Entry& device = *entries_[id];
  if (!Evaluated(device)) return;
  ClassUnusable unusable{entry.object->meta.name, device.Key(), failure.expression,
                         failure.message};
  auto keep_smallest = [&](std::optional<ClassUnusable>& slot) {
    if (!slot || unusable.device < slot->device) slot = unusable;
  };
  keep_smallest(blockers.anywhere);
  auto block = [&](std::string_view node) {
    if (node.empty()) return keep_smallest(blockers.every_node);
    auto [it, inserted] = blockers.by_node.try_emplace(node, unusable);
    if (!inserted && unusable.device < it->second.device) it->second = unusable;
  };
  if (device.slice->node_selection == api::ResourceSlice::NodeSelection::kPerDevice) {
    // The allocator takes such a slice whole for every node one of its
    // devices serves, and evaluates selectors before a device's own node.
    for (const auto& other : device.slice->devices) {
      if (other.all_nodes || !other.node_name.empty()) {
        block(other.all_nodes ? std::string_view() : std::string_view(other.node_name));
      } else if (other.node_selector) {
        for (std::string_view node : node_labels_.NodesPicked(*other.node_selector)) block(node);
      }
    }
    return;
  }
  if (auto node = NodeKey(device)) return block(*node);
  if (auto* selector = NodeLabels::SelectorOf(*device.slice, *device.device)) {
    for (std::string_view node : node_labels_.NodesPicked(*selector)) block(node);
  }
}

Inventory::Blockers Inventory::BlockersOf(const ClassEntry& entry) const {
  Blockers blockers;
  if (entry.selector.has_compile_error()) {
    for (DeviceId id = 0; id < entries_.size(); ++id) {
      if (entries_[id]) AddBlocker(blockers, entry, id, entry.selector.compile_error());
    }
  }
  for (const auto& [id, text] : entry.failures) {
    AddBlocker(blockers, entry, id, entry.failure_texts[text]);
  }
  return blockers;
}

std::optional<ClassUnusable> Inventory::UnusableOn(const ClassEntry& entry,
                                                   std::string_view node) const {
  if (node.empty() || entry.selector.has_compile_error()) return BlockersOf(entry).On(node);
  if (entry.failures.empty()) return std::nullopt;
  Blockers blockers;
  auto check = [&](DeviceId id) {
    auto failed = entry.failures.find(id);
    if (failed != entry.failures.end()) {
      AddBlocker(blockers, entry, id, entry.failure_texts[failed->second]);
    }
  };
  std::vector<const api::ResourceSlice*> per_device;  // their devices all count here
  for (DeviceId id : Candidates(node)) {
    const api::ResourceSlice* slice = entries_[id]->slice.get();
    if (slice->node_selection != api::ResourceSlice::NodeSelection::kPerDevice) {
      check(id);
    } else if (std::find(per_device.begin(), per_device.end(), slice) == per_device.end()) {
      per_device.push_back(slice);
    }
  }
  for (const api::ResourceSlice* slice : per_device) {
    auto pool = by_pool_.find(PoolTracker::PoolId(slice->driver, slice->pool.name));
    for (DeviceId id : pool->second) {
      if (entries_[id]->slice.get() == slice) check(id);
    }
  }
  return blockers.On(node);
}

std::optional<ClassUnusable> Inventory::Unusable(std::string_view class_name,
                                                 std::string_view node) const {
  std::shared_lock lock(mu_);
  const ClassEntry* cls = FindClass(class_name);
  if (cls == nullptr) return std::nullopt;
  return UnusableOn(*cls, node);
}

DeviceCounts Inventory::Count(std::string_view class_name, std::string_view node) const {
  DeviceCounts counts;
  std::shared_lock lock(mu_);
  const ClassEntry* cls = FindClass(class_name);
  if (cls == nullptr) return counts;
  for (const DeviceInfo& device : MatchingLocked(*cls, node)) Tally(counts, device);
  MarkUnusable(counts, UnusableOn(*cls, node));
  return counts;
}

std::map<std::string, DeviceCounts> Inventory::CountPerNode(std::string_view class_name) const {
  std::map<std::string, DeviceCounts> counts;
  std::shared_lock lock(mu_);
  const ClassEntry* cls = FindClass(class_name);
  if (cls == nullptr) return counts;
  for (DeviceId id = 0; id < entries_.size(); ++id) {
    if (!Matches(*cls, id)) continue;
    const Entry& entry = *entries_[id];
    if (auto node = NodeKey(entry)) {
      Tally(counts[std::string(*node)], Describe(entry));
    } else if (auto* selector = NodeLabels::SelectorOf(*entry.slice, *entry.device)) {
      DeviceInfo info = Describe(entry);
      for (std::string_view node : node_labels_.NodesPicked(*selector)) {
        Tally(counts[std::string(node)], info);
      }
    }
  }
  Blockers blockers = BlockersOf(*cls);
  for (const auto& [node, unusable] : blockers.by_node) counts.try_emplace(std::string(node));
  if (blockers.every_node) counts.try_emplace("");
  for (auto& [node, node_counts] : counts) {
    MarkUnusable(node_counts, node.empty() ? blockers.every_node : blockers.On(node));
  }
  return counts;
}

std::vector<DeviceInfo> Inventory::DevicesMatching(std::string_view class_name,
                                                   std::string_view node) const {
  std::shared_lock lock(mu_);
  const ClassEntry* cls = FindClass(class_name);
  if (cls == nullptr) return {};
  return MatchingLocked(*cls, node);
}

std::vector<DeviceInfo> Inventory::MatchingLocked(const ClassEntry& entry,
                                                  std::string_view node) const {
  std::vector<DeviceInfo> out;
  for (DeviceId id : Candidates(node)) {
    if (Matches(entry, id)) out.push_back(Describe(*entries_[id]));
  }
  return out;
}

std::vector<Inventory::DeviceId> Inventory::Candidates(std::string_view node) const {
  std::vector<DeviceId> ids;
  if (node.empty()) {
    for (DeviceId id = 0; id < entries_.size(); ++id) {
      if (entries_[id]) ids.push_back(id);
    }
    return ids;
  }
  for (std::string_view key : {node, std::string_view()}) {
    auto it = by_node_.find(std::string(key));
    if (it != by_node_.end()) ids.insert(ids.end(), it->second.begin(), it->second.end());
  }
  node_labels_.AppendDevicesOn(node, ids);
  return ids;
}

RequestCounts Inventory::CountForRequest(const api::ResourceClaim::ExactRequest& request,
                                         std::string_view node) const {
  RequestCounts result;
  ClassSelector own = ClassSelector::Compile(request.selectors, programs_);
  std::shared_lock lock(mu_);
  const ClassEntry* cls = FindClass(request.device_class_name);
  if (cls == nullptr) return result;
  result.class_exists = true;
  bool aborts = false;  // the request's own selectors fail where the scheduler looks
  for (DeviceId id : Candidates(node)) {
    if (!Matches(*cls, id)) continue;
    const Entry& entry = *entries_[id];
    std::optional<ClassSelector::Failure> failure;
    bool selected = own.Matches(ToCelDevice(*entry.device, entry.slice->driver), &failure);
    if (failure && !result.selector_error) result.selector_error = failure;
    if (failure && Evaluated(entry)) aborts = true;
    if (selected) Tally(result.counts, Describe(entry), request.tolerations);
  }
  if (aborts) result.counts.free = 0;
  MarkUnusable(result.counts, UnusableOn(*cls, node));
  return result;
}

std::optional<Inventory::DeviceId> Inventory::IdOf(const DeviceKey& key) const {
  auto pool = by_pool_.find(PoolTracker::PoolId(key.driver, key.pool));
  if (pool == by_pool_.end()) return std::nullopt;
  for (DeviceId id : pool->second) {
    if (entries_[id]->device->name == key.device) return id;
  }
  return std::nullopt;
}

std::optional<DeviceInfo> Inventory::Find(const DeviceKey& key) const {
  std::shared_lock lock(mu_);
  auto id = IdOf(key);
  if (!id) return std::nullopt;
  return Describe(*entries_[*id]);
}

std::vector<DeviceInfo> Inventory::Devices() const {
  std::shared_lock lock(mu_);
  std::vector<DeviceInfo> out;
  for (const auto& entry : entries_) {
    if (entry) out.push_back(Describe(*entry));
  }
  std::sort(out.begin(), out.end(),
            [](const DeviceInfo& a, const DeviceInfo& b) { return a.key < b.key; });
  return out;
}

std::vector<std::string> Inventory::ClassesMatching(const DeviceKey& key) const {
  std::shared_lock lock(mu_);
  std::vector<std::string> out;
  auto id = IdOf(key);
  if (!id) return out;
  for (const auto& [name, cls] : classes_) {
    if (Matches(cls, *id)) out.push_back(name);
  }
  return out;
}

std::vector<PodUse> Inventory::PodsUsing(const DeviceKey& key) const {
  std::shared_lock lock(mu_);
  std::vector<PodUse> out;
  auto held = allocations_.find(key.ToString());
  if (held == allocations_.end()) return out;
  for (const auto& claim_key : held->second) {
    const auto& claim = *claims_.at(claim_key);
    for (const auto& consumer : claim.reserved_for) {
      if (consumer.resource != "pods") continue;
      out.push_back({claim.meta.namespace_name, consumer.name, consumer.uid, claim.meta.name});
    }
  }
  return out;
}

std::vector<PoolStatus> Inventory::Pools() const {
  std::shared_lock lock(mu_);
  return pools_.Pools();
}

std::vector<SelectorError> Inventory::SelectorErrors() const {
  std::shared_lock lock(mu_);
  std::vector<SelectorError> out;
  for (const auto& [key, error] : selector_errors_) out.push_back(error);
  return out;
}

uint64_t Inventory::selector_error_total() const {
  std::shared_lock lock(mu_);
  return selector_error_total_;
}

size_t Inventory::device_count() const {
  std::shared_lock lock(mu_);
  return device_count_;
}

bool Inventory::HasClass(std::string_view class_name) const {
  std::shared_lock lock(mu_);
  return FindClass(class_name) != nullptr;
}

// ---- Allocation metrics (#10): single-pass reads for scrapes ---------------------

void Inventory::VisitDevices(const std::function<void(const DeviceVisit&)>& visit) const {
  std::shared_lock lock(mu_);
  std::vector<const ClassEntry*> classes;
  std::vector<Blockers> blockers;  // parallel to `classes`
  for (const auto& [name, cls] : classes_) {
    classes.push_back(&cls);
    blockers.push_back(BlockersOf(cls));
  }
  std::vector<std::string_view> matching;
  std::vector<std::string_view> unusable;
  for (DeviceId id = 0; id < entries_.size(); ++id) {
    if (!entries_[id]) continue;
    const Entry& entry = *entries_[id];
    matching.clear();
    unusable.clear();
    // A device every node reaches (or behind a node selector) is unusable
    // for a class only where the class is unusable on every node.
    std::string_view node = NodeKey(entry).value_or(std::string_view());
    for (size_t i = 0; i < classes.size(); ++i) {
      if (!Matches(*classes[i], id)) continue;
      matching.push_back(classes[i]->object->meta.name);
      const Blockers& b = blockers[i];
      if (b.every_node || (!node.empty() && b.by_node.contains(node))) {
        unusable.push_back(classes[i]->object->meta.name);
      }
    }
    std::vector<api::DeviceTaint> taints = TaintsOf(entry);
    const PoolStatus* pool =
        pools_.Find(PoolTracker::PoolId(entry.slice->driver, entry.slice->pool.name));
    auto held = allocations_.find(entry.Key().ToString());
    DeviceVisit device{
        .slice = *entry.slice,
        .device = *entry.device,
        .node = node,
        .pool_complete = pool != nullptr && pool->complete(),
        .no_schedule = HasEffect(taints, api::TaintEffect::kNoSchedule),
        .no_execute = HasEffect(taints, api::TaintEffect::kNoExecute),
        .claims = held == allocations_.end() ? nullptr : &held->second,
        .classes = matching,
        .unusable = unusable.empty() ? nullptr : &unusable,
    };
    visit(device);
  }
}

void Inventory::VisitClaims(const std::function<void(const api::ResourceClaim&)>& visit) const {
  std::shared_lock lock(mu_);
  for (const auto& [key, claim] : claims_) visit(*claim);
}

std::vector<std::shared_ptr<const api::DeviceClass>> Inventory::ClassObjects() const {
  std::shared_lock lock(mu_);
  std::vector<std::shared_ptr<const api::DeviceClass>> out;
  for (const auto& [name, cls] : classes_) out.push_back(cls.object);
  return out;
}

}  // namespace dra::inventory
