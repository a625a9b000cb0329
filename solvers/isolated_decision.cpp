// decide_formula_isolated(): fork, solve in the child, watch it from the parent.
//
// What the child may do after fork(): the parent has other threads (the race's
// native engine, the limits watch), and only the forking thread exists in the child.
// A lock another thread held at the fork stays held in the child forever. glibc's
// allocator and stdio take their locks around fork(), so malloc, new and the solver's
// own allocations are safe; the solver back-end run here (Z3) is used by no thread of
// the parent, so none of its locks can be held. The child writes its answer with
// write(2) and leaves with _exit(2), running no atexit handler or static destructor
// of the parent's.
#include "solvers/isolated_decision.hpp"

#include "base/resident_memory.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace ariadne::solvers {

namespace {

// How often the parent looks at the limits and the child's memory while it waits.
constexpr int kPollMilliseconds = 5;

// The child's answer: one tag byte, then the tag's payload.
enum class Tag : char {
  decided = 'D',  // outcome byte, solver calls, cuts, then the linearization
  gave_up = 'R',  // std::runtime_error: a message
  bug = 'L',      // std::logic_error: a message
  out_of_memory = 'M',
};

void put_u64(std::string& out, std::uint64_t v) { out.append(reinterpret_cast<const char*>(&v), sizeof v); }

bool write_all(int fd, const std::string& bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

std::string message(Tag tag, const std::string& text) {
  std::string out(1, static_cast<char>(tag));
  put_u64(out, text.size());
  out += text;
  return out;
}

[[noreturn]] void run_child(int fd, pid_t parent, std::unique_ptr<Solver> (*make_solver)(),
                            const encoder::Formula& formula, const IsolationHooks& hooks) {
  // Die with the parent, whatever kills it; and if it died before this took effect,
  // there is no one left to answer.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(1);
  // A terminal's Ctrl-C reaches the whole process group; the parent decides what it
  // means, and kills the child if the command stops.
  ::signal(SIGINT, SIG_IGN);
  ::signal(SIGTERM, SIG_DFL);
  std::string answer;
  try {
    if (hooks.memory_ceiling > 0 && hooks.set_memory_ceiling) hooks.set_memory_ceiling(hooks.memory_ceiling);
    const std::unique_ptr<Solver> solver = make_solver();
    const FormulaDecision decision = decide_formula(*solver, formula);
    answer.push_back(static_cast<char>(Tag::decided));
    answer.push_back(static_cast<char>(decision.outcome));
    put_u64(answer, decision.solver_calls);
    put_u64(answer, decision.cuts);
    put_u64(answer, decision.linearization.size());
    answer.append(reinterpret_cast<const char*>(decision.linearization.data()),
                  decision.linearization.size() * sizeof(std::uint32_t));
  } catch (const std::bad_alloc&) {
    answer = message(Tag::out_of_memory, "");
  } catch (const std::logic_error& e) {
    answer = message(Tag::bug, e.what());
  } catch (const std::exception& e) {
    // Z3 says "out of memory" when its own ceiling is reached.
    const std::string what = e.what();
    answer =
        what.find("out of memory") != std::string::npos ? message(Tag::out_of_memory, "") : message(Tag::gave_up, what);
  } catch (...) {
    answer = message(Tag::gave_up, "an unknown exception");
  }
  ::_exit(write_all(fd, answer) ? 0 : 1);
}

// Reads what the child wrote; false once the pipe is closed.
bool drain(int fd, std::string& into) {
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n > 0) {
      into.append(buffer, static_cast<std::size_t>(n));
      continue;
    }
    if (n == 0) return false;
    if (errno == EINTR) continue;
    return errno == EAGAIN || errno == EWOULDBLOCK;
  }
}

class Reader {
 public:
  explicit Reader(const std::string& bytes) : bytes_(bytes) {}
  bool u8(std::uint8_t& v) {
    if (at_ + 1 > bytes_.size()) return false;
    v = static_cast<std::uint8_t>(bytes_[at_++]);
    return true;
  }
  bool u64(std::uint64_t& v) {
    if (at_ + sizeof v > bytes_.size()) return false;
    std::memcpy(&v, bytes_.data() + at_, sizeof v);
    at_ += sizeof v;
    return true;
  }
  bool text(std::string& v) {
    std::uint64_t n = 0;
    if (!u64(n) || at_ + n > bytes_.size()) return false;
    v = bytes_.substr(at_, n);
    at_ += n;
    return true;
  }
  bool u32s(std::vector<std::uint32_t>& v) {
    std::uint64_t n = 0;
    if (!u64(n) || n > (bytes_.size() - at_) / sizeof(std::uint32_t)) return false;
    v.resize(n);
    std::memcpy(v.data(), bytes_.data() + at_, n * sizeof(std::uint32_t));
    at_ += n * sizeof(std::uint32_t);
    return true;
  }

