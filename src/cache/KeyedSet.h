#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string_view>
#include <unordered_set>
#include <utility>

namespace kube {

// Immutable objects keyed by their own metadata: "namespace/name", or "name"
// for cluster-scoped objects (client-go's key). The key is read from the
// object, never copied, so an entry costs one shared_ptr and a hash. Not
// thread-safe.
template <typename T>
class KeyedSet {
 public:
  using Ptr = std::shared_ptr<const T>;

  // Stores `object` in place of the object with its key; returns that one.
  // A null object has no key and is not stored.
  Ptr Put(Ptr object) {
    if (object == nullptr) return nullptr;
    auto it = items_.find(object);
    if (it == items_.end()) {
      items_.insert(std::move(object));
      return nullptr;
    }
    auto node = items_.extract(it);
    Ptr old = std::move(node.value());
    node.value() = std::move(object);
    items_.insert(std::move(node));
    return old;
  }

  // Removes the object under `key`; returns it, or null.
  Ptr Erase(std::string_view key) {
    auto it = items_.find(key);
    if (it == items_.end()) return nullptr;
    return std::move(items_.extract(it).value());
  }

  const Ptr* Find(std::string_view key) const { return Lookup(key); }
  // The stored object with the same key as `object`.
  const Ptr* Find(const T& object) const { return Lookup(NameOf(object)); }

  size_t size() const { return items_.size(); }
  void clear() { items_.clear(); }
  auto begin() const { return items_.begin(); }
  auto end() const { return items_.end(); }

 private:
  using Name = std::pair<std::string_view, std::string_view>;  // namespace, name

  static Name NameOf(const T& object) { return {object.meta.namespace_name, object.meta.name}; }
  static Name NameOf(const Ptr& object) { return NameOf(*object); }
  // Namespaces and names never contain '/', so the first one splits the key.
  static Name NameOf(std::string_view key) {
    size_t slash = key.find('/');
    if (slash == std::string_view::npos) return {{}, key};
    return {key.substr(0, slash), key.substr(slash + 1)};
  }
  static Name NameOf(Name name) { return name; }

  struct Hash {
    using is_transparent = void;
    template <typename K>
    size_t operator()(const K& key) const {
      Name name = NameOf(key);
      std::hash<std::string_view> hash;
      return hash(name.first) * 31 + hash(name.second);
    }
  };
  struct Equal {
    using is_transparent = void;
    template <typename A, typename B>
    bool operator()(const A& a, const B& b) const {
      return NameOf(a) == NameOf(b);
    }
  };

  template <typename K>
  const Ptr* Lookup(const K& key) const {
    auto it = items_.find(key);
    return it == items_.end() ? nullptr : &*it;
  }

  std::unordered_set<Ptr, Hash, Equal> items_;
};

}  // namespace kube
