#include "tests/support/BackgroundProcess.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

extern char** environ;

namespace dra::testing {

kube::Result<std::unique_ptr<BackgroundProcess>> BackgroundProcess::Start(
    const std::vector<std::string>& argv, Options options) {
  std::unique_ptr<BackgroundProcess> process(new BackgroundProcess());
  process->group_leader_ = options.new_process_group;
  process->output_path_ = process->dir_.Write("output", "");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, process->output_path_.c_str(), O_WRONLY | O_APPEND,
                                   0);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  std::vector<char*> cargv;
  for (const auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  if (options.new_process_group) {
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);
  }
  int rc = posix_spawnp(&process->pid_, cargv[0], &actions, &attributes, cargv.data(), environ);
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    return kube::Status(kube::StatusCode::kNotFound,
                        "cannot start " + argv[0] + ": " + std::strerror(rc));
  }
  return process;
}

BackgroundProcess::~BackgroundProcess() {
  if (Running()) {
    if (group_leader_) SignalGroup(SIGKILL);
    Signal(SIGKILL);
    Wait(std::chrono::seconds(10));
  }
}

std::string BackgroundProcess::Output() const {
  std::ifstream in(output_path_);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void BackgroundProcess::Signal(int signal) const {
  if (pid_ > 0) kill(pid_, signal);
}

void BackgroundProcess::SignalGroup(int signal) const {
  if (pid_ > 0 && group_leader_) kill(-pid_, signal);
}

bool BackgroundProcess::Running() {
  if (exit_code_ || pid_ <= 0) return false;
  int status = 0;
  if (waitpid(pid_, &status, WNOHANG) == pid_) {
    exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return false;
  }
  return true;
}

std::optional<int> BackgroundProcess::Wait(std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (Running()) {
    if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return exit_code_;
}

}  // namespace dra::testing
