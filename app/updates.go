package app

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/visdesktop/vis/backend/config"
)

// UpdateNotice is the window's quiet "a newer version is available" line.
type UpdateNotice struct {
	Version string `json:"version"` // the newer release
	URL     string `json:"url"`     // where to get it (http or https), "" when the feed named none
	Notes   string `json:"notes"`   // one line about it, may be ""
	Current string `json:"current"` // the running version
}

// updateTimeout bounds the whole check: a slow or silent server costs the
// window nothing but a notice that never shows.
const updateTimeout = 10 * time.Second

// maxFeedBytes is the most of the feed's answer read.
const maxFeedBytes = 64 << 10

// CheckForUpdate asks the configured feed (config.yml `updates.check_url`,
// off by default) whether a release newer than this one exists. It returns
// nil when no check is configured, when this build is not a release (a
// development build's version is a commit, not a version), and when the
// feed names nothing newer. The page calls it once, after its first frame;
// a failure is an error the page keeps to itself.
func (a *App) CheckForUpdate() (*UpdateNotice, error) {
	cfg, err := config.Load(a.opts.Home, "", os.Getenv)
	if err != nil {
		return nil, fmt.Errorf("%w: update check: %v", ErrInput, err)
	}
	feed := strings.TrimSpace(cfg.Updates.CheckURL)
	current, ok := parseVersion(a.opts.Version)
	if feed == "" || !ok {
		return nil, nil
	}
	ctx, _ := a.base()
	ctx, cancel := context.WithTimeout(ctx, updateTimeout)
	defer cancel()
	return checkFeed(ctx, http.DefaultClient, feed, a.opts.Version, current)
}

func checkFeed(ctx context.Context, client *http.Client, feed, currentText string, current version) (*UpdateNotice, error) {
	u, err := url.Parse(feed)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, fmt.Errorf("%w: update check: updates.check_url %q is not an http(s) address", ErrInput, feed)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, feed, nil)
	if err != nil {
		return nil, fmt.Errorf("update check: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "vis-desktop/"+currentText)
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("update check: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("update check: %s answered %s", u.Host, resp.Status)
	}
	var got struct {
		Version string `json:"version"`
		URL     string `json:"url"`
		Notes   string `json:"notes"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxFeedBytes)).Decode(&got); err != nil {
		return nil, fmt.Errorf("update check: %s answered something that is not the feed's JSON: %v", u.Host, err)
	}
	latest, ok := parseVersion(got.Version)
	if !ok {
		return nil, fmt.Errorf("update check: %s named version %q, not a version", u.Host, got.Version)
	}
	if !current.less(latest) {
		return nil, nil
	}
	link := strings.TrimSpace(got.URL)
	if lu, err := url.Parse(link); err != nil || (lu.Scheme != "https" && lu.Scheme != "http") {
		link = "" // never hand the page a javascript: or file: link
	}
	notes := firstLine(got.Notes, 200) // by characters: a cut never splits one
	return &UpdateNotice{Version: strings.TrimPrefix(strings.TrimSpace(got.Version), "v"), URL: link, Notes: notes, Current: currentText}, nil
}

// version is MAJOR.MINOR.PATCH with an optional pre-release (1.2.0-rc.1):
// enough to order releases; a pre-release sorts before its release.
type version struct {
	n   [3]int
	pre string
}

// parseVersion reads "1.2.3", "v1.2", "1.2.3-rc.1" or a Debian-made
// "1.2.3~rc1"; a commit hash or "dev" is not a version.
func parseVersion(s string) (version, bool) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "v")
	var v version
	if i := strings.IndexAny(s, "-~+"); i >= 0 {
		if s[i] != '+' {
			v.pre = s[i+1:]
		}
		s = s[:i]
	}
	parts := strings.Split(s, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return version{}, false
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return version{}, false
		}
		v.n[i] = n
	}
	return v, true
}

func (v version) less(w version) bool {
	for i := range v.n {
		if v.n[i] != w.n[i] {
			return v.n[i] < w.n[i]
		}
	}
	switch {
	case v.pre == w.pre:
		return false
	case v.pre == "":
		return false // a release is newer than its pre-releases
	case w.pre == "":
		return true
	default:
		return v.pre < w.pre
	}
}
