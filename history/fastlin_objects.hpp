// fastlin's objects and their methods (include/algo/*_lin.h in solarrabbit99/fastlin),
// with the model and the op names they are in ariadne: one table for the reader
// (fastlin_reader.cpp) and the writer (fastlin_writer.cpp), so that what is read and
// what is written cannot drift apart.
#pragma once

#include <cstdint>
#include <string_view>

namespace ariadne::fastlin {

enum class Role : std::uint8_t { add, remove, look };

struct Method {
  std::string_view name;  // fastlin's
  std::string_view f;     // ariadne's
  Role role;
};

// Each object's methods: the add, the remove, then peek, which fastlin's queue, stack
// and priority-queue algorithms read as an operation that returns a value without
// removing it.
struct Object {
  std::string_view name;  // the header's: `# queue`
  std::string_view model;
  Method methods[3];

  constexpr const Method& add() const { return methods[0]; }
  constexpr const Method& remove() const { return methods[1]; }
  constexpr const Method& look() const { return methods[2]; }
};

inline constexpr Object kObjects[] = {
    {"queue",
     "fifo-queue",
     {{"enq", "enqueue", Role::add}, {"deq", "dequeue", Role::remove}, {"peek", "peek", Role::look}}},
    {"stack", "stack", {{"push", "push", Role::add}, {"pop", "pop", Role::remove}, {"peek", "peek", Role::look}}},
    {"priorityqueue",
     "max-priority-queue",
     {{"insert", "insert", Role::add}, {"poll", "poll", Role::remove}, {"peek", "peek", Role::look}}},
};

// fastlin's value for "the container was empty" (src/fastlin.cpp, defaultEmptyVal).
inline constexpr std::int64_t kEmptyValue = -1;

}  // namespace ariadne::fastlin
