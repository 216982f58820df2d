(ns lint.reflect-test
  (:require [clojure.test :refer [deftest is]]
            [lint.reflect :as r]))

(defn first-char [s] (.charAt s 0))

(deftest len-test
  (is (= 3 (r/len "abc"))))
