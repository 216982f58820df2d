package provider

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"strings"
	"syscall"
)

// Cause says why a network failure (KindNetwork) happened, so a person can
// be told what to do and the retry policy can fit it: a refused connection
// on this machine will not start answering in 15 s, a TLS mismatch never.
type Cause string

// Network causes.
const (
	CauseNone    Cause = ""
	CauseRefused Cause = "refused" // nothing listens at the host and port
	CauseDNS     Cause = "dns"     // the host name does not resolve
	CauseTLS     Cause = "tls"     // the certificate is not trusted or does not match, or http/https mixed up
	CauseTimeout Cause = "timeout" // no answer in time
)

// Codes a front shows: what went wrong in terms a person can act on. One
// code per sentence of Explain.
const (
	CodeServerDown    = "server_down"     // connection refused: start the server
	CodeUnreachable   = "unreachable"     // DNS or another network failure: check the URL
	CodeTLS           = "tls"             // certificate or scheme mismatch: check the URL
	CodeTimeout       = "timeout"         // no byte for the idle timeout
	CodeConnect       = "connect_timeout" // no connection within the connect timeout
	CodeAuth          = "auth"            // 401/403: check the key
	CodeModelNotFound = "model_not_found" // 404 naming the model: pick a model
	CodeNoAPI         = "no_api"          // 404 without a model: check the URL
	CodeRateLimit     = "rate_limit"
	CodeQuota         = "quota"
	CodeServer        = "server_error"
	CodeStreamBroken  = "stream_broken"
	CodeContext       = "context_overflow"
	CodeBadRequest    = "bad_request"
	CodeRedirect      = "redirect" // the endpoint pointed to another origin: set the URL to it
	CodeCancelled     = "cancelled"
	CodeUnknown       = "unknown"
)

// causeOf classifies a transport error.
func causeOf(err error) Cause {
	var (
		unknownCA  x509.UnknownAuthorityError
		hostErr    x509.HostnameError
		invalidErr x509.CertificateInvalidError
		verifyErr  *tls.CertificateVerificationError
		recordErr  tls.RecordHeaderError
		dnsErr     *net.DNSError
		ne         net.Error
	)
	switch {
	case errors.As(err, &verifyErr), errors.As(err, &unknownCA), errors.As(err, &hostErr),
		errors.As(err, &invalidErr), errors.As(err, &recordErr),
		strings.Contains(err.Error(), "server gave HTTP response to HTTPS client"),
		strings.Contains(err.Error(), "tls: "):
		return CauseTLS
	case errors.Is(err, syscall.ECONNREFUSED):
		return CauseRefused
	case errors.As(err, &dnsErr):
		return CauseDNS
	case errors.As(err, &ne) && ne.Timeout():
		return CauseTimeout
	}
	return CauseNone
}

// Code is e's code (one of the Code constants).
func (e *Error) Code() string {
	switch e.Kind {
	case KindNetwork:
		switch e.Cause {
		case CauseRefused:
			return CodeServerDown
		case CauseTLS:
			return CodeTLS
		case CauseTimeout:
			if e.connect {
				return CodeConnect
			}
			return CodeTimeout
		}
		return CodeUnreachable
	case KindAuth:
		return CodeAuth
	case KindNotFound:
		if e.modelMissing {
			return CodeModelNotFound
		}
		return CodeNoAPI
	case KindRateLimit:
		return CodeRateLimit
	case KindQuota:
		return CodeQuota
	case KindServer:
		return CodeServer
	case KindStreamBroken:
		if e.Cause == CauseTimeout {
			return CodeTimeout
		}
		return CodeStreamBroken
	case KindContextOverflow:
		return CodeContext
	case KindBadRequest:
		if e.redirect != nil {
			return CodeRedirect
		}
		return CodeBadRequest
	case KindCancelled:
		return CodeCancelled
	}
	return CodeUnknown
}

