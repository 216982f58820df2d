package secrets

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type memKeyring struct {
	m    map[string]string
	fail bool
}

func (k *memKeyring) Get(s, u string) (string, error) {
	if k.fail {
		return "", errors.New("no secret service")
	}
	return k.m[s+"/"+u], nil
}
func (k *memKeyring) Set(s, u, p string) error {
	if k.fail {
		return errors.New("no secret service")
	}
	k.m[s+"/"+u] = p
	return nil
}
func (k *memKeyring) Delete(s, u string) error { delete(k.m, s+"/"+u); return nil }

func TestFileFallbackIs0600AndRoundTrips(t *testing.T) {
	file := filepath.Join(t.TempDir(), "desktop", "secrets.json")
	s := NewWith(file, &memKeyring{fail: true})
	where, err := s.Set("openai", "sk-abcdefghijklmnop")
	if err != nil || where != BackendFile {
		t.Fatalf("Set = %q, %v", where, err)
	}
	fi, err := os.Stat(file)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode = %v, %v", fi.Mode(), err)
	}
	k, where, err := s.Get("openai")
	if k != "sk-abcdefghijklmnop" || where != BackendFile || err != nil {
		t.Fatalf("Get = %q %q %v", k, where, err)
	}
	if err := s.Delete("openai"); err != nil {
		t.Fatal(err)
	}
	if k, _, _ := s.Get("openai"); k != "" {
		t.Fatal("deleted key still there")
	}
}

func TestKeyringPreferredAndNoFileCopy(t *testing.T) {
	file := filepath.Join(t.TempDir(), "secrets.json")
	kr := &memKeyring{m: map[string]string{}}
	// A key saved while there was no keyring moves to the keyring later.
	NewWith(file, &memKeyring{fail: true}).Set("or", "sk-or-1234567890")
	s := NewWith(file, kr)
	if where, err := s.Set("or", "sk-or-newkey-0987"); err != nil || where != BackendKeyring {
		t.Fatalf("Set = %q, %v", where, err)
	}
	raw, _ := os.ReadFile(file)
	if strings.Contains(string(raw), "sk-or") {
		t.Fatalf("file still holds a key: %s", raw)
	}
	if k, where, _ := s.Get("or"); k != "sk-or-newkey-0987" || where != BackendKeyring {
		t.Fatalf("Get = %q %q", k, where)
	}
}

func TestDamagedFileIsAClearError(t *testing.T) {
	file := filepath.Join(t.TempDir(), "secrets.json")
	os.WriteFile(file, []byte("{not json"), 0o600)
	_, _, err := NewWith(file, nil).Get("x")
	if err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Fatalf("err = %v", err)
	}
}

func TestHintNeverRevealsTheKey(t *testing.T) {
	for key, want := range map[string]string{"": "", "abc": "…bc", "sk-proj-abcdefghijklmnop1234": "sk-…1234"} {
		if got := Hint(key); got != want {
			t.Errorf("Hint(%q) = %q, want %q", key, got, want)
		}
	}
}
