package naming

import "testing"

func TestExported(t *testing.T) {
	cases := map[string]string{
		"lookup_order":     "LookupOrder",
		"order_id":         "OrderID",
		"OrderID":          "OrderID",
		"websiteUrl":       "WebsiteURL",
		"in-progress":      "InProgress",
		"HTTPServer":       "HTTPServer",
		"api.v2.get":       "APIV2Get",
		"2fa":              "N2Fa",
		"test_simple_text": "TestSimpleText",
		"":                 "",
		"---":              "",
		"ui":               "UI",
		"x":                "X",
		"pending":          "Pending",
	}
	for in, want := range cases {
		if got := Exported(in); got != want {
			t.Errorf("Exported(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestUnexported(t *testing.T) {
	cases := map[string]string{
		"order_id":     "orderID",
		"url":          "url",
		"lookup_order": "lookupOrder",
		"ID":           "id",
	}
	for in, want := range cases {
		if got := Unexported(in); got != want {
			t.Errorf("Unexported(%q) = %q, want %q", in, got, want)
		}
	}
}
