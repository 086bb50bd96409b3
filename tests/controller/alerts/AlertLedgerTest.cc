#include <gtest/gtest.h>

#include "controller/alerts/AlertLedger.h"

namespace dra::alerts {
namespace {

using News = AlertLedger::News;

GpuAlert News1(const std::string& fingerprint, bool firing, int64_t at,
               api::HealthState state = api::HealthState::kUnhealthy) {
  GpuAlert alert;
  alert.health_name = "alert-gpu-1";
  alert.uuid = "GPU-1";
  alert.fingerprint = fingerprint;
  alert.firing = firing;
  alert.at_ms = at;
  alert.state = state;
  alert.reason = "Reason" + fingerprint;
  alert.message = "message of " + fingerprint;
  return alert;
}

TEST(AlertLedgerTest, FiringMakesUnhealthyAndResolvedMakesHealthy) {
  AlertLedger ledger;
  EXPECT_EQ(ledger.Current().state, api::HealthState::kHealthy);
  EXPECT_EQ(ledger.Record(News1("a", true, 100)), News::kRecorded);
  EXPECT_EQ(ledger.Current().state, api::HealthState::kUnhealthy);
  EXPECT_EQ(ledger.Current().reason, "Reasona");
  EXPECT_EQ(ledger.Current().message, "message of a");
  EXPECT_EQ(ledger.Record(News1("a", false, 200)), News::kRecorded);
  EXPECT_EQ(ledger.Current().state, api::HealthState::kHealthy);
  EXPECT_EQ(ledger.Current().reason, "AlertsResolved");
}

TEST(AlertLedgerTest, RepeatsAndLateNotificationsChangeNothing) {
  AlertLedger ledger;
  ASSERT_EQ(ledger.Record(News1("a", true, 100)), News::kRecorded);
  EXPECT_EQ(ledger.Record(News1("a", true, 100)), News::kRepeat);
  ASSERT_EQ(ledger.Record(News1("a", false, 200)), News::kRecorded);
  // The firing notification delivered after the resolved one.
  EXPECT_EQ(ledger.Record(News1("a", true, 100)), News::kStale);
  EXPECT_EQ(ledger.Current().state, api::HealthState::kHealthy);
  // It fires again later: news.
  EXPECT_EQ(ledger.Record(News1("a", true, 300)), News::kRecorded);
  EXPECT_EQ(ledger.Current().state, api::HealthState::kUnhealthy);
}

TEST(AlertLedgerTest, OneResolvedAlertLeavesTheOthersFiring) {
  AlertLedger ledger;
  ledger.Record(News1("xid", true, 100));
  ledger.Record(News1("ecc", true, 150));
  ledger.Record(News1("xid", false, 200));
  EXPECT_EQ(ledger.Current().state, api::HealthState::kUnhealthy);
  EXPECT_EQ(ledger.Current().reason, "Reasonecc");
}

TEST(AlertLedgerTest, TheWorstFiringStateWins) {
  AlertLedger ledger;
  ledger.Record(News1("u", true, 100, api::HealthState::kUnknown));
  ledger.Record(News1("d", true, 300, api::HealthState::kDegraded));
  EXPECT_EQ(ledger.Current().state, api::HealthState::kUnknown);
  ledger.Record(News1("x", true, 200, api::HealthState::kUnhealthy));
  EXPECT_EQ(ledger.Current().state, api::HealthState::kUnhealthy);
  EXPECT_EQ(ledger.Current().reason, "Reasonx");
}

TEST(AlertLedgerTest, RoundTripsThroughItsAnnotation) {
  AlertLedger ledger;
  ledger.Record(News1("a", true, 100));
  ledger.Record(News1("b", false, 200, api::HealthState::kUnknown));
  auto copy = AlertLedger::FromAnnotation(ledger.ToAnnotation());
  ASSERT_TRUE(copy.ok()) << copy.status().ToString();
  EXPECT_EQ(copy->ToAnnotation(), ledger.ToAnnotation());
  EXPECT_EQ(copy->Record(News1("a", true, 100)), News::kRepeat);
  EXPECT_EQ(copy->Record(News1("b", true, 150)), News::kStale);
}

TEST(AlertLedgerTest, AnnotationsThatAreNoLedgerAreErrors) {
  EXPECT_TRUE(AlertLedger::FromAnnotation("").ok());
  for (const char* text : {"x", "[]", R"({"a":1})", R"({"a":{"firing":true}})",
                           R"({"a":{"firing":"yes","at":1,"state":"Unhealthy"}})",
                           R"({"a":{"firing":true,"at":1,"state":"Sick"}})"}) {
    EXPECT_FALSE(AlertLedger::FromAnnotation(text).ok()) << text;
  }
}

TEST(AlertLedgerTest, StaysBoundedResolvedAlertsGoFirst) {
  AlertLedger ledger;
  ledger.Record(News1("firing", true, 1));
  for (int i = 0; i < 100; ++i) ledger.Record(News1("r" + std::to_string(i), false, 10 + i));
  EXPECT_EQ(ledger.entries().size(), AlertLedger::kMaxEntries);
  EXPECT_TRUE(ledger.entries().contains("firing"));
  EXPECT_TRUE(ledger.entries().contains("r99"));
  EXPECT_FALSE(ledger.entries().contains("r0"));
}

TEST(AlertLedgerTest, ResolvedAlertsAreForgottenADayAfterTheNewestNews) {
  AlertLedger ledger;
  ledger.Record(News1("old", false, 10));
  ledger.Record(News1("recent", false, 20));
  ledger.Record(News1("firing", true, 5));
  ledger.Record(News1("late", true, 15 + AlertLedger::kKeepResolvedMs));
  EXPECT_FALSE(ledger.entries().contains("old"));
  EXPECT_TRUE(ledger.entries().contains("recent"));
  EXPECT_TRUE(ledger.entries().contains("firing"));
}

TEST(AlertLedgerTest, DeeplyNestedAnnotationIsNotALedger) {
  auto ledger = AlertLedger::FromAnnotation(R"({"f":)" + std::string(1 << 20, '['));
  ASSERT_FALSE(ledger.ok());
  EXPECT_NE(ledger.status().message().find("nested deeper than"), std::string::npos)
      << ledger.status().ToString();
}

}  // namespace
}  // namespace dra::alerts
