#include "tests/support/ProtoWriter.h"

namespace kube::testing {

std::string ProtoWriter::EncodeVarint(uint64_t value) {
  std::string out;
  while (value >= 0x80) {
    out.push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<char>(value));
  return out;
}

void ProtoWriter::Tag(uint32_t field, uint32_t wire_type) {
  out_ += EncodeVarint((uint64_t{field} << 3) | wire_type);
}

ProtoWriter& ProtoWriter::Varint(uint32_t field, uint64_t value) {
  Tag(field, 0);
  out_ += EncodeVarint(value);
  return *this;
}

ProtoWriter& ProtoWriter::Bytes(uint32_t field, std::string_view value) {
  Tag(field, 2);
  out_ += EncodeVarint(value.size());
  out_.append(value);
  return *this;
}

ProtoWriter& ProtoWriter::Fixed32(uint32_t field, uint32_t value) {
  Tag(field, 5);
  for (int i = 0; i < 4; ++i) out_.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
  return *this;
}

ProtoWriter& ProtoWriter::Fixed64(uint32_t field, uint64_t value) {
  Tag(field, 1);
  for (int i = 0; i < 8; ++i) out_.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
  return *this;
}

ProtoWriter& ProtoWriter::StringEntry(uint32_t field, std::string_view key,
                                      std::string_view value) {
  return Message(field, ProtoWriter().Bytes(1, key).Bytes(2, value));
}

ProtoWriter& ProtoWriter::Raw(std::string_view bytes) {
  out_.append(bytes);
  return *this;
}

std::string ProtoWriter::Envelope(std::string_view message) {
  ProtoWriter unknown;
  unknown.Message(1, ProtoWriter().Bytes(1, "v1").Bytes(2, "Pod")).Bytes(2, message);
  return std::string("k8s\0", 4) + unknown.str();
}

std::string ProtoWriter::Frame(std::string_view bytes) {
  std::string out;
  auto size = static_cast<uint32_t>(bytes.size());
  for (int shift = 24; shift >= 0; shift -= 8)
    out.push_back(static_cast<char>((size >> shift) & 0xff));
  out.append(bytes);
  return out;
}

std::string ProtoWriter::WatchFrame(std::string_view type, std::string_view object_message) {
  ProtoWriter event;
  event.Bytes(1, type).Message(2, ProtoWriter().Bytes(1, Envelope(object_message)));
  return Frame(event.str());
}

}  // namespace kube::testing
