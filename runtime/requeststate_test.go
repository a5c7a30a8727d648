package runtime_test

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/internal/jwttest"
)

// flipInside changes one bit in the middle of a requestState.
func flipInside(state string) string {
	raw, err := base64.RawURLEncoding.DecodeString(state)
	if err != nil {
		return state + "x"
	}
	raw[len(raw)/2] ^= 1
	return base64.RawURLEncoding.EncodeToString(raw)
}

// TestRequestStateRevealsNothing: a state issued to alice after she
// answered carries her identity and her answer, yet neither appears in it,
// in any of the encodings a reader would try.
func TestRequestStateRevealsNothing(t *testing.T) {
	k := jwttest.TheKeys(t)
	ts := httptest.NewServer(mrtrServer().HTTPHandler(runtime.WithAuthorization(authConfig(t))))
	t.Cleanup(ts.Close)
	alice := map[string]string{"Authorization": "Bearer " + jwttest.Sign(t, "RS256", "rsa-1", k.RSA, jwttest.Claims("alice-the-owner", "mcp:access"))}
	_, h, body := modernPost(t, ts.URL, req(1, "tools/call", callParams("rounds", allCaps, "")), alice)
	_, s1 := roundResult(t, sseData(h.Get("Content-Type"), body)[0])
	_, h, body = modernPost(t, ts.URL, req(2, "tools/call", callParams("rounds", allCaps,
		`,"inputResponses":{"input-0":{"action":"accept","content":{"name":"the-secret-answer"}}},"requestState":`+jsonString(s1))), alice)
	r2, s2 := roundResult(t, sseData(h.Get("Content-Type"), body)[0])
	if !strings.Contains(r2, "the-secret-answer") || s2 == "" { // the handler saw the answer, and asks again
		t.Fatalf("round 2: %s", r2)
	}
	raw, err := base64.RawURLEncoding.DecodeString(s2)
	if err != nil {
		t.Fatalf("state not base64url: %v", err)
	}
	for _, secret := range []string{"alice-the-owner", "the-secret-answer", "tools/call", "rounds", "input-0", jwttest.Issuer} {
		b64 := base64.RawURLEncoding.EncodeToString([]byte(secret))
		if bytes.Contains(raw, []byte(secret)) || strings.Contains(s2, secret) || strings.Contains(s2, b64[:len(b64)-2]) {
			t.Errorf("the requestState shows %q", secret)
		}
	}
}

// TestRequestStateKeepsOnlyAskedAnswers: answers the handler never asked
// for are not carried into the next round's state, however big.
func TestRequestStateKeepsOnlyAskedAnswers(t *testing.T) {
	ex := sessionExchanger(t, mrtrServer())
	_, s1 := roundResult(t, ex(t, req(1, "tools/call", callParams("rounds", allCaps, ""))))
	answer := `"input-0":{"action":"accept","content":{"name":"a"}}`
	_, small := roundResult(t, ex(t, req(2, "tools/call", callParams("rounds", allCaps, `,"inputResponses":{`+answer+`},"requestState":`+jsonString(s1)))))
	_, s1 = roundResult(t, ex(t, req(3, "tools/call", callParams("rounds", allCaps, ""))))
	var extra strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&extra, `,"unasked-%d":{"action":"accept","content":{"pad":"%s"}}`, i, strings.Repeat("x", 40))
	}
	_, big := roundResult(t, ex(t, req(4, "tools/call", callParams("rounds", allCaps, `,"inputResponses":{`+answer+extra.String()+`},"requestState":`+jsonString(s1)))))
	t.Logf("requestState: %d bytes; with %d bytes of unasked answers in the request: %d bytes", len(small), extra.Len(), len(big))
	if small == "" || len(big) != len(small) {
		t.Errorf("the state grew from %d to %d bytes with %d bytes of unasked answers", len(small), len(big), extra.Len())
	}
	// The answer asked for did travel: the last round completes.
	got := ex(t, req(5, "tools/call", callParams("rounds", allCaps, `,"inputResponses":{"input-1":{"action":"accept","content":{"name":"b"}}},"requestState":`+jsonString(big))))
	if !strings.Contains(got, `"text":"a+b"`) {
		t.Errorf("last round: %s", got)
	}
}
