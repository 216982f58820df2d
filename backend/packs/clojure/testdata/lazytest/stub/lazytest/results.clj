;; Stand-in for lazytest.results (Lazytest 2.1.0,
;; src/clojure/lazytest/results.clj at
;; c19b0170a12e138c4de25c9923a192c24403ace7). Test-only; see ../README.md.
(ns lazytest.results
  (:require [lazytest.suite :refer [suite-result?]]))

(defn result-seq [result] (tree-seq suite-result? :children result))

(defn summarize [results]
  (let [cases (remove suite-result? (result-seq results))
        by-type (frequencies (map :type cases))]
    {:total (count cases)
     :pass (get by-type :pass 0)
     :fail (get by-type :fail 0)}))
