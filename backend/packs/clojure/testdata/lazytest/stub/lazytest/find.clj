;; Stand-in for lazytest.find (Lazytest 2.1.0, src/clojure/lazytest/find.cljc
;; at c19b0170a12e138c4de25c9923a192c24403ace7): a namespace's suite holds
;; one :lazytest/var suite per test var, in source order. A test var is a
;; defdescribe var, a var holding a suite, or a var with :lazytest/test
;; metadata (a suite, a test case or a function). Test-only; see ../README.md.
(ns lazytest.find
  (:require
   [lazytest.suite :refer [suite suite?]]
   [lazytest.test-case :refer [test-case test-case?]]))

(defn- as-var-suite [s v] (assoc s :type :lazytest/var :var v))

(defn find-var-test-value
  [the-var]
  (when (bound? the-var)
    (let [value (var-get the-var)
          m (meta the-var)
          t (:lazytest/test m)]
      (cond
        (= :lazytest/var (:type m)) (as-var-suite (value) the-var)
        (suite? value) (as-var-suite value the-var)
        (or (suite? t) (test-case? t)) (as-var-suite (suite {:doc the-var :children [t]}) the-var)
        (fn? t) (as-var-suite (suite {:doc the-var
                                      :children [(test-case {:doc "`:lazytest/test` metadata"
                                                             :ns (:ns m) :file (:file m)
                                                             :line (:line m) :column (:column m)
                                                             :body t})]})
                              the-var)))))

(defn find-ns-suite
  [n]
  (when-not (= (the-ns 'clojure.core) n)
    (let [nmeta (meta n)
          vars (sort-by (comp (juxt :line :column) meta) (vals (ns-interns n)))
          children (into [] (keep find-var-test-value) vars)]
      (suite {:type :lazytest/ns
              :doc (ns-name n)
              :metadata (dissoc nmeta :context)
              :children children}))))

(defn find-suite
  ([names]
   (let [nses (mapv the-ns (or (not-empty names) (all-ns)))]
     (suite {:type :lazytest/run
             :nses nses
             :children (into [] (keep find-ns-suite) nses)})))
  ([name' & names] (find-suite (vec (cons name' names)))))
