// Package naming turns spec names (lookup_order, order-id, websiteUrl,
// in-progress) into golint-quiet Go identifiers (LookupOrder, OrderID,
// WebsiteURL, InProgress). The spec validator and the generator share it, so
// that a collision the validator reports is exactly one the generator would
// have produced.
package naming

import (
	"strings"
	"unicode"
)

// initialisms are written all upper case in Go names (golint's list, plus a
// few common in MCP servers).
var initialisms = map[string]bool{
	"ACL": true, "API": true, "ASCII": true, "CPU": true, "CSS": true, "CSV": true, "DNS": true,
	"EOF": true, "GUID": true, "HTML": true, "HTTP": true, "HTTPS": true, "ID": true, "IP": true,
	"JSON": true, "JWT": true, "LHS": true, "MCP": true, "OS": true, "QPS": true, "RAM": true, "RHS": true,
	"RPC": true, "SLA": true, "SMTP": true, "SQL": true, "SSH": true, "TCP": true, "TLS": true,
	"TTL": true, "UDP": true, "UI": true, "UID": true, "UUID": true, "URI": true, "URL": true,
	"UTF8": true, "VM": true, "XML": true, "XMPP": true, "XSRF": true, "XSS": true,
}

// Words splits a name into words at separators (anything not a letter or
// digit) and at lower→upper case changes: "websiteUrl" → [website Url],
// "HTTPServer" → [HTTP Server], "order_id" → [order id].
func Words(name string) []string {
	var words []string
	runes := []rune(name)
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			words = append(words, string(runes[start:end]))
		}
		start = -1
	}
	for i, r := range runes {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush(i)
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		prev := runes[i-1]
		switch {
		case unicode.IsLower(prev) && unicode.IsUpper(r):
			flush(i)
			start = i
		case unicode.IsUpper(prev) && unicode.IsUpper(r) && i+1 < len(runes) && unicode.IsLower(runes[i+1]):
			// "HTTPServer": the S starts a new word.
			flush(i)
			start = i
		case unicode.IsDigit(prev) != unicode.IsDigit(r) && unicode.IsLetter(r) && unicode.IsDigit(prev):
			// "v2beta" stays one word; digits then letters split only after
			// an all-digit run ("2fa" → [2 fa]).
			if allDigits(runes[start:i]) {
				flush(i)
				start = i
			}
		}
	}
	flush(len(runes))
	return words
}

func allDigits(rs []rune) bool {
	for _, r := range rs {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// Exported returns the exported Go identifier for a spec name. It returns ""
// when the name has no letter or digit at all. A name that would start with
// a digit is prefixed with "N" ("2fa" → "N2Fa").
func Exported(name string) string {
	var b strings.Builder
	for _, w := range Words(name) {
		up := strings.ToUpper(w)
		if initialisms[up] {
			b.WriteString(up)
			continue
		}
		rs := []rune(w)
		b.WriteRune(unicode.ToUpper(rs[0]))
		b.WriteString(string(rs[1:]))
	}
	s := b.String()
	if s != "" && unicode.IsDigit([]rune(s)[0]) {
		s = "N" + s
	}
	return s
}

// Unexported returns the unexported form of Exported(name): its first word
// in lower case ("OrderID" → "orderID", "URL" → "url").
func Unexported(name string) string {
	e := Exported(name)
	if e == "" {
		return ""
	}
	words := Words(name)
	first := Exported(words[0])
	if first == "" || !strings.HasPrefix(e, first) {
		return strings.ToLower(e[:1]) + e[1:]
	}
	return strings.ToLower(first) + e[len(first):]
}
