package sealed

import (
	"bytes"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
)

func mustBox(t *testing.T, secret, purpose string) *Box {
	t.Helper()
	b, err := New([]byte(secret), purpose)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSealOpen(t *testing.T) {
	b := mustBox(t, "0123456789abcdef0123456789abcdef", "state")
	msg := []byte(`{"owner":"alice","answer":"secret-answer"}`)
	s1, s2 := b.Seal(msg), b.Seal(msg)
	if s1 == s2 {
		t.Error("two seals of one message are equal: the nonce is not fresh")
	}
	raw, _ := base64.RawURLEncoding.DecodeString(s1)
	for _, leak := range []string{"alice", "secret-answer", "owner"} {
		if bytes.Contains(raw, []byte(leak)) || strings.Contains(s1, leak) {
			t.Errorf("the sealed message shows %q", leak)
		}
	}
	got, err := b.Open(s1)
	if err != nil || !bytes.Equal(got, msg) {
		t.Fatalf("Open: %q, %v", got, err)
	}
}

func TestOpenRefuses(t *testing.T) {
	secret := "0123456789abcdef0123456789abcdef"
	b := mustBox(t, secret, "state")
	s := b.Seal([]byte("hello"))
	raw, _ := base64.RawURLEncoding.DecodeString(s)
	flip := func(i int) string {
		c := bytes.Clone(raw)
		c[i] ^= 1
		return base64.RawURLEncoding.EncodeToString(c)
	}
	for name, bad := range map[string]string{
		"a ciphertext bit flipped":      flip(len(raw) - 20),
		"a nonce bit flipped":           flip(3),
		"the tag flipped":               flip(len(raw) - 1),
		"another version":               flip(0),
		"truncated":                     s[:len(s)-6],
		"empty":                         "",
		"not base64url":                 s + "!",
		"padded":                        s + "=",
		"sealed under another secret":   mustBox(t, "another secret, of 32 bytes too", "state").Seal([]byte("hello")),
		"sealed for another purpose":    mustBox(t, secret, "other").Seal([]byte("hello")),
		"only a version byte and nonce": base64.RawURLEncoding.EncodeToString(raw[:13]),
	} {
		if got, err := b.Open(bad); !errors.Is(err, ErrOpen) {
			t.Errorf("%s: opened to %q, %v", name, got, err)
		}
	}
}

// BenchmarkSealOpen is the cost of a requestState-sized round trip.
func BenchmarkSealOpen(b *testing.B) {
	box, err := New([]byte("0123456789abcdef0123456789abcdef"), "state")
	if err != nil {
		b.Fatal(err)
	}
	msg := bytes.Repeat([]byte("x"), 300)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := box.Open(box.Seal(msg)); err != nil {
			b.Fatal(err)
		}
	}
}
