;; Stand-in for lazytest.suite (Lazytest 2.1.0, src/clojure/lazytest/suite.clj
;; at c19b0170a12e138c4de25c9923a192c24403ace7). Test-only; see ../README.md.
(ns lazytest.suite)

(defrecord Suite [type doc source children context ns file line var metadata])

(defn suite? [obj] (instance? Suite obj))

(defn suite
  [base]
  (map->Suite (merge {:type :lazytest/suite}
                     base
                     {:children (vec (:children base))
                      :context (or (:context base) {})})))

(defn identifier [m]
  (let [id (or (:doc m) (:var m))]
    (when (some? id) (str id))))

;; A suite result is the suite itself, retyped, with its children's results.
(defn suite-result [source children]
  (assoc source
         :type ::suite-result
         :doc (identifier source)
         :source source
         :children children))

(defn suite-result? [x] (= ::suite-result (:type x)))
