//go:build bindings

package main

// bindingsBuild: this binary is the one `wails generate module` (make
// bindings) builds and runs to write the page's bindings; it opens no
// window, so it needs no display.
const bindingsBuild = true
