#include <gtest/gtest.h>

#include <filesystem>

#include "src/config/TokenSource.h"
#include "tests/support/TempDir.h"

namespace kube {
namespace {

using dra::testing::TempDir;

TEST(TokenSourceTest, StaticTokenIsTrimmed) {
  EXPECT_EQ(*TokenSource::Static(" t0k3n\n")->Token(), "t0k3n");
}

TEST(TokenSourceTest, RereadsFileAfterRotation) {
  TempDir dir;
  std::string path = dir.Write("token", "first\n");
  auto source = TokenSource::FromFile(path);
  EXPECT_EQ(*source->Token(), "first");
  // The kubelet rotates projected tokens by swapping the file in atomically.
  std::string next = dir.Write("token.new", "second-token\n");
  std::filesystem::rename(next, path);
  EXPECT_EQ(*source->Token(), "second-token");
}

TEST(TokenSourceTest, KeepsLastGoodTokenWhileFileIsMissing) {
  TempDir dir;
  std::string path = dir.Write("token", "good");
  auto source = TokenSource::FromFile(path);
  ASSERT_EQ(*source->Token(), "good");
  std::filesystem::remove(path);
  EXPECT_EQ(*source->Token(), "good");
}

TEST(TokenSourceTest, MissingFileWithoutPriorTokenIsUnauthorized) {
  auto token = TokenSource::FromFile("/nonexistent/token")->Token();
  ASSERT_FALSE(token.ok());
  EXPECT_EQ(token.status().code(), StatusCode::kUnauthorized);
  EXPECT_NE(token.status().message().find("/nonexistent/token"), std::string::npos);
}

TEST(TokenSourceTest, EmptyFileIsAnError) {
  TempDir dir;
  EXPECT_FALSE(TokenSource::FromFile(dir.Write("token", "\n"))->Token().ok());
}

}  // namespace
}  // namespace kube
