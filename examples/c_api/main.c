/* Checking a history from C: a register written twice and then read stale. */
#include <ariadne/ariadne.h>

#include <stdio.h>
#include <string.h>

int main(void) {
  ariadne_history* history = ariadne_history_new();
  ariadne_result* result = NULL;
  const uint32_t* core = NULL;
  size_t core_size = 0;
  size_t i = 0;
  if (history == NULL) return 70;
  /* process, event, op, value (EDN): write 1, write 2, then a read of 1 */
  if (ariadne_history_add(history, 0, ARIADNE_INVOKE, "write", "1") != ARIADNE_SUCCESS ||
      ariadne_history_add(history, 0, ARIADNE_OK, "write", "1") != ARIADNE_SUCCESS ||
      ariadne_history_add(history, 0, ARIADNE_INVOKE, "write", "2") != ARIADNE_SUCCESS ||
      ariadne_history_add(history, 0, ARIADNE_OK, "write", "2") != ARIADNE_SUCCESS ||
      ariadne_history_add(history, 1, ARIADNE_INVOKE, "read", NULL) != ARIADNE_SUCCESS ||
      ariadne_history_add(history, 1, ARIADNE_OK, "read", "1") != ARIADNE_SUCCESS) {
    fprintf(stderr, "c_api: %s\n", ariadne_last_error());
    return 65;
  }
  if (ariadne_check(history, "register", "0", NULL, &result) != ARIADNE_SUCCESS) {
    fprintf(stderr, "c_api: %s\n", ariadne_last_error());
    return 65;
  }
  printf("ariadne %s: %s\n", ariadne_version(), ariadne_result_verdict(result));
  core_size = ariadne_result_core(result, &core);
  for (i = 0; i < core_size; ++i) printf("core op %u\n", (unsigned)core[i]);
  if (strcmp(ariadne_result_verdict(result), "not-linearizable") != 0 || core_size != 3) return 1;
  ariadne_result_free(result);
  ariadne_history_free(history);
  return 0;
}
