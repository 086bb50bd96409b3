#include "src/client/ListPager.h"

#include <algorithm>

#include "src/base/NlohmannFields.h"
#include "src/client/RestClient.h"

namespace kube {
namespace {

// As deep as the reflector's decoder reads (deeper than kube-apiserver accepts).
constexpr size_t kMaxDepth = 10'000 + 64;
constexpr size_t kInitialCapacity = size_t{16} * 1024;

Status NotJson(const std::string& why) {
  return Status(StatusCode::kParseError, "LIST page is not JSON: " + why);
}

// Makes room in `parser` for a document of `size` bytes, as deep as kMaxDepth.
simdjson::error_code Reserve(simdjson::dom::parser& parser, size_t size) {
  if (parser.capacity() >= size && parser.max_depth() >= kMaxDepth) return simdjson::SUCCESS;
  return parser.allocate(std::max(kInitialCapacity, size), kMaxDepth);
}

}  // namespace

ListPager::ListPager(PageFn page_fn, int64_t page_size)
    : page_fn_(std::move(page_fn)), page_size_(page_size) {}

ListPager ListPager::Of(RestClient& client, const ResourceType& type, const std::string& ns,
                        int64_t page_size) {
  std::string collection = type.CollectionPath(ns);
  return ListPager(
      [&client, collection](const ListOptions& options) -> Result<std::string> {
        HttpRequest request;
        request.path = collection + options.ToQuery();
        auto response = client.Do(request);
        if (!response.ok()) return response.status();
        return std::move(response->body);
      },
      page_size);
}

Status ListPager::EachPage(const PageReader& read, const RestartFn& restart) {
  ListOptions options;
  options.limit = page_size_;
  while (true) {
    auto body = page_fn_(options);
    if (!body.ok()) {
      // Only a continue token expires; a first page's 410 is the caller's.
      if (body.status().code() != StatusCode::kGone || options.continue_token.empty()) {
        return body.status();
      }
      return FullList(read, restart);
    }
    auto next = read(*body);
    if (!next.ok()) return next.status();
    if (next->empty()) return Status::Ok();
    options.continue_token = std::move(*next);
  }
}

// client-go's fallback: the pages read so far are dropped and the whole
// collection is read again in one LIST, at the resourceVersion first asked for.
Status ListPager::FullList(const PageReader& read, const RestartFn& restart) {
  restart();
  auto body = page_fn_(ListOptions{});
  if (!body.ok()) return body.status();
  auto next = read(*body);
  return next.ok() ? Status::Ok() : next.status();
}

Status ListPager::EachItem(const JsonItemFn& each, const RestartFn& restart) {
  return EachPage(
      [&each](const std::string& body) -> Result<std::string> {
        auto page = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
        if (page.is_discarded()) return NotJson("nlohmann::json could not parse it");
        if (auto items = page.find("items"); items != page.end() && items->is_array()) {
          for (auto& item : *items) each(std::move(item));
        }
        return NlohmannFields::StringAt(NlohmannFields::At(page, "metadata"), "continue");
      },
      restart);
}

Status ListPager::EachElement(const ElementFn& each, const RestartFn& restart) {
  simdjson::dom::parser parser;
  return EachPage(
      [&each, &parser](const std::string& body) -> Result<std::string> {
        simdjson::dom::element page;
        auto error = Reserve(parser, body.size());
        if (error == simdjson::SUCCESS) error = parser.parse(body).get(page);
        if (error != simdjson::SUCCESS) return NotJson(simdjson::error_message(error));
        simdjson::dom::array items;
        if (page["items"].get_array().get(items) == simdjson::SUCCESS) {
          for (simdjson::dom::element item : items) each(item);
        }
        std::string_view next;
        if (page["metadata"]["continue"].get_string().get(next) != simdjson::SUCCESS)
          return std::string();
        return std::string(next);
      },
      restart);
}

Result<std::vector<nlohmann::json>> ListPager::ListItems() {
  std::vector<nlohmann::json> items;
  Status status = EachItem([&items](nlohmann::json&& item) { items.push_back(std::move(item)); },
                           [&items] { items.clear(); });
  if (!status.ok()) return status;
  return items;
}

}  // namespace kube
