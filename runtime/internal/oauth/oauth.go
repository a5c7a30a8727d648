// Package oauth holds the rules of an OAuth 2.1 resource server that both
// the HTTP gate (package runtime) and the JWT verifier (package jwtauth)
// apply, so that they cannot drift apart.
package oauth

import "strings"

// MaxTokenBytes bounds a bearer token; real ones are a few kilobytes.
const MaxTokenBytes = 16 << 10

// SameResource compares resource URIs, ignoring a trailing slash (the
// canonical form has none; clients may add one).
func SameResource(a, b string) bool {
	return strings.TrimSuffix(a, "/") == strings.TrimSuffix(b, "/")
}

// AudienceHas reports whether the token audience aud names resource.
func AudienceHas(aud []string, resource string) bool {
	for _, a := range aud {
		if SameResource(a, resource) {
			return true
		}
	}
	return false
}
