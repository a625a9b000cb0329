// The C API (include/ariadne/ariadne.h) over the C++ library: handles that own C++
// objects, every exception turned into a status and a message, nothing thrown across.
#include <ariadne/ariadne.h>
#include <ariadne/check.hpp>

#include "history/edn_reader.hpp"
#include "history/history_builder.hpp"
#include "history/timestamp_order.hpp"

#include <cstdint>
#include <exception>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

struct ariadne_history {
  // The events, kept so that the history can be checked under any model, any number of
  // times (a History is built per check, as from a file).
  ariadne::EventLog log;
  // The readers' own pairing of events into operations (history/history_builder.hpp),
  // fed each event as it is added, so that an event out of sequence is refused at the
  // call that adds it, by the same rules and in the same words as in a file. It keeps
  // no operation (keep_only) and is never finished: its model, which only finish()
  // consults, is a placeholder.
  std::unique_ptr<ariadne::Model> sequencing_model = ariadne::make_model_from_spec("register");
  ariadne::HistoryBuilder sequencer;
  // Timestamps on every event or none, never going back within a process: held at the
  // call too. With timestamps, build_history() orders the events by them.
  ariadne::TimestampRules timestamps;
  // Reads the values given as EDN text, one reader for them all (edn::Reader::restart):
  // building one (its interning tables) costs ten times what reading a short value does.
  ariadne::edn::Reader values{"", ""};

  explicit ariadne_history(const std::string& source) : sequencer(source, *sequencing_model), timestamps(source) {
    log.source = source;
    sequencer.keep_only([](const ariadne::Operation&) { return false; });
  }
};

struct ariadne_result {
  ariadne::CheckResult result;
  std::string verdict;
  std::string failing_key;
  std::vector<std::string> keys;
  std::vector<std::string> key_verdicts;
};

namespace {

thread_local std::string last_error;

// What the sequencer needs of an event: its process, type, name and place. The value
// is left out, since pairing events never looks at it, and copying it for nothing
// would cost an allocation an event.
ariadne::Event for_sequencing(const ariadne::Event& event) {
  ariadne::Event copy;
  copy.process = event.process;
  copy.type = event.type;
  copy.f = event.f;
  copy.pos = event.pos;
  return copy;
}

// Runs `body`, turning what it throws into a status and this thread's message.
template <typename Body>
ariadne_status guarded(Body&& body) {
  try {
    body();
    return ARIADNE_SUCCESS;
  } catch (const ariadne::InputError& e) {
    last_error = e.what();
    return ARIADNE_INPUT_ERROR;
  } catch (const ariadne::UsageError& e) {
    last_error = e.what();
    return ARIADNE_USAGE_ERROR;
  } catch (const std::bad_alloc&) {
    last_error = "out of memory";
    return ARIADNE_INTERNAL_ERROR;
  } catch (const std::exception& e) {
    last_error = std::string("internal error (a bug: please report it): ") + e.what();
    return ARIADNE_INTERNAL_ERROR;
  } catch (...) {
    last_error = "internal error (a bug: please report it): unknown exception";
    return ARIADNE_INTERNAL_ERROR;
  }
}

ariadne_status usage(const std::string& message) {
  last_error = message;
  return ARIADNE_USAGE_ERROR;
}

std::optional<ariadne::Format> format_named(const char* name) {
  if (name == nullptr) return ariadne::Format::auto_detect;
  return ariadne::parse_format(name);
}

// A history read from text: its events as read, each also through the sequencer, so
// that a fault in the text is reported here, and events added later are held to what
// came before.
void read_into(ariadne::EventLog log, ariadne_history** out) {
  auto history = std::make_unique<ariadne_history>(log.source);
  for (const ariadne::Event& event : log.events) {
    history->sequencer.add(for_sequencing(event));
    history->timestamps.note(event);
  }
  history->log = std::move(log);
  *out = history.release();
}

}  // namespace

extern "C" {

const char* ariadne_last_error(void) { return last_error.c_str(); }

const char* ariadne_version(void) { return ARIADNE_VERSION; }

ariadne_history* ariadne_history_new(void) {
  try {
    return new ariadne_history("history");
  } catch (...) {
    last_error = "out of memory";
    return nullptr;
  }
}

}  // extern "C"

