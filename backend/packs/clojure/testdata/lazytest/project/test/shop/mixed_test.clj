(ns shop.mixed-test
  (:require
   [clojure.test :refer [deftest is]]
   [lazytest.core :refer [defdescribe expect it]]
   [shop.cart :as cart]))

(deftest total-test
  (is (= 3 (cart/total [1 2]))))

(deftest parse-price-test
  (is (= 7 (cart/parse-price "8")) "eight is not seven"))

(defdescribe split-test
  (it "halves"
    (expect (= 5 (cart/split 10 2)))))
