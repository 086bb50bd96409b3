#include "src/cache/PagedLister.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "src/cache/JsonFields.h"
#include "src/cache/JsonSpans.h"
#include "src/cache/ListMemoryBudget.h"
#include "src/cache/ProtoListPage.h"
#include "src/proto/ProtoEnvelope.h"

namespace kube {

PagedLister::PagedLister(std::shared_ptr<ListerWatcher> lister, WatchDecoder& decoder,
                         Options options)
    : lister_(std::move(lister)),
      resource_(lister_ ? lister_->Describe() : ""),
      decoder_(decoder),
      options_(std::move(options)) {}

Result<std::string> PagedLister::ListAll(Receiver& receiver) {
  ListOptions options = FirstPage();
  std::string resource_version;
  while (true) {
    ListMemoryBudget::Reservation reservation;
    if (options_.budget) {
      reservation = options_.budget->Acquire([&receiver] { return receiver.Stopping(); });
      if (!reservation.held()) return Status(StatusCode::kCancelled, "list cancelled");
    }
    auto body = lister_->List(options);
    if (HalvedAfter(body.status(), options)) continue;
    if (!body.ok()) return body.status();
    receiver.PageRead();
    Status applied = ApplyPage(*body, options, resource_version, receiver);
    if (!applied.ok()) return applied.WithContext("list " + resource_);
    if (options.continue_token.empty()) return resource_version;
  }
}

ListOptions PagedLister::FirstPage() const {
  ListOptions options;
  options.limit = options_.page_size;
  options.label_selector = options_.label_selector;
  options.field_selector = options_.field_selector;
  return options;
}

// A page of large objects can pass the body cap (objects may be 1.5 MiB
// each): true when the same page is to be asked for again, half as long.
bool PagedLister::HalvedAfter(const Status& status, ListOptions& options) const {
  if (status.code() != StatusCode::kTooLarge || options.limit <= 1) return false;
  options.limit = std::max<int64_t>(1, options.limit / 2);
  spdlog::warn("list {}: page over the response size cap; retrying with limit {}", resource_,
               options.limit);
  return true;
}

// Feeds one page's items to the receiver; reads the page's resourceVersion
// and continue token into `resource_version` and `options`.
Status PagedLister::ApplyPage(const std::string& body, ListOptions& options,
                              std::string& resource_version, Receiver& receiver) {
  if (ProtoEnvelope::IsProtobuf(body)) {
    return ApplyProtoPage(body, options, resource_version, receiver);
  }
  auto doc = decoder_.ParseDocument(body);
  if (!doc.ok()) return ApplyPageItemByItem(body, options, resource_version, receiver);
  simdjson::dom::array items;
  if (json::Field(*doc, "items").get(items) == simdjson::SUCCESS) {
    for (simdjson::dom::element item : items) receiver.Item(item);
  }
  simdjson::dom::element metadata = json::Field(*doc, "metadata");
  resource_version = json::StringOr(metadata, "resourceVersion");
  options.continue_token = json::StringOr(metadata, "continue");
  return Status::Ok();
}

// The page does not parse as a whole: one bad item must not cost the others,
// so the items are cut apart and parsed one by one.
Status PagedLister::ApplyPageItemByItem(const std::string& body, ListOptions& options,
                                        std::string& resource_version, Receiver& receiver) {
  auto metadata = decoder_.ParseDocument(json::MemberText(body, "metadata"));
  if (!metadata.ok()) return metadata.status().WithContext("page metadata");
  resource_version = json::StringOr(*metadata, "resourceVersion");
  options.continue_token = json::StringOr(*metadata, "continue");
  auto items = json::ArrayElements(json::MemberText(body, "items"));
  if (!items.ok()) return items.status().WithContext("page items");
  for (std::string_view text : *items) {
    auto item = decoder_.ParseDocument(text);
    if (item.ok()) {
      receiver.Item(*item);
      continue;
    }
    Status error = item.status();
    auto salvaged = decoder_.SalvageObject(text);
    receiver.Undecodable(salvaged.ok() ? salvaged->Key() : "", error);
  }
  return Status::Ok();
}

// Each item is cut out by its length, so a malformed one fails only itself.
Status PagedLister::ApplyProtoPage(const std::string& body, ListOptions& options,
                                   std::string& resource_version, Receiver& receiver) {
  auto page_or = ProtoListPage::Parse(body);
  if (!page_or.ok()) return page_or.status();
  auto page = std::move(*page_or);
  for (std::string_view item : page.items) receiver.Item(RawObject::Protobuf(item));
  resource_version = std::move(page.resource_version);
  options.continue_token = std::move(page.continue_token);
  return Status::Ok();
}

}  // namespace kube
