;; Stand-in for lazytest.reporters (Lazytest 2.1.0,
;; src/clojure/lazytest/reporters.clj at
;; c19b0170a12e138c4de25c9923a192c24403ace7): report, and the focused,
;; results and summary reporters of lazytest.repl's config, printing less.
;; Test-only; see ../README.md.
(ns lazytest.reporters
  (:require
   [lazytest.results :refer [result-seq summarize]]
   [lazytest.suite :refer [suite-result?]]))

(defn report [config m]
  (doseq [r (:reporters config)]
    (r config m)
    (flush)))

(defn focused [_config m]
  (when (and (= :begin-test-run (:type m)) (-> m :metadata :focus))
    (println "=== FOCUSED TESTS ONLY ===")
    (newline)))

(defn results [_config m]
  (when (= :end-test-run (:type m))
    (doseq [r (remove suite-result? (result-seq (:results m)))
            :when (= :fail (:type r))]
      (println (str (:doc r) ":"))
      (println (:message r))
      (println "Expected:" (pr-str (:expected r)))
      (println "Actual:" (pr-str (:actual r)))
      (println (format "in %s:%s\n" (:file r) (:line r))))))

(defn summary [_config m]
  (when (= :end-test-run (:type m))
    (let [{:keys [total fail]} (summarize (:results m))]
      (println (format "Ran %s test cases in %.5f seconds."
                       total (/ (double (get-in m [:results :lazytest.runner/duration] 0.0)) 1e9)))
      (println (str fail " failure" (when (not= 1 fail) "s") ".")))))
