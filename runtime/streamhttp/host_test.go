package streamhttp

import "testing"

// TestHostAllowedExact checks that Host names match whole, never by suffix
// or prefix (DNS rebinding: evil-localhost must not pass as localhost), on
// the loopback default and on WithAllowedHosts entries, with and without
// ports, IPv6 brackets, any case.
func TestHostAllowedExact(t *testing.T) {
	for _, tc := range []struct {
		host    string
		allowed []string
		want    bool
	}{
		// the loopback default
		{"localhost", nil, true},
		{"localhost:3000", nil, true},
		{"LOCALHOST:3000", nil, true},
		{"127.0.0.1", nil, true},
		{"127.0.0.1:8080", nil, true},
		{"[::1]", nil, true},
		{"[::1]:8080", nil, true},
		{"evil-localhost", nil, false},
		{"evil-localhost:3000", nil, false},
		{"evillocalhost", nil, false},
		{"attacker.localhost", nil, false},
		{"localhost.evil.example", nil, false},
		{"localhost.", nil, false},
		{"1127.0.0.1", nil, false},
		{"10.127.0.1", nil, false},
		{"[::::1]", nil, false},
		{"[2001:db8::1]", nil, false},
		{"example.com", nil, false},
		{"", nil, false},
		// configured names
		{"example.com", []string{"example.com"}, true},
		{"EXAMPLE.com:443", []string{"example.com"}, true},
		{"evil-example.com", []string{"example.com"}, false},
		{"attacker.example.com", []string{"example.com"}, false},
		{"example.com.evil", []string{"example.com"}, false},
		{"xample.com", []string{"example.com"}, false},
		{"localhost", []string{"example.com"}, false},
		{"example.com:8443", []string{"example.com:8443"}, true},
		{"example.com:9000", []string{"example.com:8443"}, false},
		{"evil-example.com:8443", []string{"example.com:8443"}, false},
		{"[::1]:8443", []string{"[::1]:8443"}, true},
		{"[fe80::1]:8443", []string{"[::1]:8443"}, false},
		{"anything.example", []string{"*"}, true},
		{"", []string{"*"}, true},
	} {
		if got := hostAllowed(tc.host, tc.allowed); got != tc.want {
			t.Errorf("hostAllowed(%q, %q) = %v, want %v", tc.host, tc.allowed, got, tc.want)
		}
	}
}