 private:
  const std::string& bytes_;
  std::size_t at_ = 0;
};

FormulaDecision parse_answer(const std::string& answer) {
  Reader in(answer);
  std::uint8_t tag = 0;
  if (!in.u8(tag)) throw std::runtime_error("the solver process ended without an answer");
  FormulaDecision decision;
  std::string text;
  switch (static_cast<Tag>(tag)) {
    case Tag::decided: {
      std::uint8_t outcome = 0;
      if (!in.u8(outcome) || !in.u64(decision.solver_calls) || !in.u64(decision.cuts) ||
          !in.u32s(decision.linearization)) {
        break;
      }
      decision.outcome = static_cast<search::Outcome>(outcome);
      return decision;
    }
    case Tag::out_of_memory: decision.outcome = search::Outcome::out_of_memory; return decision;
    case Tag::bug:
      if (in.text(text)) throw std::logic_error(text);
      break;
    case Tag::gave_up:
      if (in.text(text)) throw std::runtime_error(text);
      break;
  }
  throw std::runtime_error("the solver process's answer is cut short");
}

// Owns the child until it has been reaped, so that no path leaves a zombie or a
// solver running.
class Child {
 public:
  Child(pid_t pid, int fd) : pid_(pid), fd_(fd) {}
  ~Child() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      reap();
    }
    if (fd_ >= 0) ::close(fd_);
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  pid_t pid() const { return pid_; }
  int fd() const { return fd_; }
  // Waits for the child to end; its wait status.
  int reap() {
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
    return status;
  }

 private:
  pid_t pid_;
  int fd_;
};

}  // namespace

FormulaDecision decide_formula_isolated(std::unique_ptr<Solver> (*make_solver)(), const encoder::Formula& formula,
                                        const IsolationHooks& hooks) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  // What the child shares with the parent when forked is counted already (it is the
  // parent's); only what it adds is the solver's.
  const std::uint64_t shared_at_fork = base::resident_bytes();
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int error = errno;
    ::close(fds[0]);
    ::close(fds[1]);
    throw std::runtime_error(std::string("fork: ") + std::strerror(error));
  }
  if (pid == 0) {
    ::close(fds[0]);
    run_child(fds[1], parent, make_solver, formula, hooks);
  }
  ::close(fds[1]);
  ::fcntl(fds[0], F_SETFL, ::fcntl(fds[0], F_GETFL) | O_NONBLOCK);
  Child child(pid, fds[0]);

  FormulaDecision stopped;
  stopped.outcome = search::Outcome::stopped;
  std::string answer;
  for (;;) {
    pollfd ready{child.fd(), POLLIN, 0};
    const int polled = ::poll(&ready, 1, kPollMilliseconds);
    if (polled > 0 && !drain(child.fd(), answer)) break;           // the child closed the pipe
    if (hooks.should_stop && hooks.should_stop()) return stopped;  // ~Child kills it
    if (hooks.memory_ok) {
      const std::uint64_t resident = base::resident_bytes_of(child.pid());
      if (!hooks.memory_ok(resident > shared_at_fork ? resident - shared_at_fork : 0)) {
        FormulaDecision over;
        over.outcome = search::Outcome::out_of_memory;
        return over;
      }
    }
  }
  const int status = child.reap();
  if (hooks.memory_ok) hooks.memory_ok(0);
  if (answer.empty() && WIFSIGNALED(status)) {
    // Killed from outside (the kernel's OOM killer, a signal to the process group):
    // an honest give-up, unless the limits explain it.
    if (hooks.should_stop && hooks.should_stop()) return stopped;
    throw std::runtime_error("the solver process was killed by signal " + std::to_string(WTERMSIG(status)));
  }
  return parse_answer(answer);
}

}  // namespace ariadne::solvers
