#include "controller/translate/InputSet.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <system_error>

namespace dra::translate {
namespace {

namespace fs = std::filesystem;

bool IsManifest(const fs::path& path) {
  std::string ext = path.extension().string();
  return ext == ".yaml" || ext == ".yml" || ext == ".json";
}

kube::Result<std::string> Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return kube::Status(kube::StatusCode::kNotFound, "cannot read " + path);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

}  // namespace

kube::Result<InputSet> InputSet::Read(const std::string& source, std::istream& stdin_stream) {
  InputSet set;
  if (source == "-") {
    std::string content((std::istreambuf_iterator<char>(stdin_stream)),
                        std::istreambuf_iterator<char>());
    set.files.push_back({"", std::move(content)});
    return set;
  }
  std::error_code ec;
  if (!fs::is_directory(source, ec)) {
    std::string content;
    KUBE_ASSIGN_OR_RETURN(content, Slurp(source));
    set.files.push_back({source, std::move(content)});
    return set;
  }
  set.root = source;
  set.is_directory = true;
  std::vector<std::string> paths;
  for (fs::recursive_directory_iterator it(source, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file(ec) && IsManifest(it->path())) paths.push_back(it->path().string());
  }
  if (ec)
    return kube::Status(kube::StatusCode::kNotFound, "cannot list " + source + ": " + ec.message());
  std::sort(paths.begin(), paths.end());
  for (const auto& path : paths) {
    std::string content;
    KUBE_ASSIGN_OR_RETURN(content, Slurp(path));
    set.files.push_back({path, std::move(content)});
  }
  return set;
}

std::string InputSet::Relative(const std::string& file) const {
  if (!is_directory) return fs::path(file).filename().string();
  return fs::path(file).lexically_relative(root).string();
}

}  // namespace dra::translate
