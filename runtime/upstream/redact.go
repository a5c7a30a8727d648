package upstream

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// Errors never carry credentials. An upstream may echo the request in its
// answer (an error page naming the URL, query API key included; a message
// quoting the key or the token it refused), and Go's errors quote URLs (a
// redirect's Location that does not parse). Tool errors reach the client,
// the model and the logs, so the client redacts from every error text the
// values its Auth put on the request, as sent and URL-escaped.

// redactedText replaces what stands for a credential.
const redactedText = "[redacted]"

// secrets are the credential values of one request.
type secrets []string

// credentialsAdded is what auth added to req since its query and header
// were before and beforeHeader: the values of new query parameters and
// headers, and the parts of Authorization and Cookie values that are the
// credential itself.
func credentialsAdded(req *http.Request, before url.Values, beforeHeader http.Header) secrets {
	var s secrets
	add := func(v string) {
		if v = strings.TrimSpace(v); v != "" && !slices.Contains(s, v) {
			s = append(s, v)
		}
	}
	for k, vs := range req.URL.Query() {
		for _, v := range vs {
			if !slices.Contains(before[k], v) {
				add(v)
			}
		}
	}
	for k, vs := range req.Header {
		for _, v := range vs {
			if slices.Contains(beforeHeader[k], v) {
				continue
			}
			add(v)
			switch k {
			case "Authorization": // "Bearer TOKEN", "Basic …"
				if scheme, cred, ok := strings.Cut(v, " "); ok {
					add(cred)
					if strings.EqualFold(scheme, "Basic") {
						// An echo may decode the blob: its user and
						// password are credentials too.
						if b, err := base64.StdEncoding.DecodeString(cred); err == nil {
							if u, p, ok := strings.Cut(string(b), ":"); ok {
								add(u)
								add(p)
							}
						}
					}
				}
			case "Cookie":
				for _, c := range req.Cookies() {
					add(c.Value)
				}
			}
		}
	}
	if req.URL.User != nil {
		// The transport sends the userinfo as Basic authorization.
		p, _ := req.URL.User.Password()
		for _, v := range basicCredentials(req.URL.User.Username(), p) {
			add(v)
		}
	}
	return s
}

// basicCredentials are the forms of a Basic authorization's credentials:
// the user, the password and the base64 blob the header carries.
func basicCredentials(user, password string) secrets {
	return secrets{user, password, base64.StdEncoding.EncodeToString([]byte(user + ":" + password))}
}

// clean is text without s: each value, and its URL-escaped forms (a query
// writes a space as %20, queryEscape, or as +, form encoding), becomes
// [redacted]; longest first, so a token inside a longer value goes too.
func (s secrets) clean(text string) string {
	if len(s) == 0 {
		return text
	}
	return replaceForms(text, s.forms())
}

// replaceForms is text with each of forms (longest first) redacted.
func replaceForms(text string, forms []string) string {
	for _, f := range forms {
		text = strings.ReplaceAll(text, f, redactedText)
	}
	return text
}

// forms are the texts that stand for s's values, longest first, none
// empty (an empty password: nothing to hide).
func (s secrets) forms() []string {
	var forms []string
	for _, v := range s {
		forms = append(forms, v, queryEscape(v), url.QueryEscape(v), url.PathEscape(v))
	}
	forms = slices.DeleteFunc(forms, func(f string) bool { return f == "" })
	slices.SortFunc(forms, func(a, b string) int { return len(b) - len(a) })
	return forms
}

// cleanHead is the start of body that an excerpt shows, cleaned before it
// is cut, so no secret is cut in two and half shown. The start is longer
// than an excerpt (cleaning shortens it), and where it ends it may cut a
// secret in two: an end that begins a secret is dropped, as clean cannot
// know the first half of one.
func (s secrets) cleanHead(body []byte) []byte {
	if len(s) == 0 {
		return body
	}
	cut := len(body) > 4*excerptBytes
	if cut {
		body = body[:4*excerptBytes]
	}
	forms := s.forms()
	text := replaceForms(string(body), forms)
	if cut {
		for _, f := range forms {
			for k := min(len(f)-1, len(text)); k > 0; k-- {
				if strings.HasSuffix(text, f[:k]) {
					text = text[:len(text)-k]
					break
				}
			}
		}
	}
	return []byte(text)
}

// redact is err with s cleaned from its text; errors.Is and errors.As
// still see what it wraps (context.Canceled, a *StatusError).
func (s secrets) redact(err error) error {
	if err == nil || len(s) == 0 {
		return err
	}
	if msg := err.Error(); s.clean(msg) != msg {
		return &redactedError{msg: s.clean(msg), err: err}
	}
	return err
}

type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }
