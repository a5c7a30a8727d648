package authz_test

import (
	"testing"

	"github.com/mcpgen/mcpgen/runtime/authz"
)

// TestOwnerKeysOneIdentity: Owner gives two identities two keys whatever
// their claims spell (a subject and a client of the same name, the same
// subject at two issuers, separators forged inside a claim), and one
// identity one key (the subject decides; its client does not).
func TestOwnerKeysOneIdentity(t *testing.T) {
	distinct := []authz.Info{
		{Issuer: "https://as", Subject: "x"},
		{Issuer: "https://as", ClientID: "x"},
		{Issuer: "https://other", Subject: "x"},
		{Issuer: "https://other", ClientID: "x"},
		{Issuer: "https://as", Subject: "client:x"},
		{Issuer: "https://as", Subject: `x" client "x`},
		{Issuer: `https://as" sub "x`, Subject: "y"},
		{Issuer: "https://as", Subject: `x" sub "y`},
	}
	seen := map[string]authz.Info{}
	for _, a := range distinct {
		o := a.Owner()
		if b, dup := seen[o]; dup {
			t.Errorf("%+v and %+v share the owner %s", b, a, o)
		}
		seen[o] = a
	}
	same := []authz.Info{
		{Issuer: "https://as", Subject: "x"},
		{Issuer: "https://as", Subject: "x", ClientID: "app1"},
		{Issuer: "https://as", Subject: "x", ClientID: "app2", Scopes: []string{"a"}},
	}
	for _, a := range same[1:] {
		if a.Owner() != same[0].Owner() {
			t.Errorf("%+v: owner %s, want the subject's %s", a, a.Owner(), same[0].Owner())
		}
	}
}
