#include <spdlog/spdlog.h>

// spdlog builds its registry and default logger on first use. In
// dra-controller that is InitLogging, before any thread starts; in a test
// binary it would be whichever test thread logs first, and two reflector
// threads logging their first sync at once race on that construction inside
// the uninstrumented libspdlog (a TSan report in
// InformerRegistryTest.ReconcilersShareOneWatchPerResource). Building both
// here, before main, orders them before every thread. Linked into each test
// executable directly, so the static initializer is never dropped.
namespace {

const bool kDefaultLoggerBuilt = [] { return spdlog::default_logger_raw() != nullptr; }();

}  // namespace
