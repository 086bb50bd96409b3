#include "src/base/Logging.h"

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

namespace kube {

Status ValidateLogLevel(const std::string& level) {
  if (spdlog::level::from_str(level) == spdlog::level::off && level != "off") {
    return Status(StatusCode::kInvalidArgument,
                  "unknown log level \"" + level + "\" (trace, debug, info, warn, error)");
  }
  return Status::Ok();
}

Status InitLogging(const std::string& level) {
  if (Status valid = ValidateLogLevel(level); !valid.ok()) return valid;
  auto parsed = spdlog::level::from_str(level);
  auto logger = spdlog::get("kube");
  if (!logger) logger = spdlog::stderr_logger_mt("kube");
  logger->set_pattern("%Y-%m-%dT%H:%M:%S.%eZ %l %v", spdlog::pattern_time_type::utc);
  logger->set_level(parsed);
  logger->flush_on(spdlog::level::info);
  spdlog::set_default_logger(logger);
  return Status::Ok();
}

}  // namespace kube
