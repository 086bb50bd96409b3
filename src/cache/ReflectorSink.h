#pragma once

#include <simdjson.h>

#include <string>

#include "src/base/Status.h"
#include "src/cache/RawObject.h"
#include "src/cache/WatchDecoder.h"

namespace kube {

// Receives what a Reflector reads. Objects are JSON elements or protobuf
// messages valid only during the call; the sink projects them into its own
// types.
class ReflectorSink {
 public:
  virtual ~ReflectorSink() = default;
  // A full list (initial or after 410 Gone) is about to be delivered.
  virtual void BeginReplace() = 0;
  // An error means the item was not taken (it is left out of the cache).
  virtual Status ReplaceItem(const RawObject& object) = 0;
  // The list is complete: make the cache equal to it, emitting the difference.
  virtual void EndReplace(const std::string& resource_version) = 0;
  // A watch-list reported `key` deleted while its initial events were being
  // gathered: leave it out of the replace under way.
  virtual void ForgetItem(const std::string& key) = 0;
  // The list failed part-way; forget what BeginReplace started.
  virtual void AbortReplace() = 0;
  // An error means the object could not be taken; the sink must then not
  // keep an older version of it either.
  virtual Status Apply(WatchEventType type, const RawObject& object) = 0;
  // The object under `key` changed into something that cannot be decoded:
  // drop it (emitting a delete) if it is cached.
  virtual void Remove(const std::string& key) = 0;
  // Whether the sink can project protobuf objects; the reflector then asks
  // the server for protobuf.
  virtual bool AcceptsProtobuf() const { return false; }
};

}  // namespace kube
