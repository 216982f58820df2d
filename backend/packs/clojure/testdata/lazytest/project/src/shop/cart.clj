(ns shop.cart)

(defn total [prices] (reduce + 0 prices))

(defn discount
  "Ten percent off."
  [price]
  (- price 5))

(defn split [amount people] (/ amount people))

(defn parse-price [s] (Long/parseLong s))
