(defproject rm-hull/jasentaa "0.2.5"
  :description "A parser-combinator library for Clojure and ClojureScript"
  :url "https://github.com/rm-hull/jacentaa"
  :license {
    :name "The MIT License (MIT)"
    :url "http://opensource.org/licenses/MIT"}
  :scm {:url "https://github.com/rm-hull/jasentaa.git"}
  :source-paths ["src/clj" "src/cljc" "src/cljs"]
  :jar-exclusions [#"(?:^|/).git"]
  :min-lein-version "2.8.1"
  :profiles {
             :dev {
                   :global-vars {*warn-on-reflection* true}
                   :dependencies [
                                  [org.clojure/clojure "1.11.1"]]}})
