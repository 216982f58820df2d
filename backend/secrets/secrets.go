// Package secrets keeps provider API keys out of config files: in the OS
// keyring (the Secret Service on Linux, Keychain on macOS, Credential Manager
// on Windows) where one answers, else in a 0600 JSON file under the app's
// state directory. Keys are never logged and never returned by anything but
// Get; Hint gives a safe preview for the window.
//
// A Store is safe for concurrent use. The keyring is probed lazily on the
// first call; a machine without one (CI, a bare Xvfb) uses the file.
package secrets

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/zalando/go-keyring"
)

const service = "vis-desktop"

// Backend names where a Store keeps keys.
const (
	BackendKeyring = "keyring"
	BackendFile    = "file"
)

// Keyring is the subset of a keyring the Store uses (tests inject one).
type Keyring interface {
	Get(service, user string) (string, error)
	Set(service, user, secret string) error
	Delete(service, user string) error
}

type osKeyring struct{}

func (osKeyring) Get(s, u string) (string, error) { return keyring.Get(s, u) }
func (osKeyring) Set(s, u, p string) error        { return keyring.Set(s, u, p) }
func (osKeyring) Delete(s, u string) error        { return keyring.Delete(s, u) }

// Store keeps API keys by provider id.
type Store struct {
	file string
	kr   Keyring // nil = file only

	mu sync.Mutex
}

// New returns a store using the OS keyring when it works, else file (0600).
func New(file string) *Store { return &Store{file: file, kr: osKeyring{}} }

// NewWith returns a store with a given keyring (nil = file only).
func NewWith(file string, kr Keyring) *Store { return &Store{file: file, kr: kr} }

// Set saves key for id. An empty key deletes it. It returns where the key
// went.
func (s *Store) Set(id, key string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if key == "" {
		return "", s.deleteLocked(id)
	}
	if s.kr != nil {
		if err := s.kr.Set(service, id, key); err == nil {
			// Never keep a second copy in the file.
			if err := s.fileDelete(id); err != nil {
				return BackendKeyring, err
			}
			return BackendKeyring, nil
		}
	}
	m, err := s.readFile()
	if err != nil {
		return "", err
	}
	m[id] = key
	return BackendFile, s.writeFile(m)
}

// Get returns the key for id ("" when none) and where it was found.
func (s *Store) Get(id string) (string, string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.kr != nil {
		if k, err := s.kr.Get(service, id); err == nil && k != "" {
			return k, BackendKeyring, nil
		}
	}
	m, err := s.readFile()
	if err != nil {
		return "", "", err
	}
	if k := m[id]; k != "" {
		return k, BackendFile, nil
	}
	return "", "", nil
}

// Delete removes id's key everywhere.
func (s *Store) Delete(id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.deleteLocked(id)
}

func (s *Store) deleteLocked(id string) error {
	if s.kr != nil {
		_ = s.kr.Delete(service, id) // absent, or no keyring here: nothing to delete there
	}
	return s.fileDelete(id)
}

func (s *Store) fileDelete(id string) error {
	m, err := s.readFile()
	if err != nil {
		return err
	}
	if _, ok := m[id]; !ok {
		return nil
	}
	delete(m, id)
	return s.writeFile(m)
}

func (s *Store) readFile() (map[string]string, error) {
	m := map[string]string{}
	raw, err := os.ReadFile(s.file)
	if errors.Is(err, os.ErrNotExist) {
		return m, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read secrets file: %w", err)
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("secrets file %s is damaged (not JSON); move it away to start over", s.file)
	}
	return m, nil
}

func (s *Store) writeFile(m map[string]string) error {
	if err := os.MkdirAll(filepath.Dir(s.file), 0o700); err != nil {
		return fmt.Errorf("write secrets file: %w", err)
	}
	raw, _ := json.MarshalIndent(m, "", "  ")
	tmp := s.file + ".tmp"
	if err := os.WriteFile(tmp, raw, 0o600); err != nil {
		return fmt.Errorf("write secrets file: %w", err)
	}
	if err := os.Chmod(tmp, 0o600); err != nil {
		return fmt.Errorf("write secrets file: %w", err)
	}
	if err := os.Rename(tmp, s.file); err != nil {
		return fmt.Errorf("write secrets file: %w", err)
	}
	return nil
}

// Hint is a safe preview of a key: its first 3 and last 4 characters.
func Hint(key string) string {
	r := []rune(key)
	if len(r) == 0 {
		return ""
	}
	if len(r) < 12 {
		return "…" + string(r[len(r)-min(2, len(r)):])
	}
	return string(r[:3]) + "…" + string(r[len(r)-4:])
}
