// The remover behind --delete-leaked-claims against an in-memory API server
// holding one claim and one Pod: which claims it refuses, and that a removal is
// a preconditioned DELETE followed by the status and finalizer updates that
// kube-controller-manager would otherwise make.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "controller/extended/LeakedClaimRemover.h"

namespace dra::extended {
namespace {

using nlohmann::json;

constexpr char kClaimPath[] = "/apis/resource.k8s.io/v1/namespaces/team/resourceclaims/p-gpu-x";
constexpr char kPodPath[] = "/api/v1/namespaces/team/pods/p";

kube::HttpResponse Answer(int status, const json& body) {
  kube::HttpResponse response;
  response.status = status;
  response.body = body.dump();
  return response;
}

kube::HttpResponse ApiError(int status, const std::string& reason) {
  return Answer(status, {{"kind", "Status"},
                         {"apiVersion", "v1"},
                         {"status", "Failure"},
                         {"reason", reason},
                         {"message", reason},
                         {"code", status}});
}

// One ResourceClaim and one Pod, with the API server's rules for what the
// remover sends: DELETE preconditions, resourceVersion on PUT, a deleting
// object kept while a finalizer remains.
class FakeApi : public kube::HttpTransport {
 public:
  kube::Result<kube::HttpResponse> Send(const kube::HttpRequest& request) override {
    requests.push_back(request.method + " " + request.path);
    if (request.path == kPodPath && request.method == "GET") {
      return pod ? Answer(200, *pod) : ApiError(404, "NotFound");
    }
    if (!claim) return ApiError(404, "NotFound");
    if (request.path == kClaimPath && request.method == "GET") return Answer(200, *claim);
    if (request.path == kClaimPath && request.method == "DELETE") return Delete(request.body);
    if (request.method == "PUT") return Put(request.path, json::parse(request.body));
    return ApiError(405, "MethodNotAllowed");
  }

  kube::Status Stream(const kube::HttpRequest&, kube::StreamHandler&, kube::CancelFlag&,
                      std::chrono::seconds) override {
    return kube::Status(kube::StatusCode::kUnavailable, "no watches");
  }

  std::vector<std::string> Writes() const {
    std::vector<std::string> writes;
    for (const auto& r : requests) {
      if (r.rfind("GET ", 0) != 0) writes.push_back(r);
    }
    return writes;
  }

  std::optional<json> claim;
  std::optional<json> pod;
  json last_delete_options;
  bool conflict_on_delete = false;  // the claim changed after the remover read it
  std::vector<std::string> requests;

 private:
  void Bump() {
    auto& rv = (*claim)["metadata"]["resourceVersion"];
    rv = std::to_string(std::stoi(rv.get<std::string>()) + 1);
  }

  kube::HttpResponse Delete(const std::string& body) {
    last_delete_options = json::parse(body);
    const auto& pre = last_delete_options["preconditions"];
    const auto& meta = (*claim)["metadata"];
    if (conflict_on_delete || pre.value("uid", "") != meta["uid"] ||
        pre.value("resourceVersion", "") != meta["resourceVersion"]) {
      return ApiError(409, "Conflict");
    }
    if (meta.contains("finalizers") && !meta["finalizers"].empty()) {
      (*claim)["metadata"]["deletionTimestamp"] = "2026-11-30T21:00:00Z";
      Bump();
    } else {
      claim.reset();
      return Answer(200, {{"kind", "Status"}, {"status", "Success"}});
    }
    return Answer(200, *claim);
  }

  kube::HttpResponse Put(const std::string& path, const json& body) {
    if (body["metadata"]["resourceVersion"] != (*claim)["metadata"]["resourceVersion"]) {
      return ApiError(409, "Conflict");
    }
    if (path == std::string(kClaimPath) + "/status") {
      (*claim)["status"] = body.value("status", json::object());
    } else if (path == kClaimPath) {
      (*claim)["metadata"]["finalizers"] = body["metadata"]["finalizers"];
      if ((*claim)["metadata"].contains("deletionTimestamp") &&
          (*claim)["metadata"]["finalizers"].empty()) {
        json last = *claim;
        claim.reset();
        return Answer(200, last);
      }
    } else {
      return ApiError(404, "NotFound");
    }
    Bump();
    return Answer(200, *claim);
  }
};

json ClaimJson() {
  return {{"metadata",
           {{"name", "p-gpu-x"},
            {"namespace", "team"},
            {"uid", "claim-uid"},
            {"resourceVersion", "10"},
            {"finalizers", {LeakedClaimRemover::kFinalizer}},
            {"annotations", {{"resource.kubernetes.io/extended-resource-claim", "true"}}},
            {"ownerReferences",
             {{{"apiVersion", "v1"},
               {"kind", "Pod"},
               {"name", "p"},
               {"uid", "pod-uid"},
               {"controller", true}}}}}},
          {"status",
           {{"allocation", {{"devices", {{"results", json::array()}}}}},
            {"reservedFor", {{{"resource", "pods"}, {"name", "p"}, {"uid", "pod-uid"}}}}}}};
}

json PodJson(const std::string& uid, const std::string& phase) {
  return {{"metadata", {{"name", "p"}, {"namespace", "team"}, {"uid", uid}}},
          {"spec", {{"nodeName", "node-1"}}},
          {"status", {{"phase", phase}}}};
}

kube::RestClientOptions NoRetries() {
  kube::RestClientOptions options;
  options.max_retries = 0;
  return options;
}

api::ResourceClaim Cached() {
  api::ResourceClaim claim;
  claim.meta.namespace_name = "team";
  claim.meta.name = "p-gpu-x";
  claim.meta.uid = "claim-uid";
  claim.extended_resource_claim = true;
  claim.allocated = true;
  claim.controller = api::ResourceClaim::OwnerReference{"Pod", "p", "pod-uid"};
  return claim;
}

class LeakedClaimRemoverTest : public ::testing::Test {
 protected:
  LeakedClaimRemoverTest()
      : api_(std::make_shared<FakeApi>()),
        remover_(std::make_shared<kube::RestClient>(api_, NoRetries())) {
    api_->claim = ClaimJson();
  }

