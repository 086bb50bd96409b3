#include "tests/support/TestCertificates.h"

#include <fstream>

#include "tests/support/Subprocess.h"

namespace dra::testing {
namespace {

kube::Status Openssl(std::vector<std::string> args) {
  args.insert(args.begin(), "openssl");
  auto run = Subprocess::Run(args);
  if (!run.ok()) return run.status();
  if (run->exit_code != 0) {
    return kube::Status(kube::StatusCode::kInternal, "openssl " + args[1] + ": " + run->err);
  }
  return kube::Status::Ok();
}

const std::vector<std::string> kEcKey = {"-newkey", "ec", "-pkeyopt",
                                         "ec_paramgen_curve:prime256v1", "-nodes"};

}  // namespace

kube::Result<TestCertificates::Pair> TestCertificates::MakeCa(const std::string& name) {
  Pair ca{dir_ + "/" + name + ".crt", dir_ + "/" + name + ".key"};
  std::vector<std::string> args = {"req", "-x509"};
  args.insert(args.end(), kEcKey.begin(), kEcKey.end());
  args.insert(args.end(),
              {"-keyout", ca.key, "-out", ca.cert, "-days", "2", "-subj", "/CN=" + name});
  if (auto s = Openssl(args); !s.ok()) return s;
  return ca;
}

kube::Result<TestCertificates::Pair> TestCertificates::MakeLeaf(const Pair& ca,
                                                                const std::string& name,
                                                                const std::string& cn,
                                                                const std::string& san) {
  Pair leaf{dir_ + "/" + name + ".crt", dir_ + "/" + name + ".key"};
  std::string csr = dir_ + "/" + name + ".csr";
  std::string ext = dir_ + "/" + name + ".ext";
  std::string usage = san.empty()     ? "extendedKeyUsage=clientAuth\n"
                      : san == kNoSan ? "extendedKeyUsage=serverAuth\n"
                                      : "extendedKeyUsage=serverAuth\nsubjectAltName=" + san + "\n";
  std::ofstream(ext) << "basicConstraints=CA:FALSE\n" << usage;
  std::vector<std::string> req = {"req"};
  req.insert(req.end(), kEcKey.begin(), kEcKey.end());
  req.insert(req.end(), {"-keyout", leaf.key, "-out", csr, "-subj", "/CN=" + cn});
  if (auto s = Openssl(req); !s.ok()) return s;
  if (auto s = Openssl({"x509", "-req", "-in", csr, "-CA", ca.cert, "-CAkey", ca.key,
                        "-CAcreateserial", "-out", leaf.cert, "-days", "2", "-extfile", ext});
      !s.ok())
    return s;
  return leaf;
}

}  // namespace dra::testing
