package clojure

import (
	"sort"
	"strings"
)

// The test-run form is Clojure source evaluated in the project's JVM (a
// session REPL, or a clean `clojure.main -e`). It loads ONLY the requested
// namespaces from source (load-file when the pack knows the file, else
// require :reload; never :reload-all, so edited dependencies keep what the
// REPL holds), keeps the test vars the selectors match ({:vars :include
// :exclude}: a var selector matches the test var or the source var it
// covers, name + "-test"), runs them through clojure.test/test-vars (so
// fixtures apply) with a reporter that collects counts per test var and
// one row per fault, and returns a string-keyed map. A var selection that
// matches nothing is an error, never a silent 0/0.

// cljString renders s as a Clojure string literal.
func cljString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func cljStringSet(ss []string) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = cljString(s)
	}
	return "#{" + strings.Join(parts, " ") + "}"
}

const runFormBody = `(let [nses (quote [%NSES%])
      files %FILES%
      vsel [%VARS%]
      inc-tags %INCLUDE%
      exc-tags %EXCLUDE%
      faults (atom [])
      load-errors (atom 0)
      _ (doseq [n nses]
          (try (if-let [f (get files (str n))] (load-file f) (require n :reload))
               (catch Throwable t
                 (swap! load-errors inc)
                 (swap! faults conj {"ns" (str n) "test" "" "type" "error"
                                     "message" (str "could not load " n ": " (.getName (class t)) ": " (.getMessage t)
                                                    (when-let [c (.getCause t)] (str " (caused by " (.getName (class c)) ": " (.getMessage c) ")")))
                                     "file" (str (get files (str n) "")) "line" nil}))))
      loaded (filter find-ns nses)
      tags (fn [v] (set (keep (fn [[k x]] (when (and (keyword? k) (true? x)) (name k))) (meta v))))
      hit? (fn [v e] (let [m (meta v) nm (str (:name m)) nsn (str (ns-name (:ns m)))]
                       (and (or (nil? (:ns e)) (= (:ns e) nsn))
                            (or (= (:name e) nm) (= (str (:name e) "-test") nm)))))
      keep? (fn [v] (let [t (tags v)]
                      (boolean (and (not (some exc-tags t))
                                    (or (empty? vsel) (some (fn [e] (hit? v e)) vsel))
                                    (or (empty? inc-tags) (some inc-tags t))))))
      all (vec (mapcat (fn [n] (sort-by (fn [v] (or (:line (meta v)) 0))
                                        (filter (fn [v] (:test (meta v))) (vals (ns-interns n)))))
                       loaded))
      selected (vec (filter keep? all))
      lazy? (some (fn [n] (some (fn [v] (let [m (meta v)] (or (= :lazytest/var (:type m)) (contains? m :lazytest/test))))
                                (vals (ns-interns n))))
                  loaded)
      worst (atom {})
      counts (atom {:pass 0 :fail 0 :error 0})
      sw (java.io.StringWriter.)
      report (fn [m]
               (let [ty (:type m)]
                 (when (#{:pass :fail :error} ty)
                   (swap! counts update ty inc))
                 (when (#{:fail :error} ty)
                   (let [v (first clojure.test/*testing-vars*)
                         vm (meta v)
                         th (when (instance? Throwable (:actual m)) (:actual m))
                         vk (if v (str (ns-name (:ns vm)) "/" (:name vm)) "(fixture)")
                         ctxs (clojure.test/testing-contexts-str)]
                     (swap! worst update vk (fn [o] (if (= o :error) :error ty)))
                     (swap! faults conj
                            {"ns" (if v (str (ns-name (:ns vm))) "") "test" (if v (str (:name vm)) "(fixture)")
                             "type" (name ty)
                             "message" (str (when (seq ctxs) (str ctxs ": "))
                                            (if th
                                              (str (.getName (class th)) (when (.getMessage ^Throwable th) (str ": " (.getMessage ^Throwable th))))
                                              (or (:message m) (str "expected " (pr-str (:expected m)) ", actual " (pr-str (:actual m))))))
                             "expected" (pr-str (:expected m))
                             "actual" (if th "" (pr-str (:actual m)))
                             "file" (str (or (:file vm) (:file m) ""))
                             "line" (if th (:line vm) (or (:line m) (:line vm)))})))))]
  (cond
    (and (seq vsel) (empty? selected) (zero? @load-errors))
    {"error" (str "no test var matched " (pr-str (mapv (fn [e] (str (or (:ns e) "") "::" (:name e))) vsel))
                  " (searched " (count all) " test vars in " (count loaded) " namespaces)")
     "total" 0 "selected" 0 "skipped" (count all) "failures" []}
    (and (empty? all) lazy?)
    {"framework" "lazytest" "failures" @faults
     "error" "these namespaces hold lazytest suites, which the in-JVM runner does not run: use the project's lazytest command (a :test alias whose main is lazytest.main), or lazytest.repl/run-tests via repl_eval"}
    :else
    (do (binding [*out* sw *err* sw clojure.test/report report]
          (clojure.test/test-vars selected))
        (let [w @worst
              c @counts
              nfail (count (filter #{:fail} (vals w)))
              nerr (count (filter #{:error} (vals w)))
              ran (count selected)]
          {"framework" "clojure.test"
           "total" (+ ran @load-errors)
           "pass" (max 0 (- ran (count (remove #{"(fixture)"} (keys w)))))
           "fail" nfail
           "errored" (+ nerr @load-errors)
           "assertions" (+ (:pass c) (:fail c) (:error c))
           "selected" ran
           "skipped" (- (count all) ran)
           "failures" @faults
           "output" (str sw)}))))`

