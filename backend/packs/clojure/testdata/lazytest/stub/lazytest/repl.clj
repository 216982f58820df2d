;; Stand-in for lazytest.repl (Lazytest 2.1.0, src/clojure/lazytest/repl.clj
;; at c19b0170a12e138c4de25c9923a192c24403ace7). Test-only; see ../README.md.
(ns lazytest.repl
  (:require
   [lazytest.config :refer [->config]]
   [lazytest.reporters :as r]
   [lazytest.results :refer [summarize]]
   [lazytest.runner :as runner]))

(def repl-config {:output [r/focused r/results r/summary]})

(defn run-tests
  ([namespaces] (run-tests namespaces repl-config))
  ([namespaces config]
   (if (sequential? namespaces)
     (summarize (runner/run-tests namespaces (->config config)))
     (run-tests [namespaces] config))))
