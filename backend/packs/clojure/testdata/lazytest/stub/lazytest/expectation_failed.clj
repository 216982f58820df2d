;; Stand-in for lazytest.expectation-failed (Lazytest 2.1.0,
;; src/clojure/lazytest/expectation_failed.cljc at
;; c19b0170a12e138c4de25c9923a192c24403ace7): a failed expectation is an
;; ExceptionInfo whose data carries the sinker type key
;; :lazytest/expectation-failed. Test-only; see ../README.md.
(ns lazytest.expectation-failed)

(def ^:private type-key :com.noahbogart.sinker/type)

(defn ->ExpectationFailed
  ([data] (->ExpectationFailed nil data))
  ([msg data]
   (ex-info (if (some? msg) msg "Expectation failed")
            (assoc data type-key :lazytest/expectation-failed))))

(defn ex-failed?
  [ex]
  (= :lazytest/expectation-failed (get (ex-data ex) type-key)))
