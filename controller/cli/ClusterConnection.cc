#include "controller/cli/ClusterConnection.h"

#include "src/config/ConfigLoader.h"
#include "src/http/HttpTransport.h"

namespace dra::cli {

void ClusterConnection::DeclareFlags(kube::FlagSet& flags) {
  flags.String("kubeconfig", "",
               "path to a kubeconfig (default: $KUBECONFIG, the in-cluster service account, "
               "then ~/.kube/config)");
  flags.String("context", "", "kubeconfig context to use (default: current-context)");
}

kube::Result<ClusterConnection> ClusterConnection::Open(const kube::FlagSet& flags) {
  auto config = kube::ConfigLoader::Load(
      kube::ConfigLoader::FromEnvironment(flags.Get("kubeconfig"), flags.Get("context")));
  if (!config.ok()) return config.status();
  auto transport = kube::HttpTransport::Create(*config);
  if (!transport.ok()) return transport.status();
  auto client = std::make_shared<kube::RestClient>(
      std::shared_ptr<kube::HttpTransport>(std::move(*transport)));
  return ClusterConnection(std::move(*config), std::move(client));
}

std::optional<ClusterConnection> ClusterConnection::OpenOrReport(const kube::FlagSet& flags,
                                                                 std::ostream& err) {
  auto connection = Open(flags);
  if (!connection.ok()) {
    err << "error: " << connection.status().message() << "\n";
    return std::nullopt;
  }
  return std::move(*connection);
}

}  // namespace dra::cli
