#pragma once

#include <string>

#include "src/base/Status.h"
#include "src/http/HttpTransport.h"

namespace kube {

// Turns a non-2xx API response into a Status, using the reason and message
// of the metav1.Status body when there is one and the HTTP code otherwise.
Status ApiErrorFromResponse(const HttpResponse& response, const std::string& what);

}  // namespace kube
