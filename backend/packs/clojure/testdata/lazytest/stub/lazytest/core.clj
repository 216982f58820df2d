;; Stand-in for lazytest.core (Lazytest 2.1.0, src/clojure/lazytest/core.clj
;; at c19b0170a12e138c4de25c9923a192c24403ace7): defdescribe, describe, it
;; and expect only, without contexts. Children are the values of a suite's
;; body forms (the real macros collect them through a dynamic context).
;; Test-only; see ../README.md.
(ns lazytest.core
  (:require
   [lazytest.expectation-failed :refer [->ExpectationFailed]]
   [lazytest.suite :as suite]
   [lazytest.test-case :as test-case]))

(defn- split-args
  "[doc attr-map body] from a macro's arguments after the name."
  [args]
  (let [[doc args] (if (string? (first args)) [(first args) (rest args)] [nil args])
        [attrs args] (if (map? (first args)) [(first args) (rest args)] [nil args])]
    [doc attrs args]))

(defn ^:no-doc children-of [xs]
  (vec (filter #(or (suite/suite? %) (test-case/test-case? %)) (flatten (vec xs)))))

(defmacro describe
  [doc & body]
  (let [[attrs children] (if (map? (first body)) [(first body) (rest body)] [nil body])]
    `(suite/suite {:doc ~doc
                   :file ~*file*
                   :ns *ns*
                   :line ~(:line (meta &form))
                   :column ~(:column (meta &form))
                   :metadata ~(dissoc attrs :context)
                   :children (children-of [~@children])})))

(defmacro defdescribe
  [test-name & args]
  (let [[doc attrs children] (split-args args)
        attrs (merge (dissoc (meta test-name) :doc)
                     attrs
                     {:var (list 'var (symbol (str *ns*) (str test-name)))})]
    `(def ~(vary-meta test-name assoc :type :lazytest/var)
       (fn []
         (assoc (describe ~(or doc (str test-name)) ~attrs ~@children)
                :type :lazytest/var)))))

(defmacro it
  [doc & body]
  (let [[attrs body] (if (and (map? (first body)) (next body)) [(first body) (rest body)] [nil body])]
    `(test-case/test-case {:doc ~doc
                           :file ~*file*
                           :ns *ns*
                           :line ~(:line (meta &form))
                           :column ~(:column (meta &form))
                           :metadata ~(dissoc attrs :context)
                           :body (fn [] ~@body)})))

(defmacro expect
  ([expr] (with-meta (list `expect expr nil) (meta &form)))
  ([expr msg]
   (let [where (merge (select-keys (meta &form) [:line :column])
                      {:expected (list 'quote expr)
                       :file *file*
                       :ns (list 'quote (ns-name *ns*))})]
     `(let [msg# ~msg
            r# (try {:value ~expr} (catch Throwable t# {:caught t#}))]
        (if-let [t# (:caught r#)]
          (throw (->ExpectationFailed msg# (assoc ~where :message msg# :caught t#)))
          (or (:value r#)
              (throw (->ExpectationFailed msg# (assoc ~where :message msg# :actual (:value r#))))))))))
