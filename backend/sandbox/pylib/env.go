// Package pylib is the sandbox's Python: the builtins (print, sorted, str
// methods, exceptions, ...) and the modules (json, re, math, time,
// datetime, os.path, collections, itertools, ...) as models expect them
// from CPython, written over go.starlark.net values. Strings count code
// points (pystr.go), the pre-pass (package pyprep) produces the calls it
// provides (__fv, __pct, __it, __ix, __sl, __import, ...).
//
// Contract: one Env per interpreter (New); its builtins and modules are
// built once and used from that interpreter's thread only. A host
// installs the running block's output and ctx as thread locals
// (OutputLocal, CtxLocal): print and sys.stdout write to the first,
// time.sleep ends with the second. The method tables of Starlark's str,
// list, dict, set and bytes are extended once, at init (process-wide).
// Errors a program should see in Python's words are typed: RaisedError,
// UnsupportedImportError, RegexUnsupportedError, RefusedError.
package pylib

import (
	"context"

	"go.starlark.net/starlark"
)

// Thread locals the host sets on each block's thread.
const (
	OutputLocal = "vis.output" // an Output: where print writes
	CtxLocal    = "vis.ctx"    // the block's context.Context
)

// Output receives what a program prints.
type Output interface{ WriteString(s string) }

// ThreadCtx is the running block's ctx (Background outside a block).
func ThreadCtx(th *starlark.Thread) context.Context {
	if ctx, ok := th.Local(CtxLocal).(context.Context); ok {
		return ctx
	}
	return context.Background()
}

// Env is one interpreter's Python: its builtins and modules, and what
// they need to know of the host.
type Env struct {
	Getwd    string                                 // what os.getcwd() returns
	PathInfo func(path string) (exists, isDir bool) // backs os.path.exists/isfile/isdir; nil = always false
	modules  map[string]starlark.Value
}

// New builds the modules of one interpreter.
func New(getwd string, pathInfo func(path string) (exists, isDir bool)) *Env {
	e := &Env{Getwd: getwd, PathInfo: pathInfo}
	e.modules = e.buildModules()
	return e
}

// Builtins are the Python builtins (with collections' Counter and
// defaultdict, usable without an import), as a new dict the caller may add to.
func (in *Env) Builtins() starlark.StringDict {
	d := in.pyBuiltins()
	d["Counter"] = typeCounter
	d["defaultdict"] = typeDefaultDict
	return d
}

// Modules are the importable modules by name ("os.path" too).
func (in *Env) Modules() map[string]starlark.Value { return in.modules }

// ModuleNames lists the importable modules, sorted.
func (in *Env) ModuleNames() []string { return in.moduleNames() }

// Module is the module name, or an *UnsupportedImportError saying what to
// use instead.
func (in *Env) Module(name string) (starlark.Value, error) { return in.module(name) }

// Str is str(v): Python's text of a value.
func Str(v starlark.Value) string { return pyStr(v) }

// Quote is repr(s) of a string: Python's quoting.
func Quote(s string) string { return quotePy(s) }

// TypeName is type(v).__name__ in Python's words ("str", "NoneType").
func TypeName(v starlark.Value) string { return pyTypeName(v) }

// Elems lists what iterating it yields.
func Elems(it starlark.Iterable) []starlark.Value { return listOf(it) }

// Attr is getattr(v, name), with Python's AttributeError wording.
func Attr(v starlark.Value, name string) (starlark.Value, error) { return getAttr(v, name) }