// Sentence says in one sentence what went wrong and what to do, without
// Go's error text: the endpoint, the HTTP status and (for a rejected
// request or a server failure) the server's own short message at most.
func (e *Error) Sentence() string {
	host := e.Endpoint
	status := ""
	if e.Status != 0 {
		status = fmt.Sprintf(" (%d)", e.Status)
	}
	switch e.Code() {
	case CodeServerDown:
		return fmt.Sprintf("The model server at %s is not running (connection refused): start it, or check the URL in Settings, then retry.", host)
	case CodeUnreachable:
		if e.Cause == CauseDNS {
			return fmt.Sprintf("The host of %s cannot be found: check the URL in Settings, then retry.", host)
		}
		return fmt.Sprintf("The model server at %s cannot be reached: check that it is running and the URL in Settings, then retry.", host)
	case CodeTLS:
		return fmt.Sprintf("The secure connection to %s failed (its certificate is not trusted or does not match, or http and https are mixed up): check the URL in Settings.", host)
	case CodeTimeout:
		if e.Timeout == 0 {
			return fmt.Sprintf("The model server at %s did not answer in time: check that it is running and not overloaded, then retry.", host)
		}
		return fmt.Sprintf("The model server at %s sent nothing for %s%s, so Vis gave up on the reply: check that it is running and not overloaded, then retry; "+
			"if it needs longer before its first token, raise provider.idle_timeout_seconds in config.yml.", host, e.Timeout, where(e.timeoutWhere))
	case CodeConnect:
		return fmt.Sprintf("No connection to the model server at %s could be made within %s%s: check the URL in Settings and that the server and the network are up, then retry.",
			host, e.Timeout, where(e.timeoutWhere))
	case CodeAuth:
		if e.noKey {
			return fmt.Sprintf("The model server at %s needs an API key%s: add one in Settings.", host, status)
		}
		return fmt.Sprintf("The model server at %s refused the API key%s: check the key in Settings.", host, status)
	case CodeModelNotFound:
		return fmt.Sprintf("The model %q is not available at %s: pick another model in Settings.", e.Model, host)
	case CodeNoAPI:
		return fmt.Sprintf("Nothing at %s answers as an OpenAI-compatible API%s: check the URL in Settings (it usually ends in /v1).", e.Endpoint, status)
	case CodeRateLimit:
		return fmt.Sprintf("The model server at %s is limiting requests%s: wait a minute, then retry.", host, status)
	case CodeQuota:
		return fmt.Sprintf("The account at %s is out of quota or credit%s: check its plan and billing, then retry.", host, status)
	case CodeServer:
		return fmt.Sprintf("The model server at %s failed%s%s: retry, or check the server's log.", host, status, short(e.serverMsg))
	case CodeStreamBroken:
		return fmt.Sprintf("The reply from %s broke off: retry.", host)
	case CodeContext:
		return "The conversation is too long for the model's context window: start a new session, or pick a model with a larger window in Settings."
	case CodeBadRequest:
		return fmt.Sprintf("The model server at %s rejected the request%s%s: check the model in Settings, then retry.", host, status, short(e.serverMsg))
	case CodeRedirect:
		return fmt.Sprintf("The model server at %s redirected to %s, a different address; Vis did not follow it, so your key was not sent there: if that is the real endpoint, put it in Settings.", host, e.redirect.To)
	case CodeCancelled:
		return "Stopped."
	}
	return fmt.Sprintf("The call to the model at %s failed: retry.", host)
}

// Explain is the code and sentence of any error a turn can end with: a
// provider *Error's own, else ("unknown", "") so the caller keeps its text.
func Explain(err error) (code, sentence string) {
	var pe *Error
	if err == nil || !errors.As(err, &pe) {
		return "", ""
	}
	return pe.Code(), pe.Sentence()
}

// where is " (s)", or "" for none.
func where(s string) string {
	if s == "" {
		return ""
	}
	return " (" + s + ")"
}

// short is ": msg" cut to one short clause, or "" for none.
func short(msg string) string {
	msg = strings.Join(strings.Fields(msg), " ")
	if msg == "" {
		return ""
	}
	if r := []rune(msg); len(r) > 120 {
		msg = string(r[:120]) + "…"
	}
	return " (" + strings.TrimRight(msg, ".") + ")"
}
