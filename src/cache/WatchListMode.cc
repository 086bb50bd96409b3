#include "src/cache/WatchListMode.h"

#include <string>

namespace kube {

Result<WatchListMode> ParseWatchListMode(std::string_view text) {
  if (text == "auto") return WatchListMode::kAuto;
  if (text == "on") return WatchListMode::kOn;
  if (text == "off") return WatchListMode::kOff;
  return Status(StatusCode::kInvalidArgument,
                "\"" + std::string(text) + "\": want auto, on or off");
}

std::string_view WatchListModeName(WatchListMode mode) {
  switch (mode) {
    case WatchListMode::kAuto:
      return "auto";
    case WatchListMode::kOn:
      return "on";
    case WatchListMode::kOff:
      return "off";
  }
  return "auto";
}

}  // namespace kube
