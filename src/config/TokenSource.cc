#include "src/config/TokenSource.h"

#include <sys/stat.h>

#include <cerrno>
#include <fstream>
#include <sstream>
#include <system_error>

namespace kube {
namespace {

std::string Trim(std::string s) {
  auto is_space = [](char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; };
  while (!s.empty() && is_space(s.back())) s.pop_back();
  size_t start = 0;
  while (start < s.size() && is_space(s[start])) ++start;
  return s.substr(start);
}

}  // namespace

std::shared_ptr<TokenSource> TokenSource::Static(std::string token) {
  std::shared_ptr<TokenSource> source(new TokenSource());
  source->token_ = Trim(std::move(token));
  return source;
}

std::shared_ptr<TokenSource> TokenSource::FromFile(std::string path) {
  std::shared_ptr<TokenSource> source(new TokenSource());
  source->path_ = std::move(path);
  return source;
}

Result<std::string> TokenSource::Token() {
  std::lock_guard lock(mu_);
  if (path_.empty()) return token_;
  struct stat st {};
  if (stat(path_.c_str(), &st) != 0) {
    if (!token_.empty()) return token_;  // keep the last good token through a rotation gap
    return Status(StatusCode::kUnauthorized, "cannot read token file " + path_ + ": " +
                                                 std::generic_category().message(errno));
  }
  bool changed = st.st_mtim.tv_sec != mtime_.tv_sec || st.st_mtim.tv_nsec != mtime_.tv_nsec ||
                 st.st_ino != inode_ || st.st_size != size_;
  if (!changed) return token_;
  std::ifstream in(path_);
  std::stringstream content;
  content << in.rdbuf();
  std::string token = Trim(content.str());
  if (!in || token.empty()) {
    if (!token_.empty()) return token_;
    return Status(StatusCode::kUnauthorized, "token file " + path_ + " is empty or unreadable");
  }
  token_ = std::move(token);
  mtime_ = st.st_mtim;
  inode_ = st.st_ino;
  size_ = st.st_size;
  return token_;
}

}  // namespace kube
