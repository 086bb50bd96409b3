#pragma once

// Counts the live heap bytes of a benchmark binary by replacing the global
// operator new/delete (malloc_usable_size, so allocator rounding is counted).
//
// Include this header in exactly ONE translation unit of a binary (its
// benchmark .cc): it defines the replacement operators, which must exist
// once per program. It deliberately has no .cc in tests/support: an archive
// member defining operator new would be pulled into every binary linking
// test_support (unit_tests, integration_tests) to resolve their operator new.
#include <malloc.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <new>

namespace dra::testing {

inline std::atomic<int64_t> g_live_heap_bytes{0};

inline int64_t LiveHeapBytes() { return g_live_heap_bytes.load(); }

}  // namespace dra::testing

void* operator new(size_t size) {
  void* p = std::malloc(size == 0 ? 1 : size);
  if (p == nullptr) throw std::bad_alloc();
  dra::testing::g_live_heap_bytes += static_cast<int64_t>(malloc_usable_size(p));
  return p;
}
// noinline: inlined into a caller, g++ pairs that caller's `new` with this
// free() and reports a mismatched allocation (-Wmismatched-new-delete).
__attribute__((noinline)) void operator delete(void* p) noexcept {
  if (p == nullptr) return;
  dra::testing::g_live_heap_bytes -= static_cast<int64_t>(malloc_usable_size(p));
  std::free(p);
}
void operator delete(void* p, size_t) noexcept { operator delete(p); }
// Over-aligned allocations are counted too.
void* operator new(size_t size, std::align_val_t align) {
  size_t alignment = static_cast<size_t>(align);
  void* p = std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
  if (p == nullptr) throw std::bad_alloc();
  dra::testing::g_live_heap_bytes += static_cast<int64_t>(malloc_usable_size(p));
  return p;
}
__attribute__((noinline)) void operator delete(void* p, std::align_val_t) noexcept {
  if (p == nullptr) return;
  dra::testing::g_live_heap_bytes -= static_cast<int64_t>(malloc_usable_size(p));
  std::free(p);
}
void operator delete(void* p, size_t, std::align_val_t align) noexcept {
  operator delete(p, align);
}
