#pragma once

#include <cstdint>

namespace dra::testing {

// Live heap bytes of the process, counted by the replacement global
// operator new/delete in HeapCounter.cc (malloc_usable_size, so allocator
// rounding is included). Linking this file into a binary replaces the global
// operator new of that binary: only benchmarks that call LiveHeapBytes() pull
// it in from the test_support archive.
int64_t LiveHeapBytes();

}  // namespace dra::testing
