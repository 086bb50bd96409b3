#include "tests/support/KustomizeOverlay.h"

#include <filesystem>

#include "tests/support/RepoRoot.h"

namespace dra::testing {

KustomizeOverlay::KustomizeOverlay(const std::vector<std::string>& resources,
                                   const std::vector<std::string>& components,
                                   const std::string& extra) {
  auto relative = [this](const std::string& path) {
    return std::filesystem::relative(RepoRoot::Path(path), dir_.path()).string();
  };
  std::string text = "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n";
  text += "resources:\n";
  for (const auto& resource : resources) text += "  - " + relative(resource) + "\n";
  text += "components:\n";
  for (const auto& component : components) text += "  - " + relative(component) + "\n";
  text += extra;
  dir_.Write("kustomization.yaml", text);
}

}  // namespace dra::testing
