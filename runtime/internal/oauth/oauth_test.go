package oauth

import "testing"

func TestAudienceHas(t *testing.T) {
	for _, tc := range []struct {
		aud      []string
		resource string
		want     bool
	}{
		{[]string{"https://mcp.test/mcp"}, "https://mcp.test/mcp", true},
		{[]string{"https://other.test", "https://mcp.test/mcp/"}, "https://mcp.test/mcp", true}, // a trailing slash is the same resource
		{[]string{"https://mcp.test/mcp"}, "https://mcp.test/mcp/", true},                       // on either side
		{[]string{"https://mcp.test/mcp"}, "https://mcp.test/mcp2", false},
		{nil, "https://mcp.test/mcp", false},
	} {
		if got := AudienceHas(tc.aud, tc.resource); got != tc.want {
			t.Errorf("AudienceHas(%q, %q) = %v, want %v", tc.aud, tc.resource, got, tc.want)
		}
	}
}
