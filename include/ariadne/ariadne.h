/* ariadne's C API: build a history, check it, read the answer.
 *
 *   ariadne_history* h = ariadne_history_new();
 *   ariadne_history_add(h, 0, ARIADNE_INVOKE, "write", "1");
 *   ariadne_history_add(h, 0, ARIADNE_OK, "write", "1");
 *   ariadne_history_add(h, 1, ARIADNE_INVOKE, "read", NULL);
 *   ariadne_history_add(h, 1, ARIADNE_OK, "read", "1");
 *   ariadne_result* r = NULL;
 *   if (ariadne_check(h, "register", NULL, NULL, &r) == ARIADNE_SUCCESS)
 *     printf("%s\n", ariadne_result_verdict(r));            // linearizable
 *   ariadne_result_free(r);
 *   ariadne_history_free(h);
 *
 * Plain C (C99): opaque handles, no C++ type crosses it, nothing thrown. Every call that
 * can fail returns a status (the command line's exit statuses: 64 a usage error, 65 bad
 * input, 70 a bug) and leaves a message for ariadne_last_error(). The answer is the
 * C++ library's (check() in <ariadne/check.hpp>), certified the same way before it is
 * returned: a linearizable answer's order has been replayed, a refutation comes with a
 * core. Op ids are the positions of the invocations among the events added, counting
 * from 0, as the command line counts them for the same events in a file. docs/c-api.md
 * is the tour.
 */
#ifndef ARIADNE_ARIADNE_H
#define ARIADNE_ARIADNE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* C has neither `using` nor <cstddef>: clang-tidy's C++ advice does not apply here. */
/* NOLINTBEGIN(modernize-use-using) */

/* What a call returned. The numbers are the command line's exit statuses. */
typedef enum ariadne_status {
  ARIADNE_SUCCESS = 0,
  ARIADNE_USAGE_ERROR = 64,   /* an unknown model, engine or format, a NULL handle */
  ARIADNE_INPUT_ERROR = 65,   /* a malformed value or file, an event out of sequence */
  ARIADNE_INTERNAL_ERROR = 70 /* a bug in ariadne, or memory exhausted */
} ariadne_status;

/* The last failed call's message on this thread ("" when none): what was wrong and,
 * for text, where (file:line:column). Valid until the thread's next failed call. */
const char* ariadne_last_error(void);

/* The library's version, e.g. "0.2.0". */
const char* ariadne_version(void);

/* ---- Histories ------------------------------------------------------------------ */

typedef struct ariadne_history ariadne_history;

typedef enum ariadne_event_type {
  ARIADNE_INVOKE = 0, /* the op was called */
  ARIADNE_OK = 1,     /* it completed and took effect with this result */
  ARIADNE_FAIL = 2,   /* it completed and certainly took no effect */
  ARIADNE_INFO = 3    /* nobody knows: it may take effect at any later time, or never */
} ariadne_event_type;

/* An empty history; NULL when memory is exhausted. */
ariadne_history* ariadne_history_new(void);

/* Appends one event of a client process, in real-time order: an event added after
 * another happened after it. `f` names the op ("read", "write", "cas", "enqueue"...);
 * `value_edn` is its value as EDN text ("1", "[1 2]", ":x", "\"text\"", "#{1 2}"; NULL
 * or "nil" for nil): what an invocation asks, what a completion returned. A process
 * has at most one op open: an invocation while one is open, an ARIADNE_OK or
 * ARIADNE_FAIL with none open (an op completed twice), a completion of another `f`,
 * is refused (ARIADNE_INPUT_ERROR) by the readers' own rules, and the history is left
 * as it was; an ARIADNE_INFO with none open is a note, left out as in a file. So is a
 * value that is not EDN refused. A process after an ARIADNE_INFO is still
 * open as far as the model is concerned, and may not invoke again (Jepsen gives the
 * client a new process number). */
ariadne_status ariadne_history_add(ariadne_history* history, int64_t process, ariadne_event_type type, const char* f,
                                   const char* value_edn);

/* An event with everything a file's event may carry, for ariadne_history_add_event. */
typedef struct ariadne_event {
  size_t size;             /* sizeof(ariadne_event): set by ariadne_event_init */
  int64_t process;         /* the client's number */
  const char* process_edn; /* or, when not NULL, a process that is no client, as EDN
                            * (":nemesis", "\"n1\""; never an integer) */
  ariadne_event_type type;
  const char* f;         /* the op's name; may be NULL for a process that is no client */
  const char* value_edn; /* NULL: nil */
  const char* key_edn;   /* Porcupine's :key, which the kv model reads; NULL: none */
  int has_timestamp;     /* 1: `timestamp` holds when the event happened */
  int64_t timestamp;     /* on one clock, any unit (nanoseconds of CLOCK_MONOTONIC) */
} ariadne_event;

/* An event of client 0 with everything else NULL, nil or 0. */
void ariadne_event_init(ariadne_event* event);

