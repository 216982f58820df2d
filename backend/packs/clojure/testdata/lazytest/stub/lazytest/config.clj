;; Stand-in for lazytest.config (Lazytest 2.1.0,
;; src/clojure/lazytest/config.clj at
;; c19b0170a12e138c4de25c9923a192c24403ace7): ->config resolves :output
;; (reporter functions, or symbols naming them) into :reporters.
;; Test-only; see ../README.md.
(ns lazytest.config)

(defn- resolve-reporter [r]
  (cond
    (sequential? r) (vec (distinct (mapcat resolve-reporter r)))
    (qualified-symbol? r) (resolve-reporter (var-get (requiring-resolve r)))
    (symbol? r) (resolve-reporter (symbol "lazytest.reporters" (name r)))
    :else [r]))

(defn ->config [config]
  (if (::generated config)
    config
    (let [output (or (:output config) 'lazytest.reporters/summary)
          output (if (sequential? output) (vec (distinct output)) [output])]
      (assoc config
             ::generated true
             :lazytest.runner/depth 1
             :lazytest.runner/suite-history []
             :output output
             :reporters (resolve-reporter output)))))
