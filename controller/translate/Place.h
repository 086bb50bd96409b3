#pragma once

#include <cstddef>
#include <string>

namespace dra::translate {

// Where something is in the input: file, 1-based document index, the
// object's kind and name, and the path of the field inside it.
struct Place {
  std::string file;
  size_t document = 0;
  std::string kind;
  std::string name;  // "namespace/name" or "name"
  std::string path;  // e.g. spec.template.spec.containers[0].resources.limits[example.com/gpu]

  // "FILE: document N (Kind ns/name): PATH"
  std::string ToString() const;
};

// A document translate leaves alone because it cannot rewrite it safely.
struct Refusal {
  Place place;
  std::string reason;
};

// A container that still requests an extended resource a DeviceClass backs.
struct Finding {
  Place place;
  std::string resource;
  std::string quantity;
  std::string device_class;
};

}  // namespace dra::translate
