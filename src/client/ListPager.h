#pragma once

#include <simdjson.h>

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "src/base/Result.h"
#include "src/base/Status.h"
#include "src/client/ListOptions.h"
#include "src/client/ResourceType.h"

namespace kube {

class RestClient;

// Reads a collection page by page, as client-go's tools/pager does: asks for
// `page_size` items at a time, follows each page's metadata.continue until it
// is empty, and when a later page answers 410 (the continue token expired:
// the first page's resourceVersion left etcd's compaction window) starts over
// with one full LIST without a limit. Items are handed out as each page is
// read, in the server's order; the restart callback then tells the caller that
// those handed out before are void.
//
// One-shot LISTs of commands and checks use it; the Reflector pages on its own
// (protobuf pages, item-by-item salvage, relist through its backoff).
class ListPager {
 public:
  // One page: the LIST response's body for `options` (the pager sets limit
  // and continue).
  using PageFn = std::function<Result<std::string>(const ListOptions& options)>;
  using JsonItemFn = std::function<void(nlohmann::json&& item)>;
  // The element lives until the next page is read.
  using ElementFn = std::function<void(simdjson::dom::element item)>;
  // The list starts over: forget every item handed out so far.
  using RestartFn = std::function<void()>;

  static constexpr int64_t kDefaultPageSize = 500;

  explicit ListPager(PageFn page_fn, int64_t page_size = kDefaultPageSize);
  // LISTs of `type` in `ns` (every namespace when "") through `client`.
  static ListPager Of(RestClient& client, const ResourceType& type, const std::string& ns = "",
                      int64_t page_size = kDefaultPageSize);

  // Every item, parsed with nlohmann::json.
  Status EachItem(const JsonItemFn& each, const RestartFn& restart);
  // Every item, parsed with simdjson (for the projections' FromJson).
  Status EachElement(const ElementFn& each, const RestartFn& restart);
  // Every item of the collection.
  Result<std::vector<nlohmann::json>> ListItems();

 private:
  // Hands one page's items on; returns its continue token.
  using PageReader = std::function<Result<std::string>(const std::string& body)>;

  Status EachPage(const PageReader& read, const RestartFn& restart);
  Status FullList(const PageReader& read, const RestartFn& restart);

  PageFn page_fn_;
  int64_t page_size_;
};

}  // namespace kube
