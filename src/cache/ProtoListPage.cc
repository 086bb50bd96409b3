#include "src/cache/ProtoListPage.h"

#include "src/proto/ProtoEnvelope.h"
#include "src/proto/ProtoReader.h"

namespace kube {
namespace {

// *List and metav1.ListMeta field numbers.
constexpr uint32_t kListMetadata = 1;
constexpr uint32_t kListItems = 2;
constexpr uint32_t kResourceVersion = 2;
constexpr uint32_t kContinue = 3;

Status ReadListMeta(std::string_view message, ProtoListPage& page) {
  ProtoReader reader(message);
  while (reader.Next()) {
    if (!reader.is_bytes()) continue;
    if (reader.field() == kResourceVersion) page.resource_version = reader.AsString();
    if (reader.field() == kContinue) page.continue_token = reader.AsString();
  }
  return reader.status().WithContext("list metadata");
}

}  // namespace

Result<ProtoListPage> ProtoListPage::Parse(std::string_view body) {
  auto list_or = ProtoEnvelope::Unwrap(body);
  if (!list_or.ok()) return list_or.status();
  auto list = std::move(*list_or);
  ProtoListPage page;
  ProtoReader reader(list);
  while (reader.Next()) {
    if (!reader.is_bytes()) continue;
    if (reader.field() == kListItems) page.items.push_back(reader.bytes());
    if (reader.field() == kListMetadata) KUBE_RETURN_IF_ERROR(ReadListMeta(reader.bytes(), page));
  }
  if (!reader.ok()) return reader.status().WithContext("list");
  return page;
}

}  // namespace kube
