(ns user
  (:require
    [clojure.core.server :as server]
    [clojure.java.io :as io]
    [clojure.test :as test]))

;; Vis fixture: upstream reloads src, dev and test with
;; clojure.tools.namespace (a dev dependency); this copy has no
;; dependencies beyond Clojure, so it requires the test namespaces.
(defn reload []
  (require 'clj-reload.core-test 'clj-reload.keep-test 'clj-reload.parse-test :reload))

(defn -main [& args]
  (alter-var-root #'*command-line-args* (constantly args))
  (let [{port "--port"} args
        port (if (or (nil? port) (zero? port))
               (+ 1024 (rand-int 64512))
               (parse-long port))]
    (println "Started Server Socket REPL on port" port)
    (let [file (io/file ".repl-port")]
      (spit file port)
      (.deleteOnExit file))
    (server/start-server
      {:name          "repl"
       :accept        'clojure.core.server/repl
       :server-daemon false
       :port          port})))

(defn test-all []
  (reload)
  (test/run-all-tests #"clj-reload\..*-test"))

(defn -test-main [_]
  (let [{:keys [fail error]} (test-all)]
    (System/exit (+ fail error))))
