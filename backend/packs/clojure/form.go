package clojure

import (
	"sort"
	"strconv"
	"strings"
)

// The test-run form is Clojure source evaluated in the project's JVM (a
// session REPL, or a clean `clojure.main -e`). It loads ONLY the requested
// namespaces from source (load-file when the pack knows the file, else
// require :reload; never :reload-all, so edited dependencies keep what the
// REPL holds) and returns a string-keyed map. A var selection that matches
// nothing is an error, never a silent 0/0.
//
// clojure.test: it keeps the test vars the selectors match ({:vars
// :include :exclude}: a var selector matches the test var or the source
// var it covers, name + "-test"; tags are var metadata), runs them through
// clojure.test/test-vars (so fixtures apply) with a reporter that collects
// counts per test var and one row per fault.
//
// Lazytest: when the loaded namespaces hold Lazytest test vars (defdescribe
// vars, vars holding a suite, vars with :lazytest/test metadata) that the
// var selectors match, it requires lazytest.repl and runs those namespaces
// through Lazytest's own lazytest.runner/run-tests with lazytest.repl's
// reporters and Lazytest's selection terms: :var-filter (the matched suite
// vars, only when vars were selected), :include and :exclude (keywords,
// applied by Lazytest to suite and test-case metadata at every level). It
// walks the returned result tree: a test case counts as pass, fail (its
// thrown value is a Lazytest expectation failure) or error (anything else
// thrown), one row per fault with its suite var, the docs of the enclosing
// describes and its file/line. Lazytest counts test cases (`it`), so its
// total/pass/fail/errored/assertions are test cases, while selected/skipped
// count suite vars. A namespace mixing both runs both and sums; framework
// is "clojure.test", "lazytest" or "clojure.test+lazytest". Lazytest suites
// selected while Lazytest cannot be loaded leave an "error" (the rest
// still runs). Every Lazytest var is looked up at run time (resolve), so
// the form compiles in a JVM without Lazytest. API as of Lazytest 2.1.0
// (github.com/NoahTheDuke/lazytest c19b0170a12e138c4de25c9923a192c24403ace7);
// the same entry points exist since 1.x, where ex-failed? is absent and
// an expectation failure is a lazytest.ExpectationFailed.

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

