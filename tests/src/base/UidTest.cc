#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <unordered_set>

#include "src/base/Uid.h"

namespace kube {
namespace {

constexpr char kCanonical[] = "5c4d3e2f-1234-4f00-8e00-00000000002a";

TEST(UidTest, CanonicalUuidReadsBackExactly) {
  Uid uid(kCanonical);
  EXPECT_EQ(uid.str(), kCanonical);
  EXPECT_FALSE(uid.empty());
  EXPECT_TRUE(uid == kCanonical);
  EXPECT_TRUE(uid == std::string(kCanonical));
  EXPECT_FALSE(uid == "5c4d3e2f-1234-4f00-8e00-00000000002b");
}

TEST(UidTest, OtherTextsAreKeptAsWritten) {
  const std::string texts[] = {"uid-1",
                               "5C4D3E2F-1234-4F00-8E00-00000000002A",
                               "00000000-0000-0000-0000-000000000000",
                               "ffffffff-ffff-ffff-0000-000000000001",
                               "5c4d3e2f-1234-4f00-8e00-00000000002",
                               "5c4d3e2f_1234-4f00-8e00-00000000002a",
                               "5c4d3e2f-1234-4f00-8e00-00000000002g",
                               std::string("a\0b", 3)};
  for (const std::string& text : texts) {
    Uid uid(text);
    EXPECT_EQ(uid.str(), text);
    EXPECT_TRUE(uid == text);
    EXPECT_FALSE(uid.empty());
  }
}

TEST(UidTest, EmptyIsTheDefault) {
  EXPECT_TRUE(Uid().empty());
  EXPECT_TRUE(Uid("").empty());
  EXPECT_EQ(Uid().str(), "");
  EXPECT_TRUE(Uid() == "");
  EXPECT_TRUE(Uid() == Uid(""));
}

TEST(UidTest, EqualityComparesTexts) {
  EXPECT_EQ(Uid(kCanonical), Uid(std::string(kCanonical)));
  EXPECT_NE(Uid(kCanonical), Uid("5C4D3E2F-1234-4F00-8E00-00000000002A"));
  EXPECT_NE(Uid(kCanonical), Uid());
  EXPECT_EQ(Uid("uid-1"), Uid("uid-1"));
  EXPECT_NE(Uid("uid-1"), Uid("uid-2"));
  // A binary UUID never equals a non-canonical text, even one of the same digits.
  EXPECT_FALSE(Uid(kCanonical) == "5C4D3E2F-1234-4F00-8E00-00000000002A");
}

TEST(UidTest, ConcatenatesAndPrintsAsText) {
  Uid uid(kCanonical);
  EXPECT_EQ("UID " + uid + ".", std::string("UID ") + kCanonical + ".");
  EXPECT_EQ(std::string("owner ") + uid, std::string("owner ") + kCanonical);
  std::ostringstream out;
  out << uid << " " << Uid("uid-1");
  EXPECT_EQ(out.str(), std::string(kCanonical) + " uid-1");
}

TEST(UidTest, HashesAgreeWithEquality) {
  std::unordered_set<Uid> uids = {Uid(kCanonical), Uid("uid-1")};
  EXPECT_TRUE(uids.contains(Uid(std::string(kCanonical))));
  EXPECT_TRUE(uids.contains(Uid("uid-1")));
  EXPECT_FALSE(uids.contains(Uid("uid-2")));
  EXPECT_FALSE(uids.contains(Uid("5c4d3e2f-1234-4f00-8e00-00000000002b")));
  EXPECT_EQ(Uid(kCanonical).Hash(), Uid(std::string(kCanonical)).Hash());
}

TEST(UidTest, IsTheSizeOfAUuid) { EXPECT_EQ(sizeof(Uid), 16u); }

TEST(UidTest, CopiesAndMovesKeepTheText) {
  for (const char* text : {kCanonical, "not-a-uuid", "ffffffff-ffff-ffff-0000-000000000001", ""}) {
    Uid original(text);
    Uid copy(original);
    EXPECT_EQ(copy, original) << text;
    Uid moved(std::move(copy));
    EXPECT_EQ(moved.str(), text);
    Uid assigned;
    assigned = moved;
    EXPECT_EQ(assigned.str(), text);
    assigned = Uid(kCanonical);  // text to binary and back
    EXPECT_EQ(assigned.str(), kCanonical);
    assigned = Uid("other");
    EXPECT_EQ(assigned.str(), "other");
    Uid& self = assigned;
    assigned = self;
    EXPECT_EQ(assigned.str(), "other");
  }
}

}  // namespace
}  // namespace kube
