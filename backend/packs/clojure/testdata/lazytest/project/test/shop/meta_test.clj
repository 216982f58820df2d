(ns shop.meta-test
  "Lazytest's :lazytest/test metadata needs no lazytest require."
  (:require [shop.cart :as cart]))

(defn price-of
  {:lazytest/test #(assert (= 3 (cart/total [1 2])))}
  [x]
  x)
