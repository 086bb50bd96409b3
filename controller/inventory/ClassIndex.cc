#include "controller/inventory/ClassIndex.h"

#include "controller/inventory/CelDeviceInput.h"

namespace dra::inventory {

void ClassIndex::Apply(std::shared_ptr<const api::DeviceClass> device_class,
                       const DeviceTable& devices) {
  auto [it, inserted] = classes_.try_emplace(device_class->meta.name);
  ClassState& cls = it->second;
  bool same_selectors = !inserted && cls.object->selectors == device_class->selectors;
  cls.object = std::move(device_class);
  if (same_selectors) return;
  cls.selector = ClassSelector::Compile(cls.object->selectors, programs_);
  cls.matches.assign(devices.size(), false);
  cls.ForgetFailures();
  for (DeviceId id = 0; id < devices.size(); ++id) {
    if (!devices[id]) continue;
    const DeviceTable::Entry& device = *devices[id];
    Evaluate(cls, id, ToCelDevice(*device.device, device.slice->driver));
  }
}

void ClassIndex::RecomputeAll(const DeviceTable& devices) {
  for (auto& [name, cls] : classes_) {
    cls.matches.assign(devices.size(), false);
    cls.ForgetFailures();
  }
  for (DeviceId id = 0; id < devices.size(); ++id) {
    if (devices[id]) Added(id, devices);
  }
}

void ClassIndex::Added(DeviceId id, const DeviceTable& devices) {
  if (classes_.empty()) return;
  const DeviceTable::Entry& device = *devices[id];
  cel::Device input = ToCelDevice(*device.device, device.slice->driver);
  for (auto& [name, cls] : classes_) {
    if (cls.matches.size() < devices.size()) cls.matches.resize(devices.size(), false);
    Evaluate(cls, id, input);
  }
}

void ClassIndex::Removed(DeviceId id) {
  for (auto& [name, cls] : classes_) {
    if (id < cls.matches.size()) cls.matches[id] = false;
    if (!cls.failures.empty()) cls.failures.erase(id);
  }
}

const ClassState* ClassIndex::Find(std::string_view name) const {
  auto it = classes_.find(name);
  return it == classes_.end() ? nullptr : &it->second;
}

void ClassIndex::Evaluate(ClassState& cls, DeviceId id, const cel::Device& device) {
  std::optional<ClassSelector::Failure> failure;
  cls.matches[id] = cls.selector.Matches(device, &failure);
  if (!failure) return;
  errors_.Record(cls.object->meta.name, *failure);
  if (!cls.selector.has_compile_error()) cls.RecordFailure(id, std::move(*failure));
}

}  // namespace dra::inventory
