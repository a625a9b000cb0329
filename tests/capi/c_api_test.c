/* The C API from C (include/ariadne/ariadne.h): compiled as C99, linked to the library.
 *
 *   c_api_test SOURCE_DIR
 *
 * Builds histories event by event and from files, checks them, reads the answers,
 * and feeds it what it must refuse. Prints a line per part and exits 0 when every
 * check holds, 1 otherwise. */
#include <ariadne/ariadne.h>

#include <stdio.h>
#include <string.h>

static int failures = 0;

#define EXPECT(condition)                                                                    \
  do {                                                                                       \
    if (!(condition)) {                                                                      \
      printf("FAIL %s:%d: %s (%s)\n", __FILE__, __LINE__, #condition, ariadne_last_error()); \
      ++failures;                                                                            \
    }                                                                                        \
  } while (0)

static void a_linearizable_register(void) {
  ariadne_history* h = ariadne_history_new();
  ariadne_result* r = NULL;
  const uint32_t* ids = NULL;
  EXPECT(h != NULL);
  EXPECT(ariadne_history_add(h, 0, ARIADNE_INVOKE, "write", "1") == ARIADNE_SUCCESS);
  EXPECT(ariadne_history_add(h, 0, ARIADNE_OK, "write", "1") == ARIADNE_SUCCESS);
  EXPECT(ariadne_history_add(h, 1, ARIADNE_INVOKE, "read", NULL) == ARIADNE_SUCCESS);
  EXPECT(ariadne_history_add(h, 1, ARIADNE_OK, "read", "1") == ARIADNE_SUCCESS);
  EXPECT(ariadne_history_size(h) == 4);
  EXPECT(ariadne_check(h, "register", NULL, NULL, &r) == ARIADNE_SUCCESS);
  EXPECT(strcmp(ariadne_result_verdict(r), "linearizable") == 0);
  /* Op ids are the invocations' positions among the events: the write is 0, the read 2. */
  EXPECT(ariadne_result_linearization(r, &ids) == 2);
  EXPECT(ids != NULL && ids[0] == 0 && ids[1] == 2);
  EXPECT(ariadne_result_core(r, NULL) == 0);
  EXPECT(ariadne_result_failing_op(r) == -1);
  printf("ok: write 1, read 1 is %s (engine %s)\n", ariadne_result_verdict(r), ariadne_result_engine(r));
  ariadne_result_free(r);
  ariadne_history_free(h);
}

static void a_stale_read_with_its_core(void) {
  ariadne_history* h = ariadne_history_new();
  ariadne_result* r = NULL;
  ariadne_check_options options;
  const uint32_t* core = NULL;
  ariadne_history_add(h, 0, ARIADNE_INVOKE, "write", "1");
  ariadne_history_add(h, 0, ARIADNE_OK, "write", "1");
  ariadne_history_add(h, 0, ARIADNE_INVOKE, "write", "2");
  ariadne_history_add(h, 0, ARIADNE_OK, "write", "2");
  ariadne_history_add(h, 1, ARIADNE_INVOKE, "read", NULL);
  ariadne_history_add(h, 1, ARIADNE_OK, "read", "1");
  ariadne_check_options_init(&options);
  options.engine = "wgl";
  options.timeout_seconds = 30;
  EXPECT(ariadne_check(h, "register", "0", &options, &r) == ARIADNE_SUCCESS);
  EXPECT(strcmp(ariadne_result_verdict(r), "not-linearizable") == 0);
  EXPECT(ariadne_result_core(r, &core) == 3);
  EXPECT(core != NULL && core[0] == 0 && core[1] == 2 && core[2] == 4);
  EXPECT(ariadne_result_core_minimal(r) == 1);
  EXPECT(ariadne_result_failing_op(r) == 4);
  EXPECT(strstr(ariadne_result_explanation(r), "read 1") != NULL);
  printf("ok: write 1, write 2, read 1 is %s, core of %zu ops\n", ariadne_result_verdict(r),
         ariadne_result_core(r, NULL));
  ariadne_result_free(r);
  ariadne_history_free(h);
}

static void keys_and_files(const char* source_dir) {
  char path[4096];
  ariadne_history* h = NULL;
  ariadne_result* r = NULL;
  ariadne_check_options options;
  snprintf(path, sizeof path, "%s/corpus/testbed/etcd-serializable-s6-register.edn", source_dir);
  EXPECT(ariadne_history_read(path, NULL, &h) == ARIADNE_SUCCESS);
  ariadne_check_options_init(&options);
  options.independent = 1;
  EXPECT(ariadne_check(h, "cas-register", NULL, &options, &r) == ARIADNE_SUCCESS);
  EXPECT(strcmp(ariadne_result_verdict(r), "not-linearizable") == 0);
  EXPECT(strcmp(ariadne_result_failing_key(r), "0") == 0);
  EXPECT(ariadne_result_key_count(r) > 30);
  EXPECT(strcmp(ariadne_result_key(r, 0), "0") == 0);
  EXPECT(strcmp(ariadne_result_key_verdict(r, 0), "not-linearizable") == 0);
  EXPECT(strcmp(ariadne_result_key(r, 100000), "") == 0);
  printf("ok: %s is %s, key %s first, %zu keys\n", path, ariadne_result_verdict(r), ariadne_result_failing_key(r),
         ariadne_result_key_count(r));
  ariadne_result_free(r);
  ariadne_history_free(h);
}

/* A harness whose threads add events late: the write's completion is added after the
 * read's invocation, but its timestamp says it returned first, so the read of the
 * initial 0 is stale. A nemesis event between keeps its place and its id. */
static ariadne_status add_timed(ariadne_history* h, int64_t process, ariadne_event_type type, const char* f,
                                const char* value, int64_t timestamp) {
  ariadne_event event;
  ariadne_event_init(&event);
  event.process = process;
  event.type = type;
  event.f = f;
  event.value_edn = value;
  event.has_timestamp = 1;
  event.timestamp = timestamp;
  return ariadne_history_add_event(h, &event);
}

static void timestamps_keys_and_other_processes(void) {
  ariadne_history* h = ariadne_history_new();
  ariadne_result* r = NULL;
  ariadne_event nemesis;
  const uint32_t* core = NULL;
  ariadne_event_init(&nemesis);
  nemesis.process_edn = ":nemesis";
  nemesis.type = ARIADNE_INFO;
  nemesis.f = "start";
  nemesis.value_edn = "\"partition\"";
  EXPECT(add_timed(h, 0, ARIADNE_INVOKE, "write", "1", 100) == ARIADNE_SUCCESS);
  EXPECT(ariadne_history_add_event(h, &nemesis) == ARIADNE_SUCCESS);
  EXPECT(add_timed(h, 1, ARIADNE_INVOKE, "read", NULL, 250) == ARIADNE_SUCCESS);
  EXPECT(add_timed(h, 0, ARIADNE_OK, "write", "1", 200) == ARIADNE_SUCCESS);
  EXPECT(add_timed(h, 1, ARIADNE_OK, "read", "0", 300) == ARIADNE_SUCCESS);
  /* Refused at the call: no timestamp in a timestamped history, one going back within
   * its process, a client's number as a non-client's process. */
  EXPECT(ariadne_history_add(h, 2, ARIADNE_INVOKE, "read", NULL) == ARIADNE_INPUT_ERROR);
  EXPECT(strstr(ariadne_last_error(), "without a timestamp") != NULL);
  EXPECT(add_timed(h, 2, ARIADNE_INVOKE, "read", NULL, 400) == ARIADNE_SUCCESS);
  EXPECT(add_timed(h, 2, ARIADNE_OK, "read", "1", 390) == ARIADNE_INPUT_ERROR);
  EXPECT(strstr(ariadne_last_error(), "history:7:1: timestamp 390 of process 2 goes back from 400") != NULL);
  nemesis.process_edn = "3";
  EXPECT(ariadne_history_add_event(h, &nemesis) == ARIADNE_USAGE_ERROR);
  nemesis.size = 1;
  EXPECT(ariadne_history_add_event(h, &nemesis) == ARIADNE_USAGE_ERROR);
  EXPECT(add_timed(h, 2, ARIADNE_OK, "read", "1", 410) == ARIADNE_SUCCESS);
  EXPECT(ariadne_history_size(h) == 7);
  EXPECT(ariadne_check(h, "register", "0", NULL, &r) == ARIADNE_SUCCESS);
  EXPECT(strcmp(ariadne_result_verdict(r), "not-linearizable") == 0);
  /* In time order: the write 0, the nemesis 1 (after the write's invocation), its :ok
   * 2, the read 3. */
  EXPECT(ariadne_result_core(r, &core) == 2);
  EXPECT(core != NULL && core[0] == 0 && core[1] == 3);
  printf("ok: by timestamps the read of 0 is %s\n", ariadne_result_verdict(r));
  ariadne_result_free(r);
  ariadne_history_free(h);

  /* Porcupine's kv: the key in its own field. */
  h = ariadne_history_new();
  {
    ariadne_event event;
    ariadne_event_init(&event);
    event.key_edn = "\"x\"";
    event.type = ARIADNE_INVOKE;
    event.f = "put";
    event.value_edn = "\"a\"";
    EXPECT(ariadne_history_add_event(h, &event) == ARIADNE_SUCCESS);
    event.type = ARIADNE_OK;
    EXPECT(ariadne_history_add_event(h, &event) == ARIADNE_SUCCESS);
    event.process = 1;
    event.type = ARIADNE_INVOKE;
    event.f = "get";
    event.value_edn = NULL;
    EXPECT(ariadne_history_add_event(h, &event) == ARIADNE_SUCCESS);
    event.type = ARIADNE_OK;
    event.value_edn = "\"\"";
    EXPECT(ariadne_history_add_event(h, &event) == ARIADNE_SUCCESS);
  }
  EXPECT(ariadne_check(h, "kv", NULL, NULL, &r) == ARIADNE_SUCCESS);
  EXPECT(strcmp(ariadne_result_verdict(r), "not-linearizable") == 0);
  printf("ok: put x a, then get x \"\" is %s\n", ariadne_result_verdict(r));
  ariadne_result_free(r);
  ariadne_history_free(h);
}

static void what_it_refuses(void) {
  ariadne_history* h = ariadne_history_new();
  ariadne_history* parsed = NULL;
  ariadne_result* r = NULL;
  ariadne_check_options options;
  const char* text = "{:type :invoke, :f :write, :value 1, :process 0}\n{:type :ok, :f :write, :value [1 ,\n";
  /* An op completed twice: refused at the call, the history unchanged. */
  EXPECT(ariadne_history_add(h, 0, ARIADNE_INVOKE, "write", "1") == ARIADNE_SUCCESS);
  EXPECT(ariadne_history_add(h, 0, ARIADNE_OK, "write", "1") == ARIADNE_SUCCESS);
  EXPECT(ariadne_history_add(h, 0, ARIADNE_OK, "write", "1") == ARIADNE_INPUT_ERROR);
  EXPECT(strstr(ariadne_last_error(), "completed twice") != NULL);
  EXPECT(ariadne_history_size(h) == 2);
  /* Two ops open at once, a completion of another op, a crashed client invoking again. */
  EXPECT(ariadne_history_add(h, 1, ARIADNE_INVOKE, "read", NULL) == ARIADNE_SUCCESS);
  EXPECT(ariadne_history_add(h, 1, ARIADNE_INVOKE, "read", NULL) == ARIADNE_INPUT_ERROR);
  EXPECT(ariadne_history_add(h, 1, ARIADNE_OK, "write", "1") == ARIADNE_INPUT_ERROR);
  EXPECT(ariadne_history_add(h, 1, ARIADNE_INFO, "read", NULL) == ARIADNE_SUCCESS);
  EXPECT(ariadne_history_add(h, 1, ARIADNE_INVOKE, "read", NULL) == ARIADNE_INPUT_ERROR);
  EXPECT(strstr(ariadne_last_error(), "fresh process id") != NULL);
  /* A value that is not EDN, an unknown event type, a missing name. */
  EXPECT(ariadne_history_add(h, 2, ARIADNE_INVOKE, "write", "[1 2") == ARIADNE_INPUT_ERROR);
  EXPECT(ariadne_history_add(h, 2, (ariadne_event_type)7, "write", "1") == ARIADNE_USAGE_ERROR);
  EXPECT(ariadne_history_add(h, 2, ARIADNE_INVOKE, NULL, "1") == ARIADNE_USAGE_ERROR);
  EXPECT(ariadne_history_add(NULL, 2, ARIADNE_INVOKE, "write", "1") == ARIADNE_USAGE_ERROR);
  EXPECT(ariadne_history_size(h) == 4);
  /* An unknown model or engine, options not made by _init. */
  EXPECT(ariadne_check(h, "no-such-model", NULL, NULL, &r) == ARIADNE_USAGE_ERROR && r == NULL);
  ariadne_check_options_init(&options);
  options.engine = "quantum";
  EXPECT(ariadne_check(h, "register", NULL, &options, &r) == ARIADNE_USAGE_ERROR);
  EXPECT(strstr(ariadne_last_error(), "quantum") != NULL);
  options.engine = NULL;
  options.size = 3;
  EXPECT(ariadne_check(h, "register", NULL, &options, &r) == ARIADNE_USAGE_ERROR);
  /* A value the model cannot read: a cas that is not [old new]. */
  EXPECT(ariadne_history_add(h, 3, ARIADNE_INVOKE, "cas", "7") == ARIADNE_SUCCESS);
  EXPECT(ariadne_history_add(h, 3, ARIADNE_OK, "cas", "7") == ARIADNE_SUCCESS);
  EXPECT(ariadne_check(h, "cas-register", NULL, NULL, &r) == ARIADNE_INPUT_ERROR && r == NULL);
  EXPECT(strstr(ariadne_last_error(), "history:") != NULL);
  /* Malformed text: the position of the fault. */
  EXPECT(ariadne_history_parse(text, strlen(text), "edn", &parsed) == ARIADNE_INPUT_ERROR && parsed == NULL);
  EXPECT(strstr(ariadne_last_error(), "<text>:3:1: unterminated vector") != NULL);
  EXPECT(ariadne_history_parse(text, strlen(text), "yaml", &parsed) == ARIADNE_USAGE_ERROR);
  EXPECT(ariadne_history_read("/nonexistent/history.edn", NULL, &parsed) == ARIADNE_INPUT_ERROR);
  printf("ok: refused what it must, e.g. \"%s\"\n", ariadne_last_error());
  ariadne_history_free(h);
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: c_api_test SOURCE_DIR\n");
    return 64;
  }
  printf("ariadne %s\n", ariadne_version());
  a_linearizable_register();
  a_stale_read_with_its_core();
  keys_and_files(argv[1]);
  timestamps_keys_and_other_processes();
  what_it_refuses();
  if (failures != 0) {
    printf("%d checks failed\n", failures);
    return 1;
  }
  printf("every check held\n");
  return 0;
}
