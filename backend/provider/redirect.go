package provider

import (
	"fmt"
	"net/http"
	"net/url"
)

// An endpoint that answers with a redirect to another origin (scheme, host
// or port) is not followed: the request carries the API key, and Go's
// client would forward it to the same host on another port, or over plain
// http. The turn ends with a sentence saying where it pointed; a redirect
// within the origin (a path change) is followed as before.

// RedirectError: the endpoint redirected to another origin.
type RedirectError struct {
	From, To string // origins
}

func (e *RedirectError) Error() string {
	return fmt.Sprintf("the endpoint redirected from %s to another origin, %s; not followed, so the API key was not sent there", e.From, e.To)
}

// sameOriginRedirects returns a copy of hc that follows redirects only
// within the first request's origin (and at most 10, as Go does).
func sameOriginRedirects(hc *http.Client) *http.Client {
	c := *hc
	next := hc.CheckRedirect
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if from, to := origin(via[0].URL), origin(req.URL); from != to {
			return &RedirectError{From: from, To: to}
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= 10 {
			return fmt.Errorf("stopped after 10 redirects")
		}
		return nil
	}
	return &c
}

func origin(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	return u.Scheme + "://" + u.Hostname() + ":" + port
}
