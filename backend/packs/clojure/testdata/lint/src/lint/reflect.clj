(ns lint.reflect)

(defn len [x] (.length x))
