;; Stand-in for lazytest.test-case (Lazytest 2.1.0,
;; src/clojure/lazytest/test_case.clj at
;; c19b0170a12e138c4de25c9923a192c24403ace7). Test-only; see ../README.md.
(ns lazytest.test-case)

(defrecord TestCase [type doc body context ns file line metadata])

(defn test-case? [obj] (instance? TestCase obj))

(defn test-case [base]
  (map->TestCase (assoc base :type :lazytest/test-case :context (or (:context base) {}))))

;; The result is the test case retyped :pass or :fail. Location and doc
;; come from the thrown data first, then from an exception an `expect`
;; caught (its top stack frame), then from the test case.
(defn test-case-result
  ([type' source] (test-case-result type' source nil))
  ([type' source thrown]
   (let [data (ex-data thrown)
         caught (:caught data)
         caught? (instance? Throwable caught)
         frame (when caught? (first (.getStackTrace ^Throwable caught)))
         from-frame (when frame {:file (.getFileName ^StackTraceElement frame)
                                 :line (.getLineNumber ^StackTraceElement frame)})
         pick (fn [k] (or (get data k) (get from-frame k) (get source k)))
         thrown' (if caught? caught thrown)]
     (vary-meta
      (assoc source
             :type type'
             :doc (pick :doc)
             :source source
             :thrown thrown'
             :file (or (pick :file) "NO_SOURCE_PATH")
             :line (pick :line)
             :message (or (:message data) (when thrown' (ex-message thrown')))
             :expected (:expected data)
             :actual (:actual data)
             :evaluated (:evaluated data))
      assoc :type ::test-case-result))))

(defn try-test-case [tc]
  (try ((:body tc))
       (test-case-result :pass tc)
       (catch Throwable t
         (test-case-result :fail tc t))))
