(ns lint.broken)

(def ok 1)

(throw (ex-info "boom at load" {}))
