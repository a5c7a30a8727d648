package gen_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	petstore "github.com/mcpgen/mcpgen/golden/upstream"
	"github.com/mcpgen/mcpgen/runtime"
)

// received is one request the test API got.
type received struct {
	Method, Path, Query, Body string
	Header                    http.Header
}

// TestUpstreamCalls serves golden/upstream's generated UpstreamHandler
// against a test API and calls each bound tool as a client would (through
// the registered tool, arguments validated): the request the API receives
// is the binding's, and its answer is the tool's typed output, or an
// isError result with the status and the start of the body.
func TestUpstreamCalls(t *testing.T) {
	var got received
	answer := map[string]string{} // "METHOD path" → status and body, as "404 {...}"
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got = received{r.Method, r.URL.EscapedPath(), r.URL.RawQuery, string(b), r.Header.Clone()}
		status, body := 200, `{"id":7,"name":"Rex","status":"available"}`
		if a, ok := answer[r.Method+" "+r.URL.Path]; ok {
			status, body = 404, a
			if rest, is200 := strings.CutPrefix(a, "200 "); is200 {
				status, body = 200, rest
			}
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
	}))
	defer api.Close()
	t.Setenv("PETSTORE_BASE_URL", api.URL+"/v3")
	t.Setenv("PETSTORE_API_KEY", "secret-key")

	h, err := petstore.NewUpstreamHandler(petstore.UpstreamConfig())
	if err != nil {
		t.Fatal(err)
	}
	srv := petstore.NewServer(h)
	call := func(tool, args string) *runtime.CallToolResult {
		t.Helper()
		for _, tl := range srv.Tools() {
			if tl.Name == tool {
				res, err := tl.Handler(context.Background(), &runtime.CallToolRequest{Name: tool, Arguments: json.RawMessage(args)})
				if err != nil {
					t.Fatal(err)
				}
				return res
			}
		}
		t.Fatalf("no tool %s", tool)
		return nil
	}
	text := func(res *runtime.CallToolResult) string {
		b, _ := json.Marshal(res)
		return string(b)
	}

	res := call("get_pet", `{"petId":7}`)
	if got.Method != "GET" || got.Path != "/v3/pet/7" || got.Header.Get("api_key") != "secret-key" {
		t.Errorf("get_pet sent %s %s with api_key %q", got.Method, got.Path, got.Header.Get("api_key"))
	}
	if res.IsError || !strings.Contains(text(res), `"structuredContent":{"id":7,"name":"Rex","status":"available"}`) {
		t.Errorf("get_pet result = %s", text(res))
	}

	call("find_pets", `{"status":["available","sold"],"tags":["a b","c"],"request_id":"r-1","owner":["ann","bo"]}`)
	if got.Path != "/v3/pet/findByStatus" || got.Query != "status=available&status=sold&tags=a%20b,c&owner=ann&owner=bo" || got.Header.Get("X-Request-ID") != "r-1" {
		t.Errorf("find_pets sent %s?%s, X-Request-ID %q", got.Path, got.Query, got.Header.Get("X-Request-ID"))
	}

	call("add_pet", `{"pet":{"name":"Rex","tags":["good"]}}`)
	if got.Method != "POST" || got.Body != `{"name":"Rex","tags":["good"]}` || got.Header.Get("Content-Type") != "application/json" {
		t.Errorf("add_pet sent %s %s", got.Method, got.Body)
	}

	call("rename_pet", `{"petId":7,"name":"Max","session":"s1"}`)
	if got.Method != "PUT" || got.Path != "/v3/pet/7/name" || got.Body != `{"name":"Max"}` || got.Header.Get("Cookie") != "session=s1" {
		t.Errorf("rename_pet sent %s %s %s, cookie %q", got.Method, got.Path, got.Body, got.Header.Get("Cookie"))
	}

	call("update_pet_form", `{"petId":7,"name":"Max","labels":{"color":"brown"},"fields":{"include":["tags"]}}`)
	if got.Method != "POST" || got.Path != "/v3/pet/7" || got.Body != "labels%5Bcolor%5D=brown&name=Max" ||
		got.Query != "fields%5Binclude%5D%5B0%5D=tags" || got.Header.Get("Content-Type") != "application/x-www-form-urlencoded" {
		t.Errorf("update_pet_form sent %s %s?%s %s (%s)", got.Method, got.Path, got.Query, got.Body, got.Header.Get("Content-Type"))
	}

	call("tag_pets", `{"Action":"TagPets","PetIds":[7,8],"Tags":[{"Key":"env","Value":"a b"},{"Key":"x"}],"Attributes":{"k":"v"}}`)
	if got.Method != "POST" || got.Path != "/v3/" || got.Query != "Action=TagPets" ||
		got.Body != "PetId.1=7&PetId.2=8&Tags.Tag.1.Key=env&Tags.Tag.1.Value=a+b&Tags.Tag.2.Key=x&Attribute.1.key=k&Attribute.1.value=v" ||
		got.Header.Get("Content-Type") != "application/x-www-form-urlencoded" {
		t.Errorf("tag_pets sent %s %s?%s %s (%s)", got.Method, got.Path, got.Query, got.Body, got.Header.Get("Content-Type"))
	}

	answer["DELETE /v3/pet/9"] = `{"code":404,"message":"Pet not found"}`
	res = call("delete_pet", `{"petId":9}`)
	if !res.IsError || !strings.Contains(text(res), `upstream DELETE /pet/{petId} answered 404 Not Found: {\"code\":404,\"message\":\"Pet not found\"}`) {
		t.Errorf("delete_pet of a missing pet = %s", text(res))
	}

	// An answer that is not the tool's output: isError, naming the
	// property, never a zero value or Go's words.
	answer["GET /v3/pet/8"] = `200 {"id":8,"status":"sold","tags":[1]}`
	res = call("get_pet", `{"petId":8}`)
	if !res.IsError || !strings.Contains(text(res), `upstream GET /pet/{petId}: the answer does not match the tool's output schema:\n- /name: is required but missing\n- /tags/0: must be`) {
		t.Errorf("get_pet of a pet without a name = %s", text(res))
	}

	// Arguments the input schema refuses never reach the API.
	got = received{}
	if res := call("get_pet", `{"petId":"seven"}`); !res.IsError || got.Method != "" {
		t.Errorf("a bad argument: result %s, API called with %q", text(res), got.Method)
	}

	// A tool without a binding is the handler's: UpstreamHandler answers
	// not implemented.
	if res := call("store_status", `{}`); !res.IsError || !strings.Contains(text(res), "not implemented") {
		t.Errorf("store_status = %s", text(res))
	}
}

