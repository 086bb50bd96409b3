#pragma once

#include "controller/check/CheckInputs.h"
#include "controller/check/CheckResult.h"

namespace dra::check {

// Is dra-controller itself installed and leading, and may the caller read
// what the operator commands read?
class ControllerChecks {
 public:
  // Deployment dra-controller in the namespace: absent warns (check runs
  // before an install too), present without ready replicas fails.
  static CheckResult Deployment(const CheckInputs& in);
  // The leader Lease renewed within its leaseDurationSeconds. Problems fail
  // when the Deployment exists and only warn when it does not (a local run's Lease).
  static CheckResult Lease(const CheckInputs& in);
  // The admission policy that keeps the monitoring sources' DeviceHealth
  // names and label theirs: absent (or unreadable) warns, since without it a
  // person who may create DeviceHealths can silence a source for a GPU.
  static CheckResult SourcePolicy(const CheckInputs& in);
  // Every caller AccessCheck allowed.
  static CheckResult Access(const CheckInputs& in);
  // Every permission `run` needs allowed to the Deployment's service account;
  // skipped (warn) without a Deployment.
  static CheckResult ControllerAccess(const CheckInputs& in);

 private:
  // "verb resource[/sub] [in NS]" of each check not allowed, comma-separated.
  static std::string Denied(const std::vector<AccessCheck>& checks);
};

}  // namespace dra::check
