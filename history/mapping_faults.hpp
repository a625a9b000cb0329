// Surviving a mapped file that shrinks under the reader. Touching a page of a file
// mapping past the file's end raises SIGBUS, which kills the process without a word:
// another program truncating a history while ariadne reads it would do that.
//
// A watched mapping (MappingFaultWatch) is registered with one process-wide SIGBUS
// handler. When a page of it faults, the handler maps zero-filled anonymous memory
// over the rest of the mapping, notes the fault, and returns: the access is retried
// and reads zeros, the reader goes on (or stops at the first zero byte as bad input),
// and MappedFile then reports the truncation as bad input naming the file.
//
// Why this and not the alternatives:
// - sigsetjmp/siglongjmp around the readers would jump over C++ destructors, from
//   any of the threads that read blocks of a large file (op_map_lines.cpp);
// - checking the size before each access cannot close the window between the check
//   and the access;
// - reading the file into memory instead of mapping it would make a 1.4 GB history
//   cost 1.4 GB of heap, what the mapping exists to avoid.
// The handler is the one piece of process-wide state the readers keep: a signal's
// disposition is the process's. A fault outside every watched mapping goes to the
// handler that was there before (the default one kills as SIGBUS always did).
#pragma once

#include <cstddef>

namespace ariadne {

class MappingFaultWatch {
 public:
  // Watches [begin, begin + size), a mapping of a file; a no-op watch for null.
  MappingFaultWatch(void* begin, std::size_t size);
  ~MappingFaultWatch();  // stops watching; the caller then unmaps the whole range
  MappingFaultWatch(const MappingFaultWatch&) = delete;
  MappingFaultWatch& operator=(const MappingFaultWatch&) = delete;

  // Whether the mapping is watched: false when the table of watched mappings is full
  // (the caller then reads the file instead of mapping it).
  bool watching() const;
  // Whether a page of the mapping faulted (and now reads zeros).
  bool faulted() const;

 private:
  int slot_ = -1;  // the handler's table entry, -1 when not watching
};

}  // namespace ariadne
