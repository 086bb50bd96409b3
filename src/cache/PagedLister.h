#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "src/base/Result.h"
#include "src/cache/ListerWatcher.h"
#include "src/cache/RawObject.h"
#include "src/cache/WatchDecoder.h"

namespace kube {

class ListMemoryBudget;

// Reads a whole collection by a paged LIST, following continue tokens, and
// hands each item to a Receiver. Each page is read within the shared
// ListMemoryBudget when there is one; a page over the response size cap is
// asked for again at half the limit. The first failure ends the read (a 410
// for an expired continue token included): the caller starts a fresh LIST,
// never resuming from a token. No resourceVersion is sent, so the server
// answers from its most recent state.
//
// Pages are read as JSON or protobuf, whichever the server chose. A JSON page
// that does not parse as a whole is cut into its items, so that an item that
// cannot be decoded costs only itself.
class PagedLister {
 public:
  struct Options {
    int64_t page_size = 500;
    std::string label_selector;
    std::string field_selector;
    std::shared_ptr<ListMemoryBudget> budget;  // null: no limit
  };

  // Told what the read finds as it goes.
  class Receiver {
   public:
    virtual ~Receiver() = default;
    // One item of the collection, valid during the call.
    virtual void Item(const RawObject& item) = 0;
    // An item passed over because it cannot be decoded; `key` is empty when
    // not even its metadata reads.
    virtual void Undecodable(const std::string& key, const Status& error) = 0;
    // A page arrived: the read is making progress.
    virtual void PageRead() = 0;
    // Asked while waiting for list memory: true gives the read up.
    virtual bool Stopping() = 0;
  };

  PagedLister(std::shared_ptr<ListerWatcher> lister, WatchDecoder& decoder, Options options);

  // The collection's resourceVersion (its last page's), or why it was not
  // read: Cancelled when Stopping() ended a wait for list memory, otherwise
  // the LIST's error or the page that could not be read.
  Result<std::string> ListAll(Receiver& receiver);

 private:
  ListOptions FirstPage() const;
  bool HalvedAfter(const Status& status, ListOptions& options) const;
  Status ApplyPage(const std::string& body, ListOptions& options, std::string& resource_version,
                   Receiver& receiver);
  Status ApplyPageItemByItem(const std::string& body, ListOptions& options,
                             std::string& resource_version, Receiver& receiver);
  Status ApplyProtoPage(const std::string& body, ListOptions& options,
                        std::string& resource_version, Receiver& receiver);

  std::shared_ptr<ListerWatcher> lister_;
  std::string resource_;
  WatchDecoder& decoder_;
  Options options_;
};

}  // namespace kube