/* Appends `event`, held to the rules ariadne_history_add holds, and these:
 * - A process that is no client (`process_edn`): its event takes no part in the check,
 *   as in a file, but keeps its place, so op ids count it as a file's would. Its
 *   invoke, ok and fail events are counted for a warning that they look like a
 *   client's.
 * - Timestamps: for a harness whose threads add events some time after they happen,
 *   so that the order of the calls is not real time. The history's real time is then
 *   the timestamps' order, ties in the order added, and op ids are positions in that
 *   order (docs/formats.md, "Timestamps"). Every client event has a timestamp or none
 *   has: the first decides, and an event of the other kind is refused
 *   (ARIADNE_INPUT_ERROR), as is a timestamp below the same process's previous one. A
 *   process's own events still come in their order, so an op completed twice is
 *   refused at the call that completes it again. An event of a process that is no
 *   client may go without one: it keeps its place after the event added before it. */
ariadne_status ariadne_history_add_event(ariadne_history* history, const ariadne_event* event);

/* The events added so far. */
size_t ariadne_history_size(const ariadne_history* history);

/* Reads a history from text or from a file, in any format the command line reads
 * ("edn", "jepsen-log", "porcupine-kv", "json"; NULL or "auto" to detect it). On
 * success *out is a new history; on failure it is NULL. */
ariadne_status ariadne_history_parse(const char* text, size_t length, const char* format, ariadne_history** out);
ariadne_status ariadne_history_read(const char* path, const char* format, ariadne_history** out);

void ariadne_history_free(ariadne_history* history);

/* ---- Checking --------------------------------------------------------------------- */

typedef struct ariadne_check_options {
  size_t size;                 /* sizeof(ariadne_check_options): set by _init */
  double timeout_seconds;      /* 0: no limit; past it the answer is unknown */
  uint64_t memory_limit_bytes; /* search memory; 0: the command line's default (2 GiB) */
  const char* engine;          /* NULL or "auto", "wgl", "jit", "sat", "smt", "brute", ... */
  const char* consistency;     /* NULL or "linearizable", "sequential", "sequential-per-key" */
  int independent;             /* values are [key value] tuples: each key its own history */
  unsigned jobs;               /* threads at once; 0: the CPUs the process may run on */
  int minimal_core;            /* not linearizable: shrink the core to a minimal one (default 1) */
} ariadne_check_options;

/* The defaults: what `ariadne check` does with no option. */
void ariadne_check_options_init(ariadne_check_options* options);

typedef struct ariadne_result ariadne_result;

/* Decides `history` under the model `model_spec` ("cas-register", "cas-register(0)",
 * "kv", "independent(register)"...; `ariadne check --help` lists them), its initial
 * state `init_edn` (NULL: the spec's). `options` NULL means the defaults. On success
 * *out is the answer, which may be "unknown" (a limit was reached); a history that does
 * not fit the model (a value the model cannot read) is ARIADNE_INPUT_ERROR. */
ariadne_status ariadne_check(const ariadne_history* history, const char* model_spec, const char* init_edn,
                             const ariadne_check_options* options, ariadne_result** out);

/* "linearizable", "not-linearizable" or "unknown" (under --consistency sequential:
 * "sequentially-consistent", "not-sequentially-consistent"). */
const char* ariadne_result_verdict(const ariadne_result* result);

/* Linearizable: the ops in an order that explains every result (op ids); *ids points
 * into the result and lives as long as it. Returns the count. */
size_t ariadne_result_linearization(const ariadne_result* result, const uint32_t** ids);

/* Not linearizable: the core, op ids ascending, that no order explains whatever the
 * other ops did; whether it is minimal (dropping any op of it would explain it). */
size_t ariadne_result_core(const ariadne_result* result, const uint32_t** ids);
int ariadne_result_core_minimal(const ariadne_result* result);

/* Not linearizable: the op whose completion no order of what came before explains
 * (Knossos' failing op), or -1 when it was not found. */
int64_t ariadne_result_failing_op(const ariadne_result* result);

/* Plain words: why not linearizable, which key failed ("" when not keyed), why
 * unknown, and the engine that answered. Never NULL; live as long as the result. */
const char* ariadne_result_explanation(const ariadne_result* result);
/* Not linearizable: the violation in one sentence, naming ops by id ("" otherwise). */
const char* ariadne_result_why(const ariadne_result* result);
const char* ariadne_result_failing_key(const ariadne_result* result);
const char* ariadne_result_reason(const ariadne_result* result);
const char* ariadne_result_engine(const ariadne_result* result);

/* Independent keys (kv, --independent): each key as EDN text and its own verdict. */
size_t ariadne_result_key_count(const ariadne_result* result);
const char* ariadne_result_key(const ariadne_result* result, size_t index);
const char* ariadne_result_key_verdict(const ariadne_result* result, size_t index);

void ariadne_result_free(ariadne_result* result);

/* NOLINTEND(modernize-use-using) */

#ifdef __cplusplus
}
#endif

#endif /* ARIADNE_ARIADNE_H */
