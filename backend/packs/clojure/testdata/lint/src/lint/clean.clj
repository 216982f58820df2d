(ns lint.clean)

(defn len [^String s] (.length s))

(defn add ^long [^long a ^long b] (+ a b))
