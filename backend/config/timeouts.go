package config

import (
	"fmt"
	"time"
)

// ProviderTimeouts is the config's `provider` section: the deadlines of a
// model call, whichever endpoint the turn resolves to (a configured
// provider, VIS_BASE_URL or --base-url), so they are one global setting
// rather than one per provider entry. A project file may set them (they
// redirect nothing); the file that set each is remembered for messages.
type ProviderTimeouts struct {
	// IdleTimeoutSeconds: a model call that receives no byte for this long
	// (waiting for the response, or inside the stream) is treated as broken
	// and retried, then reported; 0 = DefaultIdleTimeoutSeconds.
	IdleTimeoutSeconds int `yaml:"idle_timeout_seconds,omitempty"`
	// ConnectTimeoutSeconds: how long connecting to the endpoint (TCP and
	// TLS) may take; 0 = DefaultConnectTimeoutSeconds.
	ConnectTimeoutSeconds int `yaml:"connect_timeout_seconds,omitempty"`

	from map[string]string // key -> the file that set it last
}

// The provider timeout keys as a person writes them.
const (
	KeyIdleTimeout    = "provider.idle_timeout_seconds"
	KeyConnectTimeout = "provider.connect_timeout_seconds"
)

// Defaults: two minutes of silence is far longer than any server streams
// nothing once it has started, yet a local server reading a long prompt
// may take a minute before its first token; a connection that takes more
// than 15 s is not going to be made (a real server accepts in well under a
// second, even across the world).
const (
	DefaultIdleTimeoutSeconds    = 120
	DefaultConnectTimeoutSeconds = 15
)

// IdleTimeout is the idle timeout in effect.
func (p ProviderTimeouts) IdleTimeout() time.Duration {
	if p.IdleTimeoutSeconds > 0 {
		return time.Duration(p.IdleTimeoutSeconds) * time.Second
	}
	return DefaultIdleTimeoutSeconds * time.Second
}

// ConnectTimeout is the connect timeout in effect.
func (p ProviderTimeouts) ConnectTimeout() time.Duration {
	if p.ConnectTimeoutSeconds > 0 {
		return time.Duration(p.ConnectTimeoutSeconds) * time.Second
	}
	return DefaultConnectTimeoutSeconds * time.Second
}

// From returns the file that set key last; "" when none did.
func (p ProviderTimeouts) From(key string) string { return p.from[key] }

// Describe says what key is and where it comes from:
// "provider.idle_timeout_seconds: 30 in /h/config.yml" or
// "provider.idle_timeout_seconds: unset, default 120".
func (p ProviderTimeouts) Describe(key string) string {
	var set, def int
	switch key {
	case KeyIdleTimeout:
		set, def = p.IdleTimeoutSeconds, DefaultIdleTimeoutSeconds
	case KeyConnectTimeout:
		set, def = p.ConnectTimeoutSeconds, DefaultConnectTimeoutSeconds
	default:
		return key
	}
	if f := p.From(key); f != "" && set > 0 {
		return fmt.Sprintf("%s: %d in %s", key, set, f)
	}
	return fmt.Sprintf("%s: unset, default %d", key, def)
}

// validate drops negative values (the default applies) with a warning.
func (p *ProviderTimeouts) validate() []string {
	var w []string
	for _, k := range []struct {
		key string
		v   *int
		def int
	}{{KeyIdleTimeout, &p.IdleTimeoutSeconds, DefaultIdleTimeoutSeconds}, {KeyConnectTimeout, &p.ConnectTimeoutSeconds, DefaultConnectTimeoutSeconds}} {
		if *k.v < 0 {
			w = append(w, fmt.Sprintf("%s is %d (%s); the default %d applies", k.key, *k.v, p.From(k.key), k.def))
			*k.v = 0
			delete(p.from, k.key)
		}
	}
	return w
}

// timeoutOrigins records which provider timeout keys file m (read from f)
// sets.
func timeoutOrigins(origins map[string]string, m map[string]any, f string) map[string]string {
	sec, ok := m["provider"].(map[string]any)
	if !ok {
		return origins
	}
	for _, k := range []string{"idle_timeout_seconds", "connect_timeout_seconds"} {
		if _, ok := sec[k]; ok {
			if origins == nil {
				origins = map[string]string{}
			}
			origins["provider."+k] = f
		}
	}
	return origins
}
