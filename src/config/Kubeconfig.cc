#include "src/config/Kubeconfig.h"

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "src/base/Base64.h"

namespace kube {
namespace {

Status ParseError(const std::string& what) { return Status(StatusCode::kParseError, what); }

Result<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status(StatusCode::kNotFound, "cannot open " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string Resolve(const std::string& path, const std::string& base_dir) {
  if (path.empty() || base_dir.empty() || std::filesystem::path(path).is_absolute()) return path;
  return (std::filesystem::path(base_dir) / path).string();
}

// Reads node[key] as a string; a missing key or null gives "".
Result<std::string> Str(const YAML::Node& node, const char* key) {
  YAML::Node v = node[key];
  if (!v || v.IsNull()) return std::string();
  if (!v.IsScalar()) return ParseError(std::string("field '") + key + "' must be a string");
  return v.Scalar();
}

Result<bool> Bool(const YAML::Node& node, const char* key) {
  YAML::Node v = node[key];
  if (!v || v.IsNull()) return false;
  if (!v.IsScalar()) return ParseError(std::string("field '") + key + "' must be a boolean");
  const std::string& s = v.Scalar();
  if (s == "true" || s == "True" || s == "TRUE") return true;
  if (s == "false" || s == "False" || s == "FALSE") return false;
  return ParseError(std::string("field '") + key + "' must be true or false, got '" + s + "'");
}

Result<std::string> Data(const YAML::Node& node, const char* key) {
  auto raw = Str(node, key);
  if (!raw.ok() || raw->empty()) return raw;
  auto decoded = Base64Decode(*raw);
  if (!decoded.ok()) return decoded.status().WithContext(key);
  return decoded;
}

Result<Kubeconfig::Cluster> ParseCluster(const YAML::Node& n, const std::string& base_dir) {
  Kubeconfig::Cluster c;
  KUBE_ASSIGN_OR_RETURN(c.server, Str(n, "server"));
  KUBE_ASSIGN_OR_RETURN(c.ca_file, Str(n, "certificate-authority"));
  c.ca_file = Resolve(c.ca_file, base_dir);
  KUBE_ASSIGN_OR_RETURN(c.ca_data, Data(n, "certificate-authority-data"));
  KUBE_ASSIGN_OR_RETURN(c.insecure_skip_tls_verify, Bool(n, "insecure-skip-tls-verify"));
  KUBE_ASSIGN_OR_RETURN(c.tls_server_name, Str(n, "tls-server-name"));
  KUBE_ASSIGN_OR_RETURN(c.proxy_url, Str(n, "proxy-url"));
  return c;
}

Result<std::vector<std::string>> StrList(const YAML::Node& node, const char* key) {
  YAML::Node v = node[key];
  std::vector<std::string> out;
  if (!v || v.IsNull()) return out;
  if (!v.IsSequence()) return ParseError(std::string("field '") + key + "' must be a list");
  for (const auto& item : v) {
    if (!item.IsScalar()) return ParseError(std::string("'") + key + "' must list strings");
    out.push_back(item.Scalar());
  }
  return out;
}

// as-user-extra: {key: [values]}.
Result<std::map<std::string, std::vector<std::string>>> Extra(const YAML::Node& node) {
  YAML::Node v = node["as-user-extra"];
  std::map<std::string, std::vector<std::string>> out;
  if (!v || v.IsNull()) return out;
  if (!v.IsMap()) return ParseError("field 'as-user-extra' must be a mapping");
  for (const auto& entry : v) {
    YAML::Node holder;
    holder["values"] = entry.second;
    auto values = StrList(holder, "values");
    if (!values.ok()) return values.status().WithContext("as-user-extra");
    out[entry.first.as<std::string>()] = std::move(*values);
  }
  return out;
}

Result<Impersonation> ParseImpersonation(const YAML::Node& n) {
  Impersonation as;
  KUBE_ASSIGN_OR_RETURN(as.user, Str(n, "as"));
  KUBE_ASSIGN_OR_RETURN(as.uid, Str(n, "as-uid"));
  KUBE_ASSIGN_OR_RETURN(as.groups, StrList(n, "as-groups"));
  KUBE_ASSIGN_OR_RETURN(as.extra, Extra(n));
  return as;
}

Result<Kubeconfig::User> ParseUser(const YAML::Node& n, const std::string& base_dir) {
  Kubeconfig::User u;
  KUBE_ASSIGN_OR_RETURN(u.client_cert_file, Str(n, "client-certificate"));
  u.client_cert_file = Resolve(u.client_cert_file, base_dir);
  KUBE_ASSIGN_OR_RETURN(u.client_cert_data, Data(n, "client-certificate-data"));
  KUBE_ASSIGN_OR_RETURN(u.client_key_file, Str(n, "client-key"));
  u.client_key_file = Resolve(u.client_key_file, base_dir);
  KUBE_ASSIGN_OR_RETURN(u.client_key_data, Data(n, "client-key-data"));
  KUBE_ASSIGN_OR_RETURN(u.token, Str(n, "token"));
  KUBE_ASSIGN_OR_RETURN(u.token_file, Str(n, "tokenFile"));
  u.token_file = Resolve(u.token_file, base_dir);
  KUBE_ASSIGN_OR_RETURN(u.impersonate, ParseImpersonation(n));
  if (n["exec"] && !n["exec"].IsNull()) u.unsupported = "exec credential plugins";
  if (n["auth-provider"] && !n["auth-provider"].IsNull()) u.unsupported = "auth-provider plugins";
  if (n["username"] && !n["username"].IsNull()) u.unsupported = "basic authentication";
  return u;
}

Result<Kubeconfig::Context> ParseContext(const YAML::Node& n) {
  Kubeconfig::Context c;
  KUBE_ASSIGN_OR_RETURN(c.cluster, Str(n, "cluster"));
  KUBE_ASSIGN_OR_RETURN(c.user, Str(n, "user"));
  KUBE_ASSIGN_OR_RETURN(c.namespace_name, Str(n, "namespace"));
  return c;
}

// Parses a list of {name: X, <field>: {...}} entries into `out`.
template <typename T, typename ParseFn>
Status ParseNamedList(const YAML::Node& root, const char* list, const char* field, ParseFn parse,
                      std::map<std::string, T>& out) {
  YAML::Node items = root[list];
  if (!items || items.IsNull()) return Status::Ok();
  if (!items.IsSequence()) return ParseError(std::string("'") + list + "' must be a list");
  for (size_t i = 0; i < items.size(); ++i) {
    std::string where = std::string(list) + "[" + std::to_string(i) + "]";
    if (!items[i].IsMap()) return ParseError(where + " must be a mapping");
    auto name = Str(items[i], "name");
    if (!name.ok()) return name.status().WithContext(where);
    if (name->empty()) return ParseError(where + " has no name");
    YAML::Node body = items[i][field];
    if (!body || !body.IsMap())
      return ParseError(where + " (" + *name + ") has no '" + field + "'");
    auto parsed = parse(body);
    if (!parsed.ok()) return parsed.status().WithContext(where + " (" + *name + ")");
    out.emplace(*name, std::move(*parsed));  // first definition wins
  }
  return Status::Ok();
}

Result<std::string> Pem(const std::string& data, const std::string& file, const char* what) {
  if (!data.empty()) return data;
  if (file.empty()) return std::string();
  auto content = ReadFile(file);
  if (!content.ok()) return content.status().WithContext(what);
  return content;
}

}  // namespace

Result<Kubeconfig> Kubeconfig::Parse(std::string_view yaml, const std::string& base_dir) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(yaml));
  } catch (const YAML::Exception& e) {
    return ParseError("invalid YAML at line " + std::to_string(e.mark.line + 1) + ", column " +
                      std::to_string(e.mark.column + 1) + ": " + e.msg);
  }
  if (!root.IsMap()) return ParseError("a kubeconfig must be a YAML mapping");
  Kubeconfig kc;
  try {
    auto current = Str(root, "current-context");
    if (!current.ok()) return current.status();
    kc.current_context_ = *current;
    auto cluster = [&](const YAML::Node& n) { return ParseCluster(n, base_dir); };
    auto user = [&](const YAML::Node& n) { return ParseUser(n, base_dir); };
    Status s = ParseNamedList(root, "clusters", "cluster", cluster, kc.clusters_);
    if (s.ok()) s = ParseNamedList(root, "users", "user", user, kc.users_);
    if (s.ok()) s = ParseNamedList(root, "contexts", "context", ParseContext, kc.contexts_);
    if (!s.ok()) return s;
  } catch (const YAML::Exception& e) {
    return ParseError(std::string("unexpected kubeconfig structure: ") + e.what());
  }
  return kc;
}

