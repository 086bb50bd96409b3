#include "controller/translate/Place.h"

namespace dra::translate {

std::string Place::ToString() const {
  std::string out = file.empty() ? "<stdin>" : file;
  out += ": document " + std::to_string(document);
  if (!kind.empty() || !name.empty()) out += " (" + kind + " " + name + ")";
  if (!path.empty()) out += ": " + path;
  return out;
}

}  // namespace dra::translate
