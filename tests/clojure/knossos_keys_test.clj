;; Reads `check --edn`'s answer on rethink-fail-minimal.edn with clojure.edn and
;; checks it key by key (knossos_keys_test.sh runs it). Prints each failed check and
;; exits 1 if there was one.
(require '[clojure.edn :as edn] '[clojure.string :as str])

(def text (slurp (first *command-line-args*)))
(def answer (edn/read-string text))
(def failures (atom 0))

(defn expect [what ok? shown]
  (if ok?
    (println "ok    " what)
    (do (swap! failures inc)
        (println "FAILED" what "- got" (pr-str shown)))))

;; Knossos' own answer on this file (wgl and linear alike): the completion ops.
(expect ":valid? false" (false? (:valid? answer)) (:valid? answer))
(expect ":op is Knossos' :op"
        (= (:op answer) {:process 1, :type :ok, :f :read, :value 3, :index 4})
        (:op answer))
(expect ":previous-ok is Knossos' :previous-ok"
        (= (:previous-ok answer) {:process 0, :type :ok, :f :write, :value 0, :index 1})
        (:previous-ok answer))
(expect ":analyzer :ariadne" (= :ariadne (:analyzer answer)) (:analyzer answer))

;; ariadne's own keys, which scripts read, stay as they were: the failing op as its
;; invocation, :index the op id.
(expect ":failing-op is the invocation, :index 2"
        (= (:failing-op answer) {:process 1, :type :ok, :f :read, :value 3, :index 2})
        (:failing-op answer))
(expect ":core holds the failing op"
        (some #(= 2 (:index %)) (:core answer)) (:core answer))
(doseq [k [:explanation :engine :model :file]]
  (expect (str k " is a string") (string? (get answer k)) (get answer k)))
(expect ":core-minimal? is a boolean" (boolean? (:core-minimal? answer)) (:core-minimal? answer))

;; Every double: read as a double, and printed in the fewest significant digits that
;; give it back (0.204605, not the 0.20460500000000001 of %.17g).
(defn doubles-in [x]
  (cond (double? x) [x]
        (map? x) (mapcat doubles-in (concat (keys x) (vals x)))
        (coll? x) (mapcat doubles-in x)
        :else []))

(defn significant-digits [token]
  (let [mantissa (first (str/split (str/replace token #"^[-+]" "") #"[eE]"))
        digits (str/replace mantissa "." "")
        digits (str/replace digits #"^0+" "")
        digits (str/replace digits #"0+$" "")]
    (max 1 (count digits))))

;; The fewest significant digits n for which d printed with n digits reads back as d.
(defn shortest [d]
  (first (filter (fn [n] (= d (Double/parseDouble (format (str "%." (dec n) "e") d))))
                 (range 1 18))))

;; Number tokens outside strings: the answer's strings (the explanation) may hold
;; digits of their own.
(def tokens
  (->> (str/replace text #"\"(\\.|[^\"\\])*\"" "\"\"")
       (re-seq #"[-+]?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?")
       (map first)
       (filter #(re-find #"[.eE]" %))))

(expect ":elapsed-ms is a double" (double? (:elapsed-ms answer)) (:elapsed-ms answer))
(expect "every double printed is read as one"
        (= (count tokens) (count (doubles-in answer)))
        [tokens (doubles-in answer)])
(doseq [token tokens]
  (let [d (Double/parseDouble token)]
    (expect (str token " reads back as the double it names")
            (some #(= d %) (doubles-in answer)) token)
    (expect (str token " has the fewest digits that give its double back ("
                 (shortest d) ")")
            (= (significant-digits token) (shortest d)) token)))

(flush)
(System/exit (if (zero? @failures) 0 1))
