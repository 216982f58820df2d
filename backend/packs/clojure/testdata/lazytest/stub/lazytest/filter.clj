;; Stand-in for lazytest.filter (Lazytest 2.1.0, src/clojure/lazytest/filter.clj
;; at c19b0170a12e138c4de25c9923a192c24403ace7). The rules it keeps:
;; :skip metadata or an :exclude keyword drops a node; :focus metadata or an
;; :include keyword focuses it; under :include, an unfocused node survives
;; only below a focused parent; when any sibling is focused only the focused
;; ones stay (and their parent becomes focused); a suite left without
;; children is dropped. :var-filter (a set of qualified symbols) keeps only
;; those vars and their namespaces; :ns-filter keeps namespaces.
;; Test-only; see ../README.md.
(ns lazytest.filter)

(defn- any-key [ks] (when (seq ks) (fn [m] (some #(get m %) ks))))

(defmulti filter-tree (fn [obj _config] (:type obj)))

(defmethod filter-tree nil [_ _] nil)
(defmethod filter-tree :lazytest/test-case [tc _] tc)

(defn filter-suite
  [s config]
  (let [inc? (any-key (:include config))
        exc? (any-key (:exclude config))
        m (:metadata s)
        under-focus (or (::parent-focused config) (:focus m) (when inc? (inc? m)))
        cfg (assoc config ::parent-focused (boolean under-focus))
        step (fn [acc child]
               (let [cm (:metadata child)
                     out? (or (:skip cm) (when exc? (exc? cm)))
                     in? (or (:focus cm) (when inc? (inc? cm)))]
                 (cond-> acc
                   in? (assoc :focused true)
                   (and (not out?) (or in? (not inc?) under-focus))
                   (update :items conj (cond-> child in? (assoc-in [:metadata :focus] true))))))
        {:keys [items focused]} (reduce step {:items [] :focused false}
                                        (keep #(filter-tree % cfg) (:children s)))
        items (if focused (filterv #(get-in % [:metadata :focus]) items) items)]
    (when (seq items)
      (cond-> (assoc s :children items)
        focused (assoc-in [:metadata :focus] true)))))

(defmethod filter-tree :lazytest/suite [s config] (filter-suite s config))
(defmethod filter-tree :lazytest/run [s config] (filter-suite s config))

(defmethod filter-tree :lazytest/var [s config]
  (let [vf (not-empty (:var-filter config))
        nf (not-empty (:ns-filter config))
        sym (symbol (:var s))]
    (when (or (nil? vf) (vf sym) (and nf (nf (symbol (namespace sym)))))
      (filter-suite s config))))

(defmethod filter-tree :lazytest/ns [s config]
  (let [wanted (not-empty (into (set (:ns-filter config))
                                (map (comp symbol namespace))
                                (:var-filter config)))]
    (when (or (nil? wanted) (wanted (:doc s)))
      (filter-suite s config))))