Result<Kubeconfig> Kubeconfig::LoadFile(const std::string& path) {
  auto content = ReadFile(path);
  if (!content.ok()) return content.status().WithContext("kubeconfig");
  auto parsed = Parse(*content, std::filesystem::path(path).parent_path().string());
  if (!parsed.ok()) return parsed.status().WithContext("kubeconfig " + path);
  parsed->origin_ = path;
  return parsed;
}

Result<Kubeconfig> Kubeconfig::LoadFiles(const std::vector<std::string>& paths) {
  std::optional<Kubeconfig> merged;
  for (const auto& path : paths) {
    if (path.empty()) continue;
    auto one = LoadFile(path);
    if (!one.ok()) return one.status();
    if (merged) {
      merged->MergeFrom(*one);
    } else {
      merged = std::move(*one);
    }
  }
  if (!merged) return Status(StatusCode::kInvalidArgument, "no kubeconfig file given");
  return *merged;
}

void Kubeconfig::MergeFrom(const Kubeconfig& later) {
  clusters_.insert(later.clusters_.begin(), later.clusters_.end());
  users_.insert(later.users_.begin(), later.users_.end());
  contexts_.insert(later.contexts_.begin(), later.contexts_.end());
  if (current_context_.empty()) current_context_ = later.current_context_;
  origin_ += ":" + later.origin_;
}