  std::shared_ptr<FakeApi> api_;
  LeakedClaimRemover remover_;
};

TEST_F(LeakedClaimRemoverTest, GonePodDeletesWithPreconditionsThenReleasesLikeTheClaimController) {
  auto outcome = remover_.Remove(Cached());
  ASSERT_TRUE(outcome.ok()) << outcome.status().ToString();
  EXPECT_EQ(*outcome, LeakedClaimRemover::Outcome::kRemoved);
  EXPECT_FALSE(api_->claim.has_value());
  EXPECT_EQ(api_->last_delete_options["preconditions"],
            json({{"uid", "claim-uid"}, {"resourceVersion", "10"}}));
  EXPECT_EQ(api_->Writes(), (std::vector<std::string>{"DELETE " + std::string(kClaimPath),
                                                      "PUT " + std::string(kClaimPath) + "/status",
                                                      "PUT " + std::string(kClaimPath)}));
}

TEST_F(LeakedClaimRemoverTest, RunningOwnerPodKeepsTheClaimAndNothingIsWritten) {
  api_->pod = PodJson("pod-uid", "Running");
  auto outcome = remover_.Remove(Cached());
  ASSERT_TRUE(outcome.ok());
  EXPECT_EQ(*outcome, LeakedClaimRemover::Outcome::kKept);
  EXPECT_TRUE(api_->Writes().empty());
  EXPECT_TRUE(api_->claim.has_value());
}

TEST_F(LeakedClaimRemoverTest, PendingOwnerPodKeepsTheClaim) {
  api_->pod = PodJson("pod-uid", "Pending");
  EXPECT_EQ(*remover_.Remove(Cached()), LeakedClaimRemover::Outcome::kKept);
  EXPECT_TRUE(api_->Writes().empty());
}

TEST_F(LeakedClaimRemoverTest, ReplacedOrFinishedOwnerPodLetsItGo) {
  for (const auto& pod : {PodJson("other-uid", "Running"), PodJson("pod-uid", "Succeeded"),
                          PodJson("pod-uid", "Failed")}) {
    api_->claim = ClaimJson();
    api_->pod = pod;
    EXPECT_EQ(*remover_.Remove(Cached()), LeakedClaimRemover::Outcome::kRemoved) << pod.dump();
    EXPECT_FALSE(api_->claim.has_value());
  }
}

TEST_F(LeakedClaimRemoverTest, AnotherConsumerKeepsTheClaim) {
  (*api_->claim)["status"]["reservedFor"].push_back(
      {{"resource", "pods"}, {"name", "q"}, {"uid", "q-uid"}});
  EXPECT_EQ(*remover_.Remove(Cached()), LeakedClaimRemover::Outcome::kKept);
  EXPECT_TRUE(api_->Writes().empty());
}

TEST_F(LeakedClaimRemoverTest, AClaimChangedSinceItWasReadIsNotDeleted) {
  api_->conflict_on_delete = true;
  auto outcome = remover_.Remove(Cached());
  ASSERT_FALSE(outcome.ok());
  EXPECT_EQ(outcome.status().code(), kube::StatusCode::kConflict);
  ASSERT_TRUE(api_->claim.has_value());
  EXPECT_TRUE((*api_->claim)["status"].contains("allocation"));
}

TEST_F(LeakedClaimRemoverTest, ANewClaimUnderTheSameNameIsLeftAlone) {
  (*api_->claim)["metadata"]["uid"] = "new-claim-uid";
  EXPECT_EQ(*remover_.Remove(Cached()), LeakedClaimRemover::Outcome::kGone);
  EXPECT_TRUE(api_->Writes().empty());
}

TEST_F(LeakedClaimRemoverTest, AClaimAlreadyGoneIsGone) {
  api_->claim.reset();
  EXPECT_EQ(*remover_.Remove(Cached()), LeakedClaimRemover::Outcome::kGone);
}

TEST_F(LeakedClaimRemoverTest, AClaimStuckDeletingIsReleasedWithoutAnotherDelete) {
  (*api_->claim)["metadata"]["deletionTimestamp"] = "2026-11-30T21:00:00Z";
  EXPECT_EQ(*remover_.Remove(Cached()), LeakedClaimRemover::Outcome::kRemoved);
  EXPECT_FALSE(api_->claim.has_value());
  EXPECT_EQ(api_->Writes(), (std::vector<std::string>{"PUT " + std::string(kClaimPath) + "/status",
                                                      "PUT " + std::string(kClaimPath)}));
}

TEST_F(LeakedClaimRemoverTest, NotAnImplicitClaimOfThatPodIsKept) {
  (*api_->claim)["metadata"]["annotations"] = json::object();
  EXPECT_EQ(*remover_.Remove(Cached()), LeakedClaimRemover::Outcome::kKept);
  EXPECT_TRUE(api_->Writes().empty());
}

}  // namespace
}  // namespace dra::extended
