// Fuzz target: the protobuf watch and list path (frame splitting, event
// decoding, salvaging the metadata of undecodable events, metadata
// projection, ERROR status decoding, LIST pages) must never crash on any
// byte stream.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "src/cache/MetaObject.h"
#include "src/cache/ProtoListPage.h"
#include "src/cache/ProtoWatchDecoder.h"
#include "src/proto/ProtoFrameSplitter.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  kube::ProtoFrameSplitter splitter(64 * 1024);
  std::string_view input(reinterpret_cast<const char*>(data), size);
  auto page = kube::ProtoListPage::Parse(input);
  if (page.ok()) {
    for (std::string_view item : page->items) (void)kube::MetaObject::FromProto(item);
  }
  // Feed in uneven chunks, as a network would.
  size_t offset = 0, step = 1;
  while (offset < input.size()) {
    std::string_view chunk = input.substr(offset, step);
    offset += chunk.size();
    step = step * 3 % 97 + 1;
    splitter.Feed(chunk, [](std::string_view frame) {
      auto event = kube::ProtoWatchDecoder::Decode(frame);
      if (!event.ok()) {
        (void)kube::ProtoWatchDecoder::Salvage(frame);
        return true;
      }
      if (event->type == kube::WatchEventType::kError) {
        (void)kube::ProtoWatchDecoder::ErrorEventStatus(event->object.protobuf());
      } else {
        (void)kube::MetaObject::FromProto(event->object.protobuf());
      }
      return true;
    });
  }
  return 0;
}
