#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "controller/check/CheckInputs.h"
#include "src/client/RestClient.h"

namespace dra::check {

// Reads the CheckInputs from a live API server. Every read is independent:
// a failure (Forbidden, NotFound, ...) is recorded in its Fetched and the
// other reads go on, so one missing permission costs only its own checks.
class CheckInputsReader {
 public:
  struct Options {
    std::string namespace_name = "dra-system";  // the controller's Deployment and Lease
    std::string lease_name = "dra-controller";
    // What `run` needs with the Deployment's args (cli::ControllerNeeds; the
    // check folder does not know the features' flags).
    std::function<kube::Result<std::vector<ControllerNeed>>(const std::vector<std::string>&)>
        controller_needs;
  };

  static CheckInputs Read(kube::RestClient& client, const Options& options);

 private:
  static void ReadApi(kube::RestClient& client, CheckInputs& in);
  // Where DeviceTaintRules are served; whether DeviceClasses keep extendedResourceName.
  static void ReadCapabilities(kube::RestClient& client, CheckInputs& in);
  static void ReadHealth(kube::RestClient& client, CheckInputs& in);
  static void ReadClaimConditions(kube::RestClient& client, CheckInputs& in);
  static void AddClaimConditions(const nlohmann::json& claim,
                                 std::vector<ClaimDeviceCondition>& found);
  static void ReadController(kube::RestClient& client, CheckInputs& in);
  static void ReadSourcePolicy(kube::RestClient& client, CheckInputs& in);
  static void ReadAccess(kube::RestClient& client, CheckInputs& in);
  static void ReadControllerAccess(kube::RestClient& client, const Options& options,
                                   CheckInputs& in);
  // A SelfSubjectAccessReview, or with `user` a SubjectAccessReview for that
  // service account user of `user_namespace`.
  static AccessCheck Review(kube::RestClient& client, AccessCheck check,
                            const std::string& user = "", const std::string& user_namespace = "");
};

}  // namespace dra::check
