;; Calls ariadne from a Jepsen test: `ariadne check DIR --model M --edn` prints one
;; EDN map shaped like a Jepsen checker's result, which a checker can merge into its
;; own. A test copies ariadne-check into its checker; this file is also a script
;; (`clojure ariadne_check.clj HISTORY MODEL`), so that the README's sample of it is
;; run by tests/readme/readme_test.py and cannot go stale.
(require '[clojure.edn :as edn] '[clojure.java.shell :refer [sh]])

(defn ariadne-check
  "Runs ariadne on a test's stored history; exit 0, 1 and 2 all carry an answer."
  [dir model]
  (let [{:keys [exit out err]} (sh "ariadne" "check" dir "--model" model "--edn")]
    (if (#{0 1 2} exit)
      (edn/read-string out)
      {:valid? :unknown, :error err})))

(let [[dir model] *command-line-args*]
  (prn (select-keys (ariadne-check dir model) [:valid? :failing-op]))
  ;; sh waits on futures, whose threads would keep the JVM alive for a minute.
  (shutdown-agents))
