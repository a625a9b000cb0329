/* `ariadne check FILE --model MODEL [--independent]` through the C API, answering with
 * one line of JSON, for tests/bindings/same_answers_test.py to compare with the
 * command line, Python and Go:
 *
 *   c_check FILE MODEL [independent]
 *   {"verdict": "not-linearizable", "linearization": [], "core": [0, 2, 4], "failing_op": 4}
 *
 * Exits 0 with an answer, else with the call's status and ariadne_last_error(). */
#include <ariadne/ariadne.h>

#include <stdio.h>
#include <string.h>

static void print_ids(const char* name, size_t count, const uint32_t* ids) {
  printf("\"%s\": [", name);
  for (size_t i = 0; i < count; ++i) printf(i == 0 ? "%u" : ", %u", (unsigned)ids[i]);
  printf("]");
}

int main(int argc, char** argv) {
  ariadne_history* history = NULL;
  ariadne_result* result = NULL;
  ariadne_check_options options;
  const uint32_t* ids = NULL;
  ariadne_status status;
  size_t count;
  if (argc < 3 || argc > 4 || (argc == 4 && strcmp(argv[3], "independent") != 0)) {
    fprintf(stderr, "usage: c_check FILE MODEL [independent]\n");
    return 64;
  }
  status = ariadne_history_read(argv[1], NULL, &history);
  if (status != ARIADNE_SUCCESS) {
    fprintf(stderr, "%s\n", ariadne_last_error());
    return (int)status;
  }
  ariadne_check_options_init(&options);
  options.independent = argc == 4;
  status = ariadne_check(history, argv[2], NULL, &options, &result);
  ariadne_history_free(history);
  if (status != ARIADNE_SUCCESS) {
    fprintf(stderr, "%s\n", ariadne_last_error());
    return (int)status;
  }
  printf("{\"verdict\": \"%s\", ", ariadne_result_verdict(result));
  count = ariadne_result_linearization(result, &ids);
  print_ids("linearization", count, ids);
  printf(", ");
  count = ariadne_result_core(result, &ids);
  print_ids("core", count, ids);
  printf(", \"core_minimal\": %s", ariadne_result_core_minimal(result) ? "true" : "false");
  if (ariadne_result_failing_op(result) >= 0) {
    printf(", \"failing_op\": %lld", (long long)ariadne_result_failing_op(result));
  } else {
    printf(", \"failing_op\": null");
  }
  printf("}\n");
  ariadne_result_free(result);
  return 0;
}
