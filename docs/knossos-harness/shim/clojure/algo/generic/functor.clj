;; A stand-in for the one function of org.clojure/algo.generic that
;; multiset.core uses, `clojure.algo.generic.functor/fmap`, written for the
;; knossos harness because Debian does not package algo.generic.
;; It is not the real library: it handles plain collections only, which is all
;; multiset needs (it maps over the values of a map of multiplicities).
(ns clojure.algo.generic.functor)

(defn fmap
  "Applies f to every value of a map (keeping its keys), or to every element
  of a vector, set, list or seq, and returns a collection of the same kind."
  [f coll]
  (cond
    (nil? coll)    nil
    (map? coll)    (into (empty coll) (map (fn [[k v]] [k (f v)])) coll)
    (vector? coll) (into [] (map f) coll)
    (set? coll)    (into (empty coll) (map f) coll)
    (list? coll)   (apply list (map f coll))
    (seq? coll)    (map f coll)
    :else (throw (IllegalArgumentException.
                   (str "fmap shim: unsupported collection "
                        (.getName (class coll)))))))
