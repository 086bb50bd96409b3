#include "controller/health/TaintRuleBuilder.h"

#include <cctype>

namespace dra::health {
namespace {

std::string LabelOf(const api::DeviceTaintRule& rule, std::string_view label) {
  for (const auto& [key, value] : rule.meta.labels) {
    if (key == label) return value;
  }
  return "";
}

// Label value rules: at most 63 of [A-Za-z0-9._-], starting and ending alphanumeric.
std::string ToLabelValue(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (out.size() == 63) break;
    bool ok = std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
    out.push_back(ok ? c : '-');
  }
  auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  while (!out.empty() && !alnum(out.back())) out.pop_back();
  size_t first = 0;
  while (first < out.size() && !alnum(out[first])) ++first;
  return out.substr(first);
}

std::string EffectText(api::TaintEffect effect) {
  api::DeviceTaint taint;
  taint.effect = effect;
  return taint.EffectName();
}

}  // namespace

std::string TaintRuleBuilder::RuleName(std::string_view health_name) {
  return "devicehealth-" + std::string(health_name);
}

std::string TaintRuleBuilder::TaintValue(const api::DeviceHealth& health) {
  std::string value = ToLabelValue(health.reason);
  return value.empty() ? ToLabelValue(health.state_text) : value;
}

nlohmann::json TaintRuleBuilder::Build(const api::DeviceHealth& health, api::TaintEffect effect) {
  nlohmann::json selector = {{"driver", health.driver}, {"pool", health.pool}};
  if (!health.device.empty()) selector["device"] = health.device;
  nlohmann::json owner = {{"apiVersion", "dra-controller.dev/v1alpha1"},
                          {"kind", "DeviceHealth"},
                          {"name", health.meta.name},
                          {"uid", health.meta.uid.str()},
                          {"controller", true}};
  nlohmann::json metadata = {
      {"name", RuleName(health.meta.name)},
      {"labels", {{kManagedByLabel, kManagedByValue}, {kOwnerLabel, health.meta.name}}}};
  // A source closes the device before its DeviceHealth exists (no uid yet):
  // the reconciler adds the owner once it does.
  if (!health.meta.uid.str().empty()) {
    metadata["ownerReferences"] = nlohmann::json::array({owner});
  }
  return {
      {"apiVersion", "resource.k8s.io/v1"},
      {"kind", "DeviceTaintRule"},
      {"metadata", metadata},
      {"spec",
       {{"deviceSelector", selector},
        {"taint",
         {{"key", kTaintKey}, {"value", TaintValue(health)}, {"effect", EffectText(effect)}}}}}};
}

bool TaintRuleBuilder::Owns(const api::DeviceTaintRule& rule, std::string_view health_name) {
  return LabelOf(rule, kManagedByLabel) == kManagedByValue &&
         LabelOf(rule, kOwnerLabel) == health_name;
}

std::string TaintRuleBuilder::OwnerOf(const api::DeviceTaintRule& rule) {
  if (LabelOf(rule, kManagedByLabel) != kManagedByValue) return "";
  std::string owner = LabelOf(rule, kOwnerLabel);
  return rule.meta.name == RuleName(owner) ? owner : "";
}

bool TaintRuleBuilder::Matches(const api::DeviceTaintRule& rule, const api::DeviceHealth& health,
                               api::TaintEffect effect) {
  if (!rule.selector.has_value()) return false;
  const auto& s = *rule.selector;
  return s.driver == health.driver && s.pool == health.pool && s.device == health.device &&
         rule.taint.key == kTaintKey && rule.taint.value == TaintValue(health) &&
         rule.taint.effect == effect && rule.controller_uid == health.meta.uid.str();
}

}  // namespace dra::health