const runFormBody = `(let [real-out *out*
      progress? %PROGRESS%
      progress (fn [label x]
                 (when progress?
                   (binding [*out* real-out ` + printBindings + `]
                     (println (str label x))
                     (flush))))
      nses (quote [%NSES%])
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
                 (let [why (str (.getName (class t)) ": " (.getMessage t)
                                (when-let [c (.getCause t)] (str " (caused by " (.getName (class c)) ": " (.getMessage c) ")")))]
                   (swap! faults conj {"ns" (str n) "test" "" "type" "error"
                                       "message" (str "could not load " n ": " why
                                                      (when (re-find #"lazytest[/.]" why)
                                                        "; lazytest is not on this JVM's classpath: add it to the :test alias's deps, or run the project's lazytest command"))
                                       "file" (str (get files (str n) "")) "line" nil})))))
      loaded (filter find-ns nses)
      tags (fn [v] (set (keep (fn [[k x]] (when (and (keyword? k) (true? x)) (name k))) (meta v))))
      hit? (fn [v e] (let [m (meta v) nm (str (:name m)) nsn (str (ns-name (:ns m)))]
                       (and (or (nil? (:ns e)) (= (:ns e) nsn))
                            (or (= (:name e) nm) (= (str (:name e) "-test") nm)))))
      keep? (fn [v] (let [t (tags v)]
                      (boolean (and (not (some exc-tags t))
                                    (or (empty? vsel) (some (fn [e] (hit? v e)) vsel))
                                    (or (empty? inc-tags) (some inc-tags t))))))
      by-line (fn [vs] (sort-by (fn [v] (or (:line (meta v)) 0)) vs))
      all (vec (mapcat (fn [n] (by-line (filter (fn [v] (:test (meta v))) (vals (ns-interns n))))) loaded))
      selected (vec (filter keep? all))
      lz-suite? (resolve 'lazytest.suite/suite?)
      lz-var? (fn [v] (let [m (meta v)]
                        (boolean (or (= :lazytest/var (:type m))
                                     (contains? m :lazytest/test)
                                     (and lz-suite? (bound? v) (lz-suite? (var-get v)))))))
      lz-all (vec (mapcat (fn [n] (by-line (filter lz-var? (vals (ns-interns n))))) loaded))
      lz-hits (if (seq vsel) (filterv (fn [v] (some (fn [e] (hit? v e)) vsel)) lz-all) lz-all)
      lz-want (boolean (seq lz-hits))
      lz-err (atom nil)
      lz-ok (and lz-want
                 (try (require 'lazytest.repl) true
                      (catch Throwable t (reset! lz-err t) false)))
      worst (atom {})
      counts (atom {:pass 0 :fail 0 :error 0})
      lz (atom {:pass 0 :fail 0 :error 0 :threw 0 :vars #{}})
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
                     (progress "` + faultMarker + `" (pr-str (peek (swap! faults conj
                            {"ns" (if v (str (ns-name (:ns vm))) "") "test" (if v (str (:name vm)) "(fixture)")
                             "type" (name ty)
                             "message" (str (when (seq ctxs) (str ctxs ": "))
                                            (if th
                                              (str (.getName (class th)) (when (.getMessage ^Throwable th) (str ": " (.getMessage ^Throwable th))))
                                              (or (:message m) (str "expected " (pr-str (:expected m)) ", actual " (pr-str (:actual m))))))
                             "expected" (pr-str (:expected m))
                             "actual" (if th "" (pr-str (:actual m)))
                             "file" (str (or (:file vm) (:file m) ""))
                             "line" (if th (:line vm) (or (:line m) (:line vm)))}))))))
                 (when (= :end-test-var ty)
                   (let [vm (meta (:var m)) vk (str (ns-name (:ns vm)) "/" (:name vm))]
                     (progress "` + varMarker + `" (str (name (get @worst vk :pass)) " " vk))))))
      lz-run (fn []
               (let [run-tests (var-get (resolve 'lazytest.runner/run-tests))
                     result? (var-get (resolve 'lazytest.suite/suite-result?))
                     failed? (if-let [f (resolve 'lazytest.expectation-failed/ex-failed?)]
                               (var-get f)
                               (fn [t] (= "lazytest.ExpectationFailed" (.getName (class t)))))
                     qsym (fn [v] (symbol (str (ns-name (:ns (meta v)))) (str (:name (meta v)))))
                     cfg (cond-> (var-get (resolve 'lazytest.repl/repl-config))
                           (seq vsel) (assoc :var-filter (set (map qsym lz-hits)))
                           (seq inc-tags) (assoc :include (set (map keyword inc-tags)))
                           (seq exc-tags) (assoc :exclude (set (map keyword exc-tags))))
                     lz-nses (vec (distinct (map (fn [v] (ns-name (:ns (meta v)))) lz-hits)))
                     case-row (fn [r v docs]
                                (let [th (:thrown r)
                                      err? (and (instance? Throwable th) (not (failed? th)))
                                      msg (:message r)
                                      vm (meta v)
                                      ctx (apply str (interpose " " (filter seq (map str (conj docs (:doc r))))))]
                                  (swap! lz update (if err? :error :fail) inc)
                                  (swap! faults conj
                                         {"ns" (if v (str (ns-name (:ns vm))) "") "test" (if v (str (:name vm)) (str (:doc r)))
                                          "type" (if err? "error" "fail")
                                          "message" (str (when (seq ctx) (str ctx ": "))
                                                         (cond
                                                           err? (str (when (and msg (not= msg (.getMessage ^Throwable th))) (str msg ": "))
                                                                     (.getName (class th))
                                                                     (when (.getMessage ^Throwable th) (str ": " (.getMessage ^Throwable th))))
                                                           (or (nil? msg) (= msg "Expectation failed"))
                                                           (str "expected " (pr-str (:expected r)) ", actual " (pr-str (:actual r)))
                                                           :else msg))
                                          "expected" (pr-str (:expected r))
                                          "actual" (if err? "" (pr-str (:actual r)))
                                          "file" (str (or (:file r) ""))
                                          "line" (:line r)})))
                     walk (fn walk [node v docs]
                            (cond
                              (nil? node) nil
                              (result? node)
                              (let [ty (:type (:source node))
                                    v (if (var? (:var node)) (:var node) v)
                                    d (:doc node)
                                    docs (if (and (#{:lazytest/var :lazytest/suite} ty) (seq d)
                                                  (not= d (str (:name (meta v)))) (not= d (str v)))
                                           (conj docs d)
                                           docs)]
                                (when (= :lazytest/var ty) (swap! lz update :vars conj v))
                                (doseq [c (:children node)] (walk c v docs)))
                              (= :pass (:type node)) (swap! lz update :pass inc)
                              (= :fail (:type node)) (case-row node v docs)))]
                 (walk (run-tests lz-nses cfg) nil [])))]
  (cond
    (and (seq vsel) (empty? selected) (empty? lz-hits) (zero? @load-errors))
    {"error" (str "no test var matched " (pr-str (mapv (fn [e] (str (or (:ns e) "") "::" (:name e))) vsel))
                  " (searched " (+ (count all) (count lz-all)) " test vars in " (count loaded) " namespaces)")
     "total" 0 "selected" 0 "skipped" (+ (count all) (count lz-all)) "failures" []}
    :else
    (do (binding [*out* sw *err* sw clojure.test/report report]
          (clojure.test/test-vars selected))
        (when lz-ok
          (binding [*out* sw *err* sw]
            (try (lz-run)
                 (catch Throwable t
                   (swap! lz update :threw inc)
                   (swap! faults conj {"ns" "" "test" "(lazytest run)" "type" "error"
                                       "message" (str "the lazytest run threw " (.getName (class t)) ": " (.getMessage t))
                                       "file" "" "line" nil})))))
        (let [w @worst
              c @counts
              l @lz
              nfail (count (filter #{:fail} (vals w)))
              nerr (count (filter #{:error} (vals w)))
              ran (count selected)
              lz-ran (count (:vars l))
              lz-cases (+ (:pass l) (:fail l) (:error l))]
          (cond-> {"framework" (cond (and lz-want (seq all)) "clojure.test+lazytest" lz-want "lazytest" :else "clojure.test")
                   "total" (+ ran @load-errors lz-cases (:threw l))
                   "pass" (+ (max 0 (- ran (count (remove #{"(fixture)"} (keys w))))) (:pass l))
                   "fail" (+ nfail (:fail l))
                   "errored" (+ nerr @load-errors (:error l) (:threw l))
                   "assertions" (+ (:pass c) (:fail c) (:error c) lz-cases)
                   "selected" (+ ran lz-ran)
                   "skipped" (+ (- (count all) ran) (max 0 (- (count lz-all) lz-ran)))
                   "failures" @faults
                   "output" (str sw)}
            (and lz-want (not lz-ok))
            (assoc "error" (str "these namespaces hold lazytest suites, but lazytest cannot be loaded in this JVM ("
                                (when-let [t @lz-err] (str (.getName (class t)) ": " (.getMessage t)))
                                "): put lazytest on the classpath (the :test alias's deps), or use the project's lazytest command (a :test alias whose main is lazytest.main)")))))))`

