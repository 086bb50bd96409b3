#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace dra::translate::testdata {

// tests/controller/translate/testdata. __FILE__ is relative to the build
// directory when Ninja compiles with relative paths; unit_tests lives in
// <build>/tests/, so that directory is found from the executable.
inline std::filesystem::path Dir() {
  std::filesystem::path here(__FILE__);
  if (here.is_relative()) {
    std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe");
    here = exe.parent_path().parent_path() / here;
  }
  return std::filesystem::weakly_canonical(here.parent_path() / "testdata");
}

inline std::string Read(const std::string& name) {
  std::ifstream in(Dir() / name, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace dra::translate::testdata
