#include "tests/support/ScriptedPodInformerTest.h"

#include "tests/support/WaitFor.h"

namespace dra::testing {

using namespace std::chrono_literals;

void ScriptedPodInformerTest::SetUp() {
  auto server = ScriptedHttpServer::Start();
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  server_ = std::move(*server);
}

void ScriptedPodInformerTest::TearDown() {
  if (informer_) informer_->Stop();
  if (server_) server_->Stop();
}

void ScriptedPodInformerTest::StartInformer() {
  kube::RestConfig config;
  config.server = server_->Url();
  config.request_timeout = 5s;
  auto transport = kube::HttpTransport::Create(config);
  ASSERT_TRUE(transport.ok()) << transport.status().ToString();
  kube::RestClientOptions client_options;
  client_options.metrics = &rest_metrics_;
  auto client = std::make_shared<kube::RestClient>(
      std::shared_ptr<kube::HttpTransport>(std::move(*transport)), client_options);
  options_.metrics = registry_;
  informer_ = std::make_unique<kube::Informer<kube::MetaObject>>(
      client, kube::ResourceType{"", "v1", "pods", true, "Pod"}, decoder_, options_);
  events_registration_ = informer_->AddHandler(events_);
  informer_->Start();
}

std::string ScriptedPodInformerTest::Pod(const std::string& name, int rv) {
  return R"({"kind":"Pod","apiVersion":"v1","metadata":{"name":")" + name +
         R"(","namespace":"ns","resourceVersion":")" + std::to_string(rv) + R"("}})";
}

std::string ScriptedPodInformerTest::PodList(const std::vector<std::string>& pods, int rv) {
  std::string items;
  for (const auto& p : pods) items += (items.empty() ? "" : ",") + p;
  return R"({"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":")" +
         std::to_string(rv) + R"("},"items":[)" + items + "]}";
}

bool ScriptedPodInformerTest::IsList(const RecordedRequest& r) {
  return r.Path() == "/api/v1/pods" && !r.QueryParam("watch");
}

bool ScriptedPodInformerTest::IsWatch(const RecordedRequest& r) {
  return r.Path() == "/api/v1/pods" && r.QueryParam("watch").has_value();
}

void ScriptedPodInformerTest::Enqueue(ScriptedHttpServer::RouteId route,
                                      ScriptedResponse response) {
  ASSERT_TRUE(server_->Enqueue(route, std::move(response)).ok());
}

std::vector<RecordedRequest> ScriptedPodInformerTest::Requests(RequestKind kind) const {
  std::vector<RecordedRequest> out;
  for (const auto& r : server_->Requests()) {
    if (kind(r)) out.push_back(r);
  }
  return out;
}

bool ScriptedPodInformerTest::WaitForRequest(RequestKind kind, size_t n, const std::string& what) {
  return WaitFor(what + " #" + std::to_string(n), 10s, [&] { return Requests(kind).size() >= n; })
             .ok() &&
         WaitFor("the handler to catch up", 10s, [&] {
           return events_registration_->pending() == 0;
         }).ok();
}

std::set<std::string> ScriptedPodInformerTest::CachedKeys() {
  auto keys = informer_->store().Keys();
  return {keys.begin(), keys.end()};
}

double ScriptedPodInformerTest::Counted(const std::string& name, const std::string& label,
                                        const std::string& value) {
  double total = 0;
  for (const auto& family : registry_->Collect()) {
    if (family.name != name) continue;
    for (const auto& metric : family.metric) {
      for (const auto& l : metric.label) {
        if (l.name == label && l.value == value) total += metric.counter.value;
      }
    }
  }
  return total;
}

kube::ReflectorOptions ScriptedPodInformerTest::DefaultOptions() {
  kube::ReflectorOptions options;
  options.initial_backoff = 50ms;
  options.max_backoff = 400ms;
  return options;
}

}  // namespace dra::testing
