(ns lint.boxed)

(defn add [a ^long b] (+ a b))
