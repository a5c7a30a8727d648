// Package audience compares OAuth resource identifiers the one way both the
// HTTP gate (package runtime) and the JWT verifier (package jwtauth) do.
package audience

import "strings"

// Same compares resource URIs, ignoring a trailing slash (the canonical form
// has none; clients may add one).
func Same(a, b string) bool {
	return strings.TrimSuffix(a, "/") == strings.TrimSuffix(b, "/")
}

// Has reports whether the token audience aud names resource.
func Has(aud []string, resource string) bool {
	for _, a := range aud {
		if Same(a, resource) {
			return true
		}
	}
	return false
}
