// Not Go code: this go.mod only keeps the npm packages under node_modules (flatted ships a
// golang/ directory) out of the vis module's ./... (go list, go vet, arch_test.go).
module vis-test-tools-js-fmt-lint

go 1.26
