//go:build !bindings

package main

// bindingsBuild: see bindingsbuild_on.go.
const bindingsBuild = false
