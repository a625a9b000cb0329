"""A Python test harness: record the history as the test runs, then ask ariadne."""
import ariadne

h = ariadne.History()
h.invoke(0, "write", 1).ok(0, "write", 1)  # process 0 writes 1, then 2
h.invoke(0, "write", 2).ok(0, "write", 2)
h.invoke(1, "read").ok(1, "read", 1)  # then process 1 reads 1: stale

result = ariadne.check(h, model="register", init=0, timeout=10)
print(result.verdict, result.core)  # op ids: positions of the invocations
print(result.explanation)
