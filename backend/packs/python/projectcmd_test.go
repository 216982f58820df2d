package python

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestProjectTestCommand(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		files map[string]string
		want  projectRunner
		found bool
	}{
		{"nothing", map[string]string{"setup.py": "", "tests/test_a.py": ""}, projectRunner{}, false},
		{"pyproject pytest table", map[string]string{"pyproject.toml": "[tool.pytest.ini_options]\naddopts = \"-q\"\n"},
			projectRunner{Runner: "pytest", Why: "pyproject.toml has [tool.pytest.ini_options]"}, true},
		{"hatch test script", map[string]string{"pyproject.toml": "[tool.hatch.envs.default.scripts]\ntest = \"python -m unittest discover -s tests {args}\"\n"},
			projectRunner{Runner: "unittest", Args: []string{"discover", "-s", "tests"}, Why: "pyproject.toml [tool.hatch] test script: python -m unittest discover -s tests {args}"}, true},
		{"setup.cfg", map[string]string{"setup.cfg": "[metadata]\nname = x\n[tool:pytest]\n"},
			projectRunner{Runner: "pytest", Why: "setup.cfg has [tool:pytest]"}, true},
		{"tox with coverage and setenv", map[string]string{"tox.ini": "[tox]\nenvlist = py\n\n[testenv]\nsetenv =\n    A = 1\ncommands =\n    py.test --basetemp={envtmpdir} --cov=pkg --cov-report term-missing -x {posargs}\n"},
			projectRunner{Runner: "pytest", Args: []string{"-x"}, Env: []string{"A=1"}, Why: "tox.ini [testenv] commands: py.test --basetemp={envtmpdir} --cov=pkg --cov-report term-missing -x {posargs}"}, true},
		{"tox unittest beats a conftest", map[string]string{"tox.ini": "[testenv]\ncommands = {envpython} -m unittest -v {posargs}\n", "conftest.py": ""},
			projectRunner{Runner: "unittest", Args: []string{"-v"}, Why: "tox.ini [testenv] commands: {envpython} -m unittest -v {posargs}"}, true},
		{"noxfile", map[string]string{"noxfile.py": "@nox.session\ndef tests(session):\n    session.install('.')\n    session.run('python', '-m', 'unittest', 'discover', '-p', '*_test.py')\n"},
			projectRunner{Runner: "unittest", Args: []string{"discover", "-p", "*_test.py"}, Why: "noxfile.py runs: python -m unittest discover -p *_test.py"}, true},
		{"conftest", map[string]string{"tests/conftest.py": ""}, projectRunner{Runner: "pytest", Why: "the project has tests/conftest.py"}, true},
		{"Makefile coverage run", map[string]string{"Makefile": "PY := python3\n\nlint:\n\truff check .\n\ntest: lint\n\t@coverage run -m unittest discover -s tests -t .\n"},
			projectRunner{Runner: "unittest", Args: []string{"discover", "-s", "tests", "-t", "."}, Why: "Makefile target test: coverage run -m unittest discover -s tests -t ."}, true},
		{"Makefile without a test runner", map[string]string{"Makefile": "test:\n\t./run-tests.sh\n"}, projectRunner{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for rel, content := range tt.files {
				writeFile(t, dir, rel, content)
			}
			got, ok := projectTestCommand(dir)
			if ok != tt.found {
				t.Fatalf("found = %v, want %v (%+v)", ok, tt.found, got)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseUnittestMessages(t *testing.T) {
	t.Parallel()
	stderr := `F
======================================================================
FAIL: test_s (tests.test_m.T.test_s)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/p/tests/test_m.py", line 7, in test_s
    self.assertEqual("abc", "abd")
AssertionError: 'abc' != 'abd'
- abc
?   ^
+ abd
?   ^


----------------------------------------------------------------------
Ran 1 test in 0.001s

FAILED (failures=1)
`
	got := ParseUnittest(stderr, "/p")["failures"].([]any)[0].(map[string]any)
	want := map[string]any{"test": "tests.test_m.T.test_s", "type": "fail", "file": "tests/test_m.py", "line": 7,
		"message": "AssertionError: 'abc' != 'abd'\n- abc\n?   ^\n+ abd\n?   ^"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
