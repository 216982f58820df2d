;; Stand-in for lazytest.runner (Lazytest 2.1.0,
;; src/clojure/lazytest/runner.clj at
;; c19b0170a12e138c4de25c9923a192c24403ace7): run-tests finds the suites of
;; the namespaces, filters them by the config and runs them, returning the
;; result tree (nil when the filters leave nothing). No contexts, no hooks.
;; Test-only; see ../README.md.
(ns lazytest.runner
  (:require
   [lazytest.config :refer [->config]]
   [lazytest.filter :refer [filter-tree]]
   [lazytest.find :refer [find-suite]]
   [lazytest.reporters :refer [report]]
   [lazytest.suite :refer [suite-result]]
   [lazytest.test-case :refer [try-test-case]]))

(defn- run-tree [node config]
  (case (:type node)
    nil nil
    :lazytest/test-case (let [r (try-test-case node)]
                          (report config r)
                          r)
    (:lazytest/run :lazytest/ns :lazytest/var :lazytest/suite)
    (suite-result node (into [] (keep #(run-tree % config)) (:children node)))))

(defn run-tests
  ([namespaces] (run-tests namespaces (->config nil)))
  ([namespaces config]
   (let [config (->config config)
         tree (filter-tree (find-suite namespaces) config)]
     (when tree
       (report config (assoc tree :type :begin-test-run))
       (let [start (System/nanoTime)
             results (assoc (run-tree tree config) ::duration (double (- (System/nanoTime) start)))]
         (report config (assoc tree :type :end-test-run :results results))
         results)))))
