#include "src/proto/ProtoFields.h"

#include "src/proto/ProtoReader.h"

namespace kube {
namespace {

constexpr uint32_t kEntryKey = 1;
constexpr uint32_t kEntryValue = 2;

}  // namespace

Result<std::optional<std::string_view>> ProtoFields::Find(std::string_view message,
                                                          uint32_t field) {
  std::optional<std::string_view> found;
  ProtoReader reader(message);
  while (reader.Next()) {
    if (reader.field() == field && reader.is_bytes()) found = reader.bytes();
  }
  if (!reader.ok()) return reader.status();
  return found;
}

Result<std::optional<std::string_view>> ProtoFields::FindFirst(std::string_view message,
                                                               uint32_t field) {
  ProtoReader reader(message);
  while (reader.Next()) {
    if (reader.field() == field && reader.is_bytes()) {
      return std::optional<std::string_view>(reader.bytes());
    }
  }
  if (!reader.ok()) return reader.status();
  return std::optional<std::string_view>();
}

Result<std::pair<std::string_view, std::string_view>> ProtoFields::Entry(std::string_view entry) {
  std::pair<std::string_view, std::string_view> out;
  ProtoReader reader(entry);
  while (reader.Next()) {
    if (!reader.is_bytes()) continue;
    if (reader.field() == kEntryKey) out.first = reader.bytes();
    if (reader.field() == kEntryValue) out.second = reader.bytes();
  }
  if (!reader.ok()) return reader.status().WithContext("map entry");
  return out;
}

Result<std::pair<std::string_view, std::optional<std::string_view>>> ProtoFields::QuantityEntry(
    std::string_view entry) {
  constexpr uint32_t kQuantityString = 1;
  auto parts = Entry(entry);
  if (!parts.ok()) return parts.status();
  auto text = Find(parts->second, kQuantityString);
  if (!text.ok()) return text.status();
  return std::make_pair(parts->first, *text);
}

Result<std::pair<std::string, std::string>> ProtoFields::StringEntry(std::string_view entry) {
  auto view_or = Entry(entry);
  if (!view_or.ok()) return view_or.status();
  auto view = std::move(*view_or);
  return std::pair<std::string, std::string>(view.first, view.second);
}

}  // namespace kube
