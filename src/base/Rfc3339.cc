#include "src/base/Rfc3339.h"

#include <chrono>
#include <cstdio>

namespace kube {
namespace {

// The decimal number of `count` digits at `text[at]`, or nullopt.
std::optional<int> Digits(std::string_view text, size_t at, size_t count) {
  if (at + count > text.size()) return std::nullopt;
  int value = 0;
  for (size_t i = at; i < at + count; ++i) {
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
    value = value * 10 + (text[i] - '0');
  }
  return value;
}

bool Is(std::string_view text, size_t at, char c) { return at < text.size() && text[at] == c; }

// Milliseconds of the fraction starting at text[at] (after the '.'); moves
// `at` past its digits.
std::optional<int64_t> FractionMillis(std::string_view text, size_t& at) {
  int64_t millis = 0;
  size_t digits = 0;
  while (at < text.size() && text[at] >= '0' && text[at] <= '9') {
    if (digits < 3) millis = millis * 10 + (text[at] - '0');
    ++digits;
    ++at;
  }
  if (digits == 0 || digits > 9) return std::nullopt;
  for (size_t d = digits; d < 3; ++d) millis *= 10;
  return millis;
}

// The offset east of UTC in minutes ("Z", "+hh:mm", "-hh:mm") ending the text.
std::optional<int> OffsetMinutes(std::string_view text, size_t at) {
  if (at + 1 == text.size() && (text[at] == 'Z' || text[at] == 'z')) return 0;
  if (at + 6 != text.size() || (text[at] != '+' && text[at] != '-') || !Is(text, at + 3, ':')) {
    return std::nullopt;
  }
  auto hours = Digits(text, at + 1, 2);
  auto minutes = Digits(text, at + 4, 2);
  if (!hours || !minutes || *hours > 23 || *minutes > 59) return std::nullopt;
  int offset = *hours * 60 + *minutes;
  return text[at] == '-' ? -offset : offset;
}

}  // namespace

std::optional<int64_t> Rfc3339::ToMillis(std::string_view text) {
  auto year = Digits(text, 0, 4);
  auto month = Digits(text, 5, 2);
  auto day = Digits(text, 8, 2);
  auto hour = Digits(text, 11, 2);
  auto minute = Digits(text, 14, 2);
  auto second = Digits(text, 17, 2);
  if (!year || !month || !day || !hour || !minute || !second || !Is(text, 4, '-') ||
      !Is(text, 7, '-') || !(Is(text, 10, 'T') || Is(text, 10, 't')) || !Is(text, 13, ':') ||
      !Is(text, 16, ':') || *hour > 23 || *minute > 59 || *second > 60) {
    return std::nullopt;
  }
  std::chrono::year_month_day date{std::chrono::year(*year),
                                   std::chrono::month(static_cast<unsigned>(*month)),
                                   std::chrono::day(static_cast<unsigned>(*day))};
  if (!date.ok()) return std::nullopt;
  size_t at = 19;
  int64_t millis = 0;
  if (Is(text, at, '.')) {
    ++at;
    auto fraction = FractionMillis(text, at);
    if (!fraction) return std::nullopt;
    millis = *fraction;
  }
  auto offset = OffsetMinutes(text, at);
  if (!offset) return std::nullopt;
  int64_t days = std::chrono::sys_days(date).time_since_epoch().count();
  int64_t seconds = days * 86400 + *hour * 3600 + *minute * 60 + *second - *offset * 60;
  return seconds * 1000 + millis;
}

std::string Rfc3339::FormatMillis(int64_t millis) {
  using namespace std::chrono;
  sys_time<milliseconds> at{milliseconds(millis)};
  sys_days day = floor<days>(at);
  year_month_day date{day};
  hh_mm_ss<milliseconds> time{at - day};
  char buf[40];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02uT%02lld:%02lld:%02lld.%03lldZ",
                static_cast<int>(date.year()), static_cast<unsigned>(date.month()),
                static_cast<unsigned>(date.day()), static_cast<long long>(time.hours().count()),
                static_cast<long long>(time.minutes().count()),
                static_cast<long long>(time.seconds().count()),
                static_cast<long long>(time.subseconds().count()));
  return buf;
}

bool Rfc3339::HasFraction(std::string_view text) { return Is(text, 19, '.'); }

}  // namespace kube
