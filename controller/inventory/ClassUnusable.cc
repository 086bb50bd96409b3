#include "controller/inventory/ClassUnusable.h"

namespace dra::inventory {

std::string ClassUnusable::Describe() const {
  return "class " + class_name + " unusable: selector error on device " + device.ToString() + ": " +
         message;
}

}  // namespace dra::inventory
