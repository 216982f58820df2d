(ns lint.web)

(defn title [] (.-title js/document))
