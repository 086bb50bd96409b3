#include "src/proto/ProtoReader.h"

namespace kube {
namespace {

constexpr uint64_t kMaxFieldNumber = (uint64_t{1} << 29) - 1;
constexpr int kMaxVarintBytes = 10;

uint64_t LittleEndian(std::string_view bytes) {
  uint64_t value = 0;
  for (size_t i = bytes.size(); i-- > 0;) {
    value = (value << 8) | static_cast<unsigned char>(bytes[i]);
  }
  return value;
}

}  // namespace

bool ProtoReader::Fail(std::string message) {
  status_ = Status(StatusCode::kParseError, "protobuf: " + std::move(message));
  rest_ = {};
  return false;
}

bool ProtoReader::ReadVarint(uint64_t& out) {
  out = 0;
  for (int i = 0; i < kMaxVarintBytes; ++i) {
    if (rest_.empty()) return Fail("truncated varint");
    auto byte = static_cast<unsigned char>(rest_.front());
    rest_.remove_prefix(1);
    out |= uint64_t{byte & 0x7fu} << (7 * i);
    if ((byte & 0x80u) == 0) return true;
  }
  return Fail("varint longer than 10 bytes");
}

bool ProtoReader::Next() {
  number_ = 0;
  bytes_ = {};
  if (!status_.ok() || rest_.empty()) return false;
  uint64_t tag = 0;
  if (!ReadVarint(tag)) return false;
  uint64_t field = tag >> 3;
  if (field == 0 || field > kMaxFieldNumber) return Fail("invalid field number");
  field_ = static_cast<uint32_t>(field);
  wire_type_ = static_cast<WireType>(tag & 7u);
  switch (wire_type_) {
    case WireType::kVarint:
      return ReadVarint(number_);
    case WireType::kFixed64:
    case WireType::kFixed32: {
      size_t width = wire_type_ == WireType::kFixed64 ? 8 : 4;
      if (rest_.size() < width) return Fail("truncated fixed-width field");
      number_ = LittleEndian(rest_.substr(0, width));
      rest_.remove_prefix(width);
      return true;
    }
    case WireType::kBytes: {
      uint64_t length = 0;
      if (!ReadVarint(length)) return false;
      if (length > rest_.size()) return Fail("length-delimited field runs past the message");
      bytes_ = rest_.substr(0, length);
      rest_.remove_prefix(length);
      return true;
    }
  }
  return Fail("unsupported wire type " + std::to_string(tag & 7u));
}

}  // namespace kube