namespace {

// Adds `given` to `history`, naming `function` in messages about the call itself.
ariadne_status add_event(const char* function, ariadne_history* history, const ariadne_event& given) {
  if (history == nullptr) return usage(std::string(function) + ": the history is NULL");
  if (given.type < ARIADNE_INVOKE || given.type > ARIADNE_INFO) {
    return usage(std::string(function) + ": the event type " + std::to_string(static_cast<int>(given.type)) +
                 " is none of ARIADNE_INVOKE, ARIADNE_OK, ARIADNE_FAIL, ARIADNE_INFO");
  }
  const bool client = given.process_edn == nullptr;
  if (client && (given.f == nullptr || *given.f == '\0')) {
    return usage(std::string(function) + ": the op's name `f` is NULL or empty");
  }
  const std::size_t position = history->log.events.size();
  return guarded([&] {
    // A fault names the value and its event ("the value of history event 7:1:5"): the
    // name is made only then, not for each of the values that read fine.
    const auto read_value = [&](const char* text, const char* what) {
      history->values.restart(text, ariadne::SourcePos{1, 1});
      try {
        return ariadne::edn::read_single_value(history->values);
      } catch (const ariadne::InputError& e) {
        throw ariadne::InputError(std::string(what) + " of history event " + std::to_string(position + 1), e.pos(),
                                  e.message());
      }
    };
    ariadne::Event event;
    // Messages about an event added here name it as line N of "history", N its
    // 1-based position among the events.
    event.pos = {static_cast<std::uint32_t>(position + 1), 1};
    if (client) {
      event.process = ariadne::Value::integer(given.process);
    } else {
      event.process = read_value(given.process_edn, "the process");
      if (event.process.is_integer() || event.process.kind() == ariadne::Value::Kind::big_integer) {
        throw ariadne::UsageError(std::string(function) + ": process_edn " + event.process.to_edn() +
                                  " is a client's number: set `process` instead");
      }
    }
    event.type = static_cast<ariadne::EventType>(given.type);
    event.f = given.f == nullptr ? "" : given.f;
    if (given.value_edn != nullptr) event.value = read_value(given.value_edn, "the value");
    if (given.key_edn != nullptr) event.key = read_value(given.key_edn, "the key");
    if (given.has_timestamp != 0) event.timestamp = given.timestamp;
    // The readers' rules, at the call that breaks them: each throws InputError and
    // keeps its state, so the history is as it was. The sequencer's rules are per
    // process, and a process's timestamps never go back, so holding them in the order
    // of the calls is holding them in time order.
    history->timestamps.check(event);
    history->sequencer.add(for_sequencing(event));
    history->timestamps.note(event);
    history->log.events.push_back(std::move(event));
  });
}

}  // namespace

