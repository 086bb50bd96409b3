// Fuzz target: the watch path (line splitting, event decoding, salvaging the
// metadata of undecodable events, metadata projection, ERROR status decoding)
// must never crash on any byte stream.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "src/cache/LineSplitter.h"
#include "src/cache/MetaObject.h"
#include "src/cache/WatchDecoder.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static kube::WatchDecoder decoder;
  kube::LineSplitter splitter(64 * 1024);
  std::string_view input(reinterpret_cast<const char*>(data), size);
  // Feed in uneven chunks, as a network would.
  size_t offset = 0, step = 1;
  while (offset < input.size()) {
    std::string_view chunk = input.substr(offset, step);
    offset += chunk.size();
    step = step * 3 % 97 + 1;
    splitter.Feed(chunk, [](std::string_view line) {
      auto event = decoder.Decode(line);
      if (!event.ok()) {
        (void)decoder.SalvageEvent(line);
        return true;
      }
      if (event->type == kube::WatchEventType::kError) {
        (void)kube::WatchDecoder::ErrorEventStatus(event->object.json());
      } else {
        (void)kube::MetaObject::FromJson(event->object.json());
      }
      return true;
    });
    decoder.TrimCapacity();
  }
  return 0;
}
