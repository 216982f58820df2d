(ns shop.cart-test
  (:require
   [lazytest.core :refer [defdescribe describe expect it]]
   [shop.cart :as cart]))

(defdescribe total-test
  (it "sums the prices"
    (expect (= 6 (cart/total [1 2 3]))))
  (it "is zero for an empty cart"
    (expect (zero? (cart/total [])))))

(defdescribe discount-test
  (describe "ten percent"
    (it "takes ten off a hundred"
      (expect (= 90 (cart/discount 100)) "ten off"))))

(defdescribe split-test
  (it "splits among nobody"
    (cart/split 10 0)))

(defdescribe ^:slow parse-price-test
  (it "reads digits"
    (expect (= 42 (cart/parse-price "42")))))

(defdescribe checkout-test
  {:integration true}
  (it "totals a basket"
    (expect (= 10 (cart/total [4 6])))))