// ownStatus is a handler that embeds the generated calls, implements the
// unbound tool, and replaces one generated call.
type ownStatus struct {
	*petstore.UpstreamHandler
}

func (ownStatus) StoreStatus(context.Context) (*petstore.StoreStatusOutput, error) {
	return &petstore.StoreStatusOutput{Open: true}, nil
}

func (ownStatus) GetPet(_ context.Context, in *petstore.GetPetInput) (*petstore.Pet, error) {
	return &petstore.Pet{Name: "by hand"}, nil
}

func TestUpstreamCallsCanBeReplaced(t *testing.T) {
	h, err := petstore.NewUpstreamHandler(petstore.UpstreamConfig()) // the spec's base URL: never called here
	if err != nil {
		t.Fatal(err)
	}
	srv := petstore.NewServer(ownStatus{h})
	for _, tl := range srv.Tools() {
		var args string
		switch tl.Name {
		case "store_status":
			args = `{}`
		case "get_pet":
			args = `{"petId":1}`
		default:
			continue
		}
		res, err := tl.Handler(context.Background(), &runtime.CallToolRequest{Name: tl.Name, Arguments: json.RawMessage(args)})
		b, _ := json.Marshal(res)
		if err != nil || res.IsError || !(strings.Contains(string(b), `"open":true`) || strings.Contains(string(b), `"name":"by hand"`)) {
			t.Errorf("%s = %s, %v", tl.Name, b, err)
		}
	}
}