extern "C" {

ariadne_status ariadne_history_add(ariadne_history* history, std::int64_t process, ariadne_event_type type,
                                   const char* f, const char* value_edn) {
  ariadne_event event;
  ariadne_event_init(&event);
  event.process = process;
  event.type = type;
  event.f = f;
  event.value_edn = value_edn;
  return add_event("ariadne_history_add", history, event);
}

void ariadne_event_init(ariadne_event* event) {
  if (event == nullptr) return;
  *event = ariadne_event{};
  event->size = sizeof(ariadne_event);
}

ariadne_status ariadne_history_add_event(ariadne_history* history, const ariadne_event* event) {
  if (event == nullptr) return usage("ariadne_history_add_event: the event is NULL");
  if (event->size != sizeof(ariadne_event)) {
    return usage("ariadne_history_add_event: the event was not made by ariadne_event_init (size " +
                 std::to_string(event->size) + ", expected " + std::to_string(sizeof(ariadne_event)) + ")");
  }
  return add_event("ariadne_history_add_event", history, *event);
}

size_t ariadne_history_size(const ariadne_history* history) {
  return history == nullptr ? 0 : history->log.events.size();
}

ariadne_status ariadne_history_parse(const char* text, size_t length, const char* format, ariadne_history** out) {
  if (out == nullptr) return usage("ariadne_history_parse: `out` is NULL");
  *out = nullptr;
  if (text == nullptr && length > 0) return usage("ariadne_history_parse: the text is NULL");
  const auto parsed_format = format_named(format);
  if (!parsed_format) return usage(std::string("ariadne_history_parse: unknown format '") + format + "'");
  return guarded([&] {
    read_into(ariadne::parse_events(std::string_view(text == nullptr ? "" : text, length), "<text>", *parsed_format),
              out);
  });
}

ariadne_status ariadne_history_read(const char* path, const char* format, ariadne_history** out) {
  if (out == nullptr) return usage("ariadne_history_read: `out` is NULL");
  *out = nullptr;
  if (path == nullptr) return usage("ariadne_history_read: the path is NULL");
  const auto parsed_format = format_named(format);
  if (!parsed_format) return usage(std::string("ariadne_history_read: unknown format '") + format + "'");
  return guarded([&] { read_into(ariadne::read_events(path, *parsed_format), out); });
}

void ariadne_history_free(ariadne_history* history) { delete history; }

void ariadne_check_options_init(ariadne_check_options* options) {
  if (options == nullptr) return;
  *options = ariadne_check_options{};
  options->size = sizeof(ariadne_check_options);
  options->minimal_core = 1;
}

ariadne_status ariadne_check(const ariadne_history* history, const char* model_spec, const char* init_edn,
                             const ariadne_check_options* options, ariadne_result** out) {
  if (out == nullptr) return usage("ariadne_check: `out` is NULL");
  *out = nullptr;
  if (history == nullptr) return usage("ariadne_check: the history is NULL");
  if (model_spec == nullptr) return usage("ariadne_check: the model is NULL");
  ariadne_check_options defaults;
  ariadne_check_options_init(&defaults);
  if (options == nullptr) options = &defaults;
  if (options->size != sizeof(ariadne_check_options)) {
    return usage("ariadne_check: the options were not made by ariadne_check_options_init (size " +
                 std::to_string(options->size) + ", expected " + std::to_string(sizeof(ariadne_check_options)) + ")");
  }
  ariadne::CheckOptions check_options;
  if (options->engine != nullptr) {
    const auto engine = ariadne::parse_engine(options->engine);
    if (!engine) {
      return usage(std::string("ariadne_check: unknown engine '") + options->engine + "'; expected one of " +
                   std::string(ariadne::engine_names_listed()));
    }
    check_options.engine = *engine;
  }
  if (options->consistency != nullptr) {
    const auto consistency = ariadne::parse_consistency(options->consistency);
    if (!consistency) {
      return usage(std::string("ariadne_check: unknown consistency '") + options->consistency +
                   "'; expected linearizable, sequential or sequential-per-key");
    }
    check_options.consistency = *consistency;
  }
  if (options->timeout_seconds < 0) return usage("ariadne_check: the timeout is negative");
  check_options.timeout_seconds = options->timeout_seconds;
  if (options->memory_limit_bytes != 0) check_options.memory_limit = options->memory_limit_bytes;
  check_options.jobs = options->jobs;
  check_options.minimal_core = options->minimal_core != 0;
  return guarded([&] {
    std::unique_ptr<ariadne::Model> model =
        init_edn == nullptr
            ? ariadne::make_model_from_spec(model_spec)
            : ariadne::make_model_from_spec(model_spec, ariadne::parse_edn_value(init_edn, "the initial state"));
    if (options->independent != 0 && ariadne::independent_inner_model(*model) == nullptr) {
      model = ariadne::make_independent_model(std::move(model));
    }
    const ariadne::History built = ariadne::build_history(history->log, *model);
    auto answer = std::make_unique<ariadne_result>();
    answer->result = ariadne::check(built, *model, check_options);
    answer->verdict = std::string(ariadne::verdict_name(answer->result.verdict, answer->result.consistency));
    answer->failing_key = answer->result.failing_partition;
    for (const ariadne::KeyResult& key : answer->result.keys) {
      answer->keys.push_back(key.key.to_edn());
      answer->key_verdicts.emplace_back(ariadne::verdict_name(key.verdict, answer->result.consistency));
    }
    *out = answer.release();
  });
}

const char* ariadne_result_verdict(const ariadne_result* result) {
  return result == nullptr ? "" : result->verdict.c_str();
}

size_t ariadne_result_linearization(const ariadne_result* result, const std::uint32_t** ids) {
  if (result == nullptr) return 0;
  if (ids != nullptr) *ids = result->result.linearization.data();
  return result->result.linearization.size();
}

size_t ariadne_result_core(const ariadne_result* result, const std::uint32_t** ids) {
  if (result == nullptr) return 0;
  if (ids != nullptr) *ids = result->result.core.data();
  return result->result.core.size();
}

int ariadne_result_core_minimal(const ariadne_result* result) {
  return result != nullptr && result->result.core_minimal ? 1 : 0;
}

int64_t ariadne_result_failing_op(const ariadne_result* result) {
  if (result == nullptr || !result->result.failing_op) return -1;
  return static_cast<std::int64_t>(*result->result.failing_op);
}

const char* ariadne_result_explanation(const ariadne_result* result) {
  return result == nullptr ? "" : result->result.explanation.c_str();
}

const char* ariadne_result_why(const ariadne_result* result) {
  return result == nullptr ? "" : result->result.why.c_str();
}

const char* ariadne_result_failing_key(const ariadne_result* result) {
  return result == nullptr ? "" : result->failing_key.c_str();
}

const char* ariadne_result_reason(const ariadne_result* result) {
  return result == nullptr ? "" : result->result.reason.c_str();
}

const char* ariadne_result_engine(const ariadne_result* result) {
  return result == nullptr ? "" : result->result.engine.c_str();
}

size_t ariadne_result_key_count(const ariadne_result* result) { return result == nullptr ? 0 : result->keys.size(); }

const char* ariadne_result_key(const ariadne_result* result, size_t index) {
  return result == nullptr || index >= result->keys.size() ? "" : result->keys[index].c_str();
}

const char* ariadne_result_key_verdict(const ariadne_result* result, size_t index) {
  return result == nullptr || index >= result->key_verdicts.size() ? "" : result->key_verdicts[index].c_str();
}

void ariadne_result_free(ariadne_result* result) { delete result; }

}  // extern "C"