Result<RestConfig> Kubeconfig::ToRestConfig(std::string_view context) const {
  std::string name(context.empty() ? current_context_ : context);
  if (name.empty()) {
    return Status(StatusCode::kInvalidArgument,
                  "kubeconfig " + origin_ + " has no current-context");
  }
  auto ctx = contexts_.find(name);
  if (ctx == contexts_.end()) {
    return Status(StatusCode::kNotFound, "context \"" + name + "\" not found in " + origin_);
  }
  auto cluster = clusters_.find(ctx->second.cluster);
  if (cluster == clusters_.end()) {
    return Status(StatusCode::kNotFound, "cluster \"" + ctx->second.cluster + "\" of context \"" +
                                             name + "\" not found in " + origin_);
  }
  if (cluster->second.server.empty()) {
    return Status(StatusCode::kInvalidArgument, "cluster \"" + cluster->first + "\" has no server");
  }
  if (!cluster->second.proxy_url.empty()) {
    return Status(StatusCode::kInvalidArgument,
                  "cluster \"" + cluster->first +
                      "\" sets proxy-url, which this client does not support yet; reach the "
                      "API server directly");
  }
  RestConfig config;
  config.server = cluster->second.server;
  while (!config.server.empty() && config.server.back() == '/') config.server.pop_back();
  config.insecure_skip_tls_verify = cluster->second.insecure_skip_tls_verify;
  config.tls_server_name = cluster->second.tls_server_name;
  config.namespace_name =
      ctx->second.namespace_name.empty() ? "default" : ctx->second.namespace_name;
  config.source = "kubeconfig " + origin_ + " (context " + name + ")";
  KUBE_ASSIGN_OR_RETURN(config.ca_pem, Pem(cluster->second.ca_data, cluster->second.ca_file,
                                           "certificate-authority"));
  if (config.insecure_skip_tls_verify && !config.ca_pem.empty()) {
    // client-go refuses this too: which of the two was meant is unknowable.
    return Status(StatusCode::kInvalidArgument,
                  "cluster \"" + cluster->first +
                      "\" sets both insecure-skip-tls-verify and a certificate-authority; "
                      "specifying a root certificate with the insecure flag is not allowed");
  }
  if (ctx->second.user.empty()) return config;
  auto user = users_.find(ctx->second.user);
  if (user == users_.end()) {
    return Status(StatusCode::kNotFound, "user \"" + ctx->second.user + "\" of context \"" + name +
                                             "\" not found in " + origin_);
  }
  const User& u = user->second;
  if (!u.unsupported.empty()) {
    return Status(StatusCode::kInvalidArgument,
                  "user \"" + user->first + "\" uses " + u.unsupported +
                      ", which this client does not support yet; use a client certificate, a "
                      "token, or a tokenFile");
  }
  KUBE_ASSIGN_OR_RETURN(config.client_cert_pem,
                        Pem(u.client_cert_data, u.client_cert_file, "client-certificate"));
  KUBE_ASSIGN_OR_RETURN(config.client_key_pem,
                        Pem(u.client_key_data, u.client_key_file, "client-key"));
  if (u.client_cert_data.empty() && u.client_key_data.empty()) {
    config.client_cert_file = u.client_cert_file;  // re-read on rotation
    config.client_key_file = u.client_key_file;
  }
  config.impersonate = u.impersonate;
  if (config.client_cert_pem.empty() != config.client_key_pem.empty()) {
    return Status(
        StatusCode::kInvalidArgument,
        "user \"" + user->first + "\" sets a client certificate without a key or vice versa");
  }
  if (!u.token.empty()) {
    config.token = TokenSource::Static(u.token);
  } else if (!u.token_file.empty()) {
    config.token = TokenSource::FromFile(u.token_file);
  }
  return config;
}

}  // namespace kube
