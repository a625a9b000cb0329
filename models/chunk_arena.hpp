// An append-only arena of T in chunks that never move, for the tables that grow to
// hundreds of megabytes during one search: the model state tables (content_table.hpp)
// and WGL's memo table (search/config_cache.hpp).
//
// One vector that doubles would be simpler, but doubling a 256 MB vector is a 100 ms
// copy plus 256 MB more at once, in one step that polls neither --timeout nor
// --memory-limit: the limits watch would see the jump only after it happened. Chunks
// grow the resident size by at most kMaxChunkBytes at a time, and what allocate()
// returned stays where it is for the arena's lifetime, so callers keep plain pointers.
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <type_traits>
#include <vector>

namespace ariadne::models {

template <typename T>
class ChunkArena {
  static_assert(std::is_trivially_copyable_v<T>, "arena elements are written in place, never constructed");

 public:
  // The most one allocation adds at once, short of a single request larger than this
  // (which gets a chunk of its own size).
  static constexpr std::size_t kMaxChunkBytes = std::size_t{1} << 20;

  // Room for `n` elements, contiguous and uninitialised; nullptr when n is 0. A
  // request never straddles two chunks, so a chunk's unused tail is wasted when the
  // next request does not fit it; chunks double up to kMaxChunkBytes, so that waste is
  // under one request per chunk.
  T* allocate(std::size_t n) {
    if (n == 0) return nullptr;
    if (const std::size_t capacity = next_chunk_elements(n); capacity != 0) {
      // make_unique_for_overwrite: the elements are written before they are read, and
      // leaving them untouched keeps unused pages out of the resident size.
      chunks_.push_back({std::make_unique_for_overwrite<T[]>(capacity), capacity, 0});
      bytes_ += capacity * sizeof(T);
    }
    Chunk& chunk = chunks_.back();
    T* at = chunk.elements.get() + chunk.used;
    chunk.used += n;
    return at;
  }

  // How many bytes the next allocate(n) would add: 0 when it fits the current chunk.
  std::size_t growth_bytes(std::size_t n) const { return next_chunk_elements(n) * sizeof(T); }

  // Every chunk's bytes, used or not, and the list of chunks.
  std::size_t bytes() const { return bytes_ + chunks_.capacity() * sizeof(Chunk); }

  // Gives every chunk back; pointers allocate() returned are invalid afterwards.
  void clear() {
    std::vector<Chunk>().swap(chunks_);
    bytes_ = 0;
  }

 private:
  static constexpr std::size_t kFirstChunkElements = std::max<std::size_t>(1, 8192 / sizeof(T));

  struct Chunk {
    std::unique_ptr<T[]> elements;
    std::size_t capacity = 0;
    std::size_t used = 0;
  };

  // The size of the chunk allocate(n) would add, or 0 if n fits the last one.
  std::size_t next_chunk_elements(std::size_t n) const {
    if (n == 0 || (!chunks_.empty() && chunks_.back().capacity - chunks_.back().used >= n)) return 0;
    const std::size_t doubled = chunks_.empty() ? kFirstChunkElements : 2 * chunks_.back().capacity;
    return std::max(n, std::min(doubled, std::max<std::size_t>(1, kMaxChunkBytes / sizeof(T))));
  }

  std::vector<Chunk> chunks_;
  std::size_t bytes_ = 0;
};

}  // namespace ariadne::models
