;; knossos-harness: runs Knossos (Jepsen's linearizability checker) on the rows
;; of an ariadne corpus `expected.tsv` and prints one EDN map per (row,
;; analyzer). Written for ariadne against Knossos' public namespaces; Knossos
;; itself is not part of this tree: it is a dependency (README.md, "Setup").
;;
;;   clojure -Sdeps "$DEPS" -M knossos_harness.clj --tsv expected.tsv [options]
;;
;; Run with --help for the options.
(ns ariadne.knossos-harness
  (:require [clojure.edn :as edn]
            [clojure.java.io :as io]
            [clojure.string :as str]
            [clojure.tools.cli :as cli]
            [knossos.cli :as kcli]
            [knossos.model :as model]
            [knossos.search :as search]
            [knossos.wgl :as wgl]
            [knossos.linear :as linear]
            [multiset.core :as multiset])
  (:import (clojure.lang PersistentQueue)
           (java.util.logging Level Logger)
           (knossos.model Model)))

;; ---------------------------------------------------------------------------
;; Models the harness adds (Knossos has none for these corpora's etcd and kv).
;; Knossos memoizes a model from each op's :f and :value only, so everything a
;; step needs must be in those two fields.

(def absent
  "What an etcd read of nil (key absent) is rewritten to. A read whose value
  stays nil is a crashed read, which Knossos' models treat as unknown."
  ::absent)

(defrecord EtcdRegister [value]         ; value nil = the key is absent
  Model
  (step [r op]
    (let [v (:value op)]
      (case (:f op)
        :write (EtcdRegister. v)
        :cas (let [[cur new] v]
               (if (= cur value)
                 (EtcdRegister. new)
                 (model/inconsistent
                   (str "can't CAS " (pr-str value) " from " (pr-str cur)
                        " to " (pr-str new)))))
        ;; a failed cas observed that the register did not hold `cur`
        :cas-failed (let [[cur _] v]
                      (if (= cur value)
                        (model/inconsistent
                          (str "cas from " (pr-str cur) " failed, yet the"
                               " register held " (pr-str value)))
                        r))
        :read (cond (nil? v) r
                    (= v absent) (if (nil? value)
                                   r
                                   (model/inconsistent
                                     (str "can't read nil from register "
                                          (pr-str value))))
                    (= v value) r
                    :else (model/inconsistent
                            (str "can't read " (pr-str v) " from register "
                                 (pr-str value))))
        (model/inconsistent (str "unknown :f " (pr-str (:f op)))))))
  Object
  (toString [_] (pr-str value)))

(defrecord KV [m]                       ; key -> string; a missing key is ""
  Model
  (step [this op]
    (let [[k v] (:value op)
          cur   (get m k "")]
      (case (:f op)
        :get    (if (or (nil? v) (= v cur))
                  this
                  (model/inconsistent
                    (str "can't get " (pr-str v) " from key " (pr-str k)
                         " holding " (pr-str cur))))
        :put    (KV. (assoc m k v))
        :append (KV. (assoc m k (str cur v)))
        (model/inconsistent (str "unknown :f " (pr-str (:f op)))))))
  Object
  (toString [_] (pr-str m)))

;; History rewrites for the harness models. They work on Knossos' parsed
;; history (a vector of knossos.op.Op records) and keep every event in place.

(defn- pair-rewrite
  "Calls (f history i j) for every completion i whose invocation is j (nil if
  none is open), and returns the rewritten history."
  [history f]
  (loop [i 0, open {}, h history]
    (if (= i (count h))
      h
      (let [op (nth h i)
            p  (:process op)]
        (case (:type op)
          :invoke (recur (inc i) (assoc open p i) h)
          (recur (inc i) (dissoc open p) (f h i (get open p))))))))

(defn etcd-history
  "Rewrites a Jepsen etcd history for the harness' etcd model (mode :exact)
  or for (cas-register -1) (mode :cas-register): an :ok read of nil means
  'absent'; a failed read (Jepsen's `:fail :read :timed-out`) gets its
  invocation's value so that Knossos drops it as it drops every :fail; in
  :exact mode a failed cas becomes an :ok :cas-failed, an observation."
  [mode history]
  (pair-rewrite
    history
    (fn [h i j]
      (let [op (nth h i)]
        (cond
          (and (= :ok (:type op)) (= :read (:f op)) (nil? (:value op)))
          (assoc h i (assoc op :value (if (= mode :exact) absent -1)))

          (and j (= :fail (:type op)) (= :read (:f op)))
          (assoc h i (assoc op :value (:value (nth h j))))

          (and j (= mode :exact) (= :fail (:type op)) (= :cas (:f op)))
          (-> h
              (assoc j (assoc (nth h j) :f :cas-failed))
              (assoc i (assoc op :type :ok :f :cas-failed)))

          :else h)))))

(defn info-values-from-invocations
  "Gives every :info completion its invocation's :value (the --info-values
  invocation option). Old Jepsen logs write `:timed-out` there; Knossos'
  search ignores an :info's value, but its counterexample report looks the
  :info op up among the invocations' transitions and fails when it is not one."
  [history]
  (pair-rewrite history
                (fn [h i j]
                  (let [op (nth h i)]
                    (if (and j (= :info (:type op)))
                      (assoc h i (assoc op :value (:value (nth h j))))
                      h)))))

(defn kv-history
  "Folds each op's :key into its :value ([key value]), since Knossos' search
  sees only :f and :value; an :ok get of nil read the empty string."
  [history]
  (mapv (fn [op]
          (if (contains? op :key)
            (let [v (if (and (= :ok (:type op)) (= :get (:f op))
                             (nil? (:value op)))
                      ""
                      (:value op))]
              (-> op (dissoc :key) (assoc :value [(:key op) v])))
            op))
        history))

;; ---------------------------------------------------------------------------
;; Model specs: `name` or `name(edn-argument)`, as in ariadne's expected.tsv.

(defn- empty-arg? [arg] (or (nil? arg) (and (coll? arg) (empty? arg))))

(defn model-for
  "Returns {:model m :knossos-model \"...\" :rewrite f} for a spec string, or
  {:skipped \"reason\"}."
  [spec {:keys [etcd kv]}]
  (let [[_ nm argstr] (re-matches #"\s*([A-Za-z][A-Za-z0-9_-]*)\s*(?:\((.*)\))?\s*" spec)
        parsed (when nm
                 (try {:arg (when-not (str/blank? argstr)
                              (edn/read-string argstr))
                       :has-arg (not (str/blank? argstr))}
                      (catch Exception e
                        {:error (str "cannot read the model's argument "
                                     (pr-str argstr) ": " (.getMessage e))})))
        {:keys [arg has-arg error]} parsed
        no-arg (fn [label]
                 (if has-arg
                   {:skipped (str label " takes no argument in Knossos")}
                   nil))]
    (cond
      (nil? nm)  {:skipped (str "unreadable model spec " (pr-str spec))}
      error      {:skipped error}
      :else
      (case nm
        "register"
        (if has-arg
          {:model (model/register arg) :knossos-model (str "(register " (pr-str arg) ")")}
          {:model (model/register) :knossos-model "(register)"})

        "cas-register"
        (if has-arg
          {:model (model/cas-register arg) :knossos-model (str "(cas-register " (pr-str arg) ")")}
          {:model (model/cas-register) :knossos-model "(cas-register)"})

        "mutex"
        (or (no-arg "mutex") {:model (model/mutex) :knossos-model "(mutex)"})

        "multi-register"
        (let [m (or arg {})]
          (if (map? m)
            {:model (model/multi-register m) :knossos-model (str "(multi-register " (pr-str m) ")")}
            {:skipped "multi-register needs a map of initial values"}))

        "set"
        (cond (empty-arg? arg) {:model (model/set) :knossos-model "(set)"}
              (coll? arg) {:model (model/->Set (into #{} arg))
                           :knossos-model (str "(->Set " (pr-str (into #{} arg)) ")")}
              :else {:skipped "set needs a collection of initial elements"})

        "unordered-queue"
        (cond (empty-arg? arg) {:model (model/unordered-queue) :knossos-model "(unordered-queue)"}
              (sequential? arg) {:model (model/->UnorderedQueue (apply multiset/multiset arg))
                                 :knossos-model (str "(->UnorderedQueue (multiset " (str/join " " (map pr-str arg)) "))")}
              :else {:skipped "unordered-queue needs a vector of initial elements"})

        "fifo-queue"
        (cond (empty-arg? arg) {:model (model/fifo-queue) :knossos-model "(fifo-queue)"}
              (sequential? arg) {:model (model/->FIFOQueue (into PersistentQueue/EMPTY arg))
                                 :knossos-model (str "(->FIFOQueue (into PersistentQueue/EMPTY " (pr-str (vec arg)) "))")}
              :else {:skipped "fifo-queue needs a vector of initial elements"})

        ("etcd" "etcd-register-cas")
        (cond has-arg {:skipped "etcd takes no argument"}
              (= etcd :skip) {:skipped "etcd: skipped by --etcd skip"}
              (= etcd :cas-register) {:model (model/cas-register -1)
                                      :knossos-model "(cas-register -1)"
                                      :rewrite (partial etcd-history :cas-register)}
              :else {:model (EtcdRegister. nil)
                     :knossos-model "(harness/etcd-register)"
                     :rewrite (partial etcd-history :exact)})

        "kv"
        (cond (= kv :skip) {:skipped "Knossos has no key-value (get/put/append) model; --kv skip"}
              (not (or (nil? arg) (map? arg))) {:skipped "kv needs a map of initial strings"}
              :else {:model (KV. (or arg {}))
                     :knossos-model (str "(harness/kv " (pr-str (or arg {})) ")")
                     :rewrite kv-history})

        "stack" {:skipped "Knossos has no stack model"}
        "independent" {:skipped "Knossos has no per-key (independent) checker; jepsen.independent is part of Jepsen"}
        {:skipped (str "Knossos has no model " (pr-str nm))}))))

;; ---------------------------------------------------------------------------
;; Running one analyzer under a real wall-clock limit.

(def ^:private run-thread-name "knossos-harness-run")

(def ^:private current-result
  "The promise of the run in progress, so that an exception that kills a
  Knossos worker thread (knossos.linear's worker catches only interrupts) ends
  the run at once instead of at the limit."
  (atom nil))

(defn- error-string [^Throwable t]
  (let [msg (str (.getName (class t)) ": " (or (.getMessage t) ""))]
    (if (> (count msg) 2000) (str (subs msg 0 2000) "...") msg)))

(defn- log [& xs]
  (binding [*out* *err*]
    (println (str/join " " xs))
    (flush)))

(defn- knossos-threads
  "Live threads, other than this one, that are running Knossos code (or the
  harness' run thread). Knossos' reporter threads only sleep and log, and end
  on their own within 5 s of their search, so they are left alone."
  []
  (let [me (Thread/currentThread)]
    (for [[^Thread t frames] (Thread/getAllStackTraces)
          :when (and (not (identical? t me))
                     (.isAlive t)
                     (not= "knossos reporter" (.getName t))
                     (or (= run-thread-name (.getName t))
                         (some #(str/starts-with? (.getClassName ^StackTraceElement %) "knossos.")
                               frames)))]
      t)))

(defn- wait-for-threads [ms]
  (let [deadline (+ (System/currentTimeMillis) ms)]
    (loop []
      (let [ts (knossos-threads)]
        (if (or (empty? ts) (> (System/currentTimeMillis) deadline))
          ts
          (do (Thread/sleep 5) (recur)))))))

(defn- clean-up!
  "Waits up to grace-ms for the run's threads to end, then stops the rest
  with Thread.stop (Knossos' report builders do not check for interrupts)."
  [grace-ms]
  (let [left (wait-for-threads grace-ms)]
    (when (seq left)
      (doseq [^Thread t left]
        (let [frames (.getStackTrace t)]
          (log "  stopping thread" (pr-str (.getName t)) "in" (str (first frames))
               "(Knossos frame:"
               (str (or (first (filter #(str/starts-with? (.getClassName ^StackTraceElement %) "knossos.")
                                       frames))
                        "none")
                    ")")))
        (try (.stop t)
             (catch Throwable e
               (log "  could not stop it:" (error-string e))))))
    (let [still (when (seq left) (wait-for-threads 2000))]
      (doseq [^Thread t still]
        (log "  WARNING: thread" (pr-str (.getName t)) "still running in"
             (str (first (.getStackTrace t))))))))

(defn run-analysis
  "Runs one Knossos analyzer (:wgl or :linear) on a parsed history, as its
  `analysis` function does (start-analysis, then knossos.search/run with
  Knossos' own :time-limit), but on a thread of its own with a hard deadline,
  and aborts and clears the search when the limit is reached. Returns
  {:result r | :thrown t | :deadline true, :ms elapsed}."
  [analyzer model history limit-ms grace-ms]
  (let [start    (case analyzer :wgl wgl/start-analysis :linear linear/start-analysis)
        result   (promise)
        srch     (promise)
        t0       (System/nanoTime)
        elapsed  #(quot (- (System/nanoTime) t0) 1000000)
        body     (fn []
                   (try
                     (let [s (start model history)]
                       (deliver srch s)
                       (let [r (search/run s {:time-limit (max 1 (- limit-ms (elapsed)))})]
                         (deliver result {:result (assoc r :analyzer analyzer)})))
                     (catch Throwable t
                       (deliver result {:thrown t}))))
        _        (reset! current-result result)
        th       (doto (Thread. ^Runnable body ^String run-thread-name)
                   (.setDaemon true)
                   (.start))
        r        (deref result (+ limit-ms 250) {:deadline true})
        ms       (elapsed)]
    (reset! current-result nil)
    (when (or (:deadline r) (:thrown r) (= :unknown (get-in r [:result :valid?])))
      (when (realized? srch)
        (try (search/abort! @srch :timeout)
             (catch Throwable t (log "  abort! threw" (error-string t))))))
    (clean-up! grace-ms)
    (assoc r :ms ms)))

(defn- install-uncaught-handler! []
  (Thread/setDefaultUncaughtExceptionHandler
    (reify Thread$UncaughtExceptionHandler
      (uncaughtException [_ th e]
        (when-not (instance? ThreadDeath e)
          (log "  uncaught in thread" (pr-str (.getName th)) ":" (error-string e))
          (when-let [p @current-result]
            (deliver p {:thrown e})))))))

;; ---------------------------------------------------------------------------
;; Rows and output.

(defn read-tsv [file]
  (->> (line-seq (io/reader file))
       (map-indexed vector)
       (remove (fn [[_ l]] (or (str/blank? l) (str/starts-with? l "#"))))
       (mapv (fn [[n l]]
               (let [[path expected spec] (str/split l #"\t")]
                 (when (or (str/blank? path) (str/blank? spec))
                   (throw (IllegalArgumentException.
                            (str file ":" (inc n) ": expected path<TAB>verdict<TAB>model"))))
                 {:path path :expected (str/trim (or expected "")) :model (str/trim spec)})))))

(defn- stem [path] (str/replace path #"\.[^./]*$" ""))

(defn original-names
  "Maps each row to the name the same history has in another expected.tsv
  (the corpus before `ariadne convert`), matching path-minus-extension and
  model spec. Throws if a row has no single match."
  [rows names-tsv]
  (let [orig (group-by (juxt (comp stem :path) :model) (read-tsv names-tsv))]
    (mapv (fn [{:keys [path model] :as row}]
            (let [ms (get orig [(stem path) model])]
              (if (= 1 (count (distinct (map :path ms))))
                (assoc row :name (:path (first ms)))
                (throw (IllegalArgumentException.
                         (str "--names-from: " (count ms) " rows match " path
                              " (" model ")"))))))
          rows)))

(def listing-keys [:file :analyzer :valid? :time-ms :model :knossos-model
                   :error :cause :skipped])

(defn listing-line
  "One map on one line, keys in a fixed order, every value plain EDN."
  [m]
  (str "{"
       (->> listing-keys
            (filter #(contains? m %))
            (map (fn [k] (str (pr-str k) " " (pr-str (get m k)))))
            (str/join ", "))
       "}"))

(defn- plain-cause [c]
  (cond (nil? c) nil
        (keyword? c) c
        (string? c) c
        :else (pr-str c)))

(defn- verdict-word [v]
  (case v true "linearizable" false "not-linearizable" "unknown"))

(defn entry
  "The listing map for one run."
  [row analyzer info {:keys [result thrown deadline ms]}]
  (let [base {:file (:name row (:path row))
              :analyzer analyzer
              :time-ms (long ms)
              :model (:model row)
              :knossos-model (:knossos-model info)}]
    (cond
      thrown   (assoc base :valid? :unknown :cause :error :error (error-string thrown))
      deadline (assoc base :valid? :unknown :cause :timeout)
      :else    (let [v (:valid? result)
                     v (if (contains? #{true false :unknown} v) v :unknown)
                     c (plain-cause (:cause result))]
                 (cond-> (assoc base :valid? v)
                   c (assoc :cause c))))))

(defn- full-file [dir row analyzer dup?]
  (io/file dir (str (:name row (:path row))
                    (when dup? (str "." (str/replace (:model row) #"[^A-Za-z0-9_-]+" "_")))
                    "." (name analyzer) ".edn")))

(defn- write-full! [f x]
  (io/make-parents f)
  (binding [*print-length* nil, *print-level* nil]
    (spit f (str (pr-str x) "\n"))))

(defn- warm-up!
  "Runs each analyzer once on a tiny history, so that class loading and the
  first JIT compilation are not charged to the first row."
  [analyzers]
  (let [h (kcli/read-history
            (java.io.StringReader.
              (str "[{:process 0 :type :invoke :f :write :value 1}"
                   " {:process 1 :type :invoke :f :read :value nil}"
                   " {:process 0 :type :ok :f :write :value 1}"
                   " {:process 1 :type :ok :f :read :value 2}"
                   " {:process 2 :type :invoke :f :cas :value [1 2]}"
                   " {:process 2 :type :ok :f :cas :value [1 2]}]")))
        t0 (System/currentTimeMillis)]
    (dotimes [_ 3]
      (doseq [a analyzers]
        (run-analysis a (model/cas-register 0) h 10000 2000)))
    (log "warm-up:" (- (System/currentTimeMillis) t0) "ms")))

;; ---------------------------------------------------------------------------
;; Command line.

(def cli-options
  [["-t" "--tsv FILE" "The corpus expected.tsv (rows: path<TAB>verdict<TAB>model; paths relative to its folder)"]
   ["-o" "--out FILE" "Write the EDN listing here instead of stdout"]
   ["-l" "--limit SECONDS" "Wall-clock limit per (row, analyzer)"
    :default 60.0 :parse-fn #(Double/parseDouble %) :validate [pos? "must be positive"]]
   ["-a" "--analyzers LIST" "Comma-separated analyzers, run in this order, one at a time"
    :default [:wgl :linear]
    :default-desc "wgl,linear"
    :parse-fn (fn [s] (mapv keyword (str/split s #",")))
    :validate [#(and (seq %) (every? #{:wgl :linear} %)) "must be wgl, linear or both"]]
   [nil "--full DIR" "Also write Knossos' whole result map per row and analyzer to DIR/<file>.<analyzer>.edn"]
   [nil "--names-from TSV" "Name rows as in this expected.tsv (the corpus before ariadne convert): matched by path without extension, and model"]
   [nil "--only REGEX" "Run only the rows whose path matches this regex"]
   [nil "--rows N" "Run only the first N rows (after --only)" :parse-fn #(Long/parseLong %)]
   [nil "--etcd MODE" "etcd rows: exact (harness model: failed cas is an observation, nil reads mean absent), cas-register ((cas-register -1), nil reads as -1, failed cas dropped as Knossos drops every :fail) or skip"
    :default :exact :default-desc "exact"
    :parse-fn keyword :validate [#{:exact :cas-register :skip} "must be exact, cas-register or skip"]]
   [nil "--kv MODE" "kv rows: harness (a get/put/append model over [key value]) or skip"
    :default :harness :default-desc "harness"
    :parse-fn keyword :validate [#{:harness :skip} "must be harness or skip"]]
   [nil "--info-values MODE" "keep: read :info completions as they are; invocation: first give each :info completion its invocation's :value"
    :default :keep :default-desc "keep"
    :parse-fn keyword :validate [#{:keep :invocation} "must be keep or invocation"]]
   [nil "--grace-ms MS" "After a run, how long its threads get to end before Thread.stop"
    :default 2000 :parse-fn #(Long/parseLong %)]
   [nil "--no-warmup" "Skip the warm-up runs on a tiny history"]
   ["-v" "--verbose" "Keep Knossos' INFO logging (its reporter and memoizer)"]
   ["-h" "--help"]])

(defn usage [summary]
  (str "knossos-harness: runs Knossos' WGL and linear analyzers on every row of an expected.tsv\n\n"
       "Usage: clojure -cp CLASSPATH knossos_harness.clj --tsv expected.tsv [options] > listing.edn\n\n"
       "Options:\n" summary "\n\n"
       "Prints an EDN vector with one map per (row, analyzer), one per line:\n"
       "  :file :analyzer :valid? (true|false|:unknown) :time-ms :model :knossos-model\n"
       "  and when relevant :error \"Class: message\", :cause (:timeout, :error or Knossos' own) and :skipped.\n"
       "Progress goes to stderr. Exit status: 0 when every row was listed, 2 for a usage error.\n"))

(defn -main [& args]
  (let [{:keys [options errors summary arguments]} (cli/parse-opts args cli-options)
        tsv (or (:tsv options) (first arguments))]
    (cond
      (:help options) (do (println (usage summary)) 0)
      (seq errors) (do (log (str/join "\n" errors)) (log (usage summary)) 2)
      (nil? tsv) (do (log "missing --tsv") (log (usage summary)) 2)
      (not (.isFile (io/file tsv))) (do (log "no such file:" tsv) 2)
      :else
      (let [{:keys [limit analyzers full names-from only rows grace-ms]} options
            limit-ms (long (* 1000 limit))
            base     (.getParentFile (.getAbsoluteFile (io/file tsv)))
            all      (read-tsv tsv)
            all      (if names-from (original-names all names-from) all)
            dup      (->> all (map #(:name % (:path %))) frequencies
                          (filter (fn [[_ n]] (> n 1))) (map key) set)
            sel      (cond->> all
                       only (filterv #(re-find (re-pattern only) (:name % (:path %))))
                       rows (take rows))
            out      (if (:out options) (io/writer (io/file (:out options))) *out*)
            counts   (atom {})
            n        (count sel)
            emit!    (fn [first? m]
                       (.write out (str (if first? "[" " ") (listing-line m) "\n"))
                       (.flush out)
                       (swap! counts update-in [(:analyzer m)
                                                (cond (:skipped m) :skipped
                                                      (= :error (:cause m)) :error
                                                      :else (:valid? m))]
                              (fnil inc 0)))]
        (when-not (:verbose options)
          (.setLevel (Logger/getLogger "") Level/WARNING))
        (install-uncaught-handler!)
        (log "knossos-harness:" n "rows of" tsv "analyzers" (str/join "," (map name analyzers))
             "limit" limit-ms "ms")
        (when-not (:no-warmup options) (warm-up! analyzers))
        (let [t0 (System/currentTimeMillis)
              first? (atom true)]
          (doseq [[i row] (map-indexed vector sel)]
            (let [info   (model-for (:model row) options)
                  label  (str "[" (inc i) "/" n "] " (:name row (:path row)) " " (:model row))
                  file   (io/file base (:path row))
                  hist   (when-not (:skipped info)
                           (try {:history (cond-> (kcli/read-history file)
                                            (= :invocation (:info-values options)) info-values-from-invocations
                                            (:rewrite info) ((:rewrite info)))}
                                (catch Throwable t {:thrown t})))]
              (doseq [a analyzers]
                (let [m (cond
                          (:skipped info)
                          {:file (:name row (:path row)) :analyzer a :valid? :unknown :time-ms 0
                           :model (:model row) :knossos-model "" :skipped (:skipped info)}

                          (:thrown hist)
                          {:file (:name row (:path row)) :analyzer a :valid? :unknown :time-ms 0
                           :model (:model row) :knossos-model (:knossos-model info)
                           :cause :error :error (error-string (:thrown hist))
                           :skipped "knossos.cli/read-history could not read the file"}

                          :else
                          (do (System/gc)
                              (let [r (run-analysis a (:model info) (:history hist) limit-ms grace-ms)]
                                (when full
                                  (write-full! (full-file full row a (contains? dup (:name row (:path row))))
                                               (or (:result r) (:thrown r)
                                                   {:valid? :unknown :cause :timeout
                                                    :harness "no answer by the deadline"})))
                                (entry row a info r))))]
                  (emit! @first? m)
                  (reset! first? false)
                  (log label (name a) (str "→ " (if (:skipped m) "skipped" (verdict-word (:valid? m))))
                       (str "(expected " (:expected row) ")")
                       (str (:time-ms m) " ms")
                       (cond (:error m) (:error m)
                             (:skipped m) (:skipped m)
                             (:cause m) (str (:cause m))
                             :else ""))))))
          (.write out (if @first? "[]\n" "]\n"))
          (.flush out)
          (when (:out options) (.close out))
          (log "done:" n "rows in" (- (System/currentTimeMillis) t0) "ms;"
               (pr-str @counts)))
        0))))

(when-not (System/getProperty "knossos.harness.no-main")
  (let [status (apply -main *command-line-args*)]
    (shutdown-agents)
    (System/exit status)))