// Progress lines a clean-JVM run prints as it goes (runForm's progress):
// one per finished test var ("pass|fail|error ns/name") and one per failure
// row (its EDN map), so the run is seen live and a run killed before its
// result still has its rows (testrun.go's partialResult).
const (
	varMarker   = "VIS-TEST-VAR: "
	faultMarker = "VIS-TEST-FAULT: "
)

// runForm renders the form that returns the result map; with progress it
// also prints the progress lines to the *out* it started with.
func runForm(res Resolved, sel Selection, progress bool) string {
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
		"%PROGRESS%", strconv.FormatBool(progress),
	)
	return r.Replace(runFormBody)
}

const printBindings = `*print-length* nil *print-level* nil *print-meta* false *print-namespace-maps* false`

// The top-level do is unrolled by the compiler, so clojure.test is loaded
// before the form that names its vars is compiled.

// replForm returns the result map printed to a string (a string value is
// immune to a session's *print-length*), read back by the pack.
func replForm(res Resolved, sel Selection) string {
	return "(do (require 'clojure.test) (binding [" + printBindings + "] (pr-str " + runForm(res, sel, false) + ")))"
}

// cliForm prints the result after resultMarker and exits (non-zero when a
// test failed or errored).
func cliForm(res Resolved, sel Selection) string {
	return "(do (require 'clojure.test) (let [r (binding [" + printBindings + "] " + runForm(res, sel, true) + ")]" +
		" (binding [" + printBindings + "] (println) (println (str \"" + resultMarker + "\" (pr-str r))))" +
		" (flush) (shutdown-agents)" +
		" (System/exit (if (and (nil? (get r \"error\")) (zero? (get r \"fail\" 0)) (zero? (get r \"errored\" 0))) 0 1))))"
}