// runForm renders the form that returns the result map.
func runForm(res Resolved, sel Selection) string {
	nsSyms := strings.Join(res.Nses, " ")
	keys := make([]string, 0, len(res.Files))
	for ns := range res.Files {
		keys = append(keys, ns)
	}
	sort.Strings(keys)
	var files []string
	for _, ns := range keys {
		files = append(files, cljString(ns)+" "+cljString(res.Files[ns]))
	}
	var vars []string
	for _, v := range res.Vars {
		ns := "nil"
		if v.Ns != "" {
			ns = cljString(v.Ns)
		}
		vars = append(vars, "{:ns "+ns+" :name "+cljString(v.Name)+"}")
	}
	r := strings.NewReplacer(
		"%NSES%", nsSyms,
		"%FILES%", "{"+strings.Join(files, ", ")+"}",
		"%VARS%", strings.Join(vars, " "),
		"%INCLUDE%", cljStringSet(sel.Include),
		"%EXCLUDE%", cljStringSet(sel.Exclude),
	)
	return r.Replace(runFormBody)
}

const printBindings = `*print-length* nil *print-level* nil *print-meta* false *print-namespace-maps* false`

// The top-level do is unrolled by the compiler, so clojure.test is loaded
// before the form that names its vars is compiled.

// replForm returns the result map printed to a string (a string value is
// immune to a session's *print-length*), read back by the pack.
func replForm(res Resolved, sel Selection) string {
	return "(do (require 'clojure.test) (binding [" + printBindings + "] (pr-str " + runForm(res, sel) + ")))"
}

// cliForm prints the result after resultMarker and exits (non-zero when a
// test failed or errored).
func cliForm(res Resolved, sel Selection) string {
	return "(do (require 'clojure.test) (let [r (binding [" + printBindings + "] " + runForm(res, sel) + ")]" +
		" (binding [" + printBindings + "] (println) (println (str \"" + resultMarker + "\" (pr-str r))))" +
		" (flush) (shutdown-agents)" +
		" (System/exit (if (and (nil? (get r \"error\")) (zero? (get r \"fail\" 0)) (zero? (get r \"errored\" 0))) 0 1))))"
}
