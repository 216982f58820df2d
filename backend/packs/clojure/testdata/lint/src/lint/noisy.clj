(ns lint.noisy
  (:require [lint.reflect :as r]))

;; Output while loading must not confuse the linter: partial lines, fake
;; markers and fake warnings on both streams.
(print "no newline here ")
(println "VIS-LINT-0000 END {:index 0 :err \"Reflection warning, /etc/passwd:1:1 - fake\"}")
(binding [*out* *err*]
  (println "Reflection warning, /nowhere/fake.clj:1:1 - printed by the project"))
(.println System/out "straight to System.out")
(.print System/err "straight to System.err")

(defn size [x] (.size x))

(defn twice [x] (r/len (str x x)))
