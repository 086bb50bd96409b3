// A small, dependency-free driver for libFuzzer-style targets
// (LLVMFuzzerTestOneInput), so fuzz targets build with g++ and run under
// CTest for a bounded time: every file of the corpus directories is replayed,
// then random mutations of corpus entries run until the time budget is spent.
// A crash aborts the process (the test fails); the input that caused it is
// written to ./fuzz-crash-<target> first so it can be replayed.
//
//   TARGET [--seconds=N] [--seed=S] [CORPUS_DIR_OR_FILE...]
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

std::string g_current;
std::string g_crash_file;

void SaveCurrentAndDie(int sig) {
  if (FILE* f = std::fopen(g_crash_file.c_str(), "wb")) {
    std::fwrite(g_current.data(), 1, g_current.size(), f);
    std::fclose(f);
  }
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

void Run(const std::string& input) {
  g_current = input;
  LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(input.data()), input.size());
}

std::vector<std::string> LoadCorpus(const std::vector<std::string>& paths) {
  std::vector<std::string> corpus;
  auto load = [&](const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    corpus.push_back(ss.str());
  };
  for (const auto& path : paths) {
    if (std::filesystem::is_directory(path)) {
      for (const auto& entry : std::filesystem::recursive_directory_iterator(path)) {
        if (entry.is_regular_file()) load(entry.path());
      }
    } else if (std::filesystem::exists(path)) {
      load(path);
    }
  }
  if (corpus.empty()) corpus.push_back("");
  return corpus;
}

std::string Mutate(std::string s, const std::vector<std::string>& corpus, std::mt19937_64& rng) {
  int rounds = 1 + static_cast<int>(rng() % 8);
  for (int r = 0; r < rounds; ++r) {
    size_t pos = s.empty() ? 0 : rng() % (s.size() + 1);
    switch (rng() % 7) {
      case 0:  // flip a bit
        if (!s.empty()) s[pos % s.size()] ^= static_cast<char>(1u << (rng() % 8));
        break;
      case 1:  // random byte
        s.insert(pos, 1, static_cast<char>(rng() % 256));
        break;
      case 2:  // delete a run
        if (!s.empty()) s.erase(pos % s.size(), 1 + rng() % 16);
        break;
      case 3: {  // splice a piece of another input
        const std::string& other = corpus[rng() % corpus.size()];
        if (!other.empty()) {
          size_t from = rng() % other.size();
          s.insert(pos, other.substr(from, 1 + rng() % 64));
        }
        break;
      }
      case 4: {  // characters that matter to text formats
        static constexpr char kSpecial[] = "{}[]\":,\n\\'`.()=!<>&|?0-9eE+ \t\r\x00\xff";
        s.insert(pos, 1, kSpecial[rng() % (sizeof(kSpecial) - 1)]);
        break;
      }
      case 5:  // truncate
        s.resize(pos);
        break;
      default:  // duplicate a run
        if (!s.empty()) {
          size_t from = rng() % s.size();
          s.insert(pos, s.substr(from, 1 + rng() % 32));
        }
        break;
    }
  }
  if (s.size() > 1 << 16) s.resize(1 << 16);
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  double seconds = 10;
  uint64_t seed = 1;
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--seconds=", 0) == 0) {
      seconds = std::stod(arg.substr(10));
    } else if (arg.rfind("--seed=", 0) == 0) {
      seed = std::stoull(arg.substr(7));
    } else {
      paths.push_back(arg);
    }
  }
  std::string name = std::filesystem::path(argv[0]).filename().string();
  g_crash_file = "fuzz-crash-" + name;
  for (int sig : {SIGSEGV, SIGABRT, SIGFPE, SIGBUS, SIGILL}) std::signal(sig, SaveCurrentAndDie);

  std::vector<std::string> corpus = LoadCorpus(paths);
  for (const auto& input : corpus) Run(input);

  std::mt19937_64 rng(seed);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  uint64_t executions = corpus.size();
  while (std::chrono::steady_clock::now() < deadline) {
    for (int batch = 0; batch < 64; ++batch, ++executions) {
      Run(Mutate(corpus[rng() % corpus.size()], corpus, rng));
    }
  }
  std::cout << name << ": " << executions << " inputs (" << corpus.size()
            << " from the corpus), seed " << seed << ", no crash\n";
  return 0;
}
