#include "tests/support/Subprocess.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

extern char** environ;

namespace dra::testing {
namespace {

// A temporary file removed when it goes out of scope; stdout/stderr go through
// files rather than pipes so a chatty child can never block on a full pipe.
class TempFile {
 public:
  explicit TempFile(const std::string& content = "") {
    std::string tmpl = (std::filesystem::temp_directory_path() / "dra-test-XXXXXX").string();
    int fd = mkstemp(tmpl.data());
    if (fd >= 0) {
      if (!content.empty() && write(fd, content.data(), content.size()) < 0) path_.clear();
      close(fd);
      path_ = tmpl;
    }
  }
  ~TempFile() {
    if (!path_.empty()) unlink(path_.c_str());
  }
  const std::string& path() const { return path_; }
  std::string Read() const {
    std::ifstream in(path_);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }

 private:
  std::string path_;
};

int WaitWithDeadline(pid_t pid, std::chrono::seconds timeout, bool* timed_out) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      *timed_out = true;
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

kube::Result<ProcessOutput> Subprocess::Run(const std::vector<std::string>& argv,
                                            const std::string& stdin_data,
                                            std::chrono::seconds timeout) {
  if (argv.empty()) return kube::Status(kube::StatusCode::kInvalidArgument, "empty argv");
  TempFile in(stdin_data), out, err;
  if (in.path().empty() || out.path().empty() || err.path().empty()) {
    return kube::Status(kube::StatusCode::kInternal, "cannot create temporary files");
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, in.path().c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, out.path().c_str(), O_WRONLY | O_TRUNC, 0);
  posix_spawn_file_actions_addopen(&actions, 2, err.path().c_str(), O_WRONLY | O_TRUNC, 0);
  std::vector<char*> cargv;
  for (const auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, cargv[0], &actions, nullptr, cargv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    return kube::Status(kube::StatusCode::kNotFound,
                        "cannot start " + argv[0] + ": " + std::strerror(rc));
  }
  bool timed_out = false;
  ProcessOutput result;
  result.exit_code = WaitWithDeadline(pid, timeout, &timed_out);
  if (timed_out) {
    return kube::Status(kube::StatusCode::kTimeout, argv[0] + " did not finish within " +
                                                        std::to_string(timeout.count()) + "s");
  }
  result.out = out.Read();
  result.err = err.Read();
  return result;
}

}  // namespace dra::testing
