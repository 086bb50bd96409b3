#include "src/http/TlsMaterialSource.h"

#include <sys/stat.h>

#include <fstream>
#include <sstream>

namespace kube {
namespace {

bool ReadFile(const std::string& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::stringstream ss;
  ss << in.rdbuf();
  *out = ss.str();
  return true;
}

}  // namespace

Result<std::shared_ptr<TlsMaterialSource>> TlsMaterialSource::FromConfig(const RestConfig& config) {
  auto material = TlsMaterial::FromConfig(config);
  if (!material.ok()) return material.status();
  auto source = std::make_shared<TlsMaterialSource>();
  source->config_.ca_pem = config.ca_pem;
  source->config_.client_cert_pem = config.client_cert_pem;
  source->config_.client_key_pem = config.client_key_pem;
  source->config_.client_cert_file = config.client_cert_file;
  source->config_.client_key_file = config.client_key_file;
  source->current_ = *material;
  if (!config.client_cert_file.empty() && !config.client_key_file.empty()) {
    source->cert_stamp_ = Stamp(config.client_cert_file);
    source->key_stamp_ = Stamp(config.client_key_file);
  }
  return source;
}

std::shared_ptr<const TlsMaterial> TlsMaterialSource::Current() {
  std::lock_guard lock(mu_);
  if (!config_.client_cert_file.empty() && !config_.client_key_file.empty()) Reload();
  return current_;
}

TlsMaterialSource::FileStamp TlsMaterialSource::Stamp(const std::string& path) {
  FileStamp stamp;
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return stamp;
  stamp.mtime = st.st_mtim;
  stamp.inode = st.st_ino;
  stamp.size = st.st_size;
  return stamp;
}

bool TlsMaterialSource::FilesChanged(FileStamp* cert, FileStamp* key) const {
  *cert = Stamp(config_.client_cert_file);
  *key = Stamp(config_.client_key_file);
  return !(*cert == cert_stamp_) || !(*key == key_stamp_);
}

void TlsMaterialSource::Reload() {
  FileStamp cert, key;
  if (!FilesChanged(&cert, &key)) return;
  RestConfig next = config_;
  if (!ReadFile(config_.client_cert_file, &next.client_cert_pem) ||
      !ReadFile(config_.client_key_file, &next.client_key_pem)) {
    return;
  }
  auto material = TlsMaterial::FromConfig(next);
  if (!material.ok()) return;  // retried on the next connection, once the files settle
  current_ = *material;
  cert_stamp_ = cert;
  key_stamp_ = key;
}

}  // namespace kube
