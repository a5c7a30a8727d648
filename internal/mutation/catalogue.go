package main

// A Mutant is one small, plausible bug: in File, the text Original
// (which must occur exactly once) becomes Mutated. The tests of Packages
// must fail on it. Why says what a surviving mutant would mean.
type Mutant struct {
	ID       string
	File     string
	Original string
	Mutated  string
	Packages []string
	Why      string
}

// Test packages, named once: a leaf package's mutants run its own tests
// and those of the package that serves it.
var (
	pkgRuntime   = []string{"./runtime"}
	pkgSpec      = []string{"./spec"}
	pkgGen       = []string{"./gen"}
	pkgCLI       = []string{"./internal/cli"}
	pkgLint      = []string{"./internal/lint"}
	pkgBreaking  = []string{"./internal/breaking"}
	pkgDocs      = []string{"./internal/docs"}
	pkgConfig    = []string{"./internal/clientconfig"}
	pkgSchema    = []string{"./internal/specschema", "./internal/breaking"}
	pkgJWT       = []string{"./runtime/jwtauth"}
	pkgGenimpl   = []string{"./runtime/genimpl", "./gen"}
	pkgJSONWire  = []string{"./runtime/internal/jsonwire", "./runtime"}
	pkgURITmpl   = []string{"./runtime/internal/uritemplate", "./runtime"}
	pkgSafeText  = []string{"./runtime/internal/safetext", "./runtime"}
	pkgValidate  = []string{"./runtime/internal/validate", "./runtime"}
	pkgOAuth     = []string{"./runtime/internal/oauth", "./runtime/jwtauth", "./runtime"}
	pkgCLIAndRun = []string{"./internal/cli", "./runtime"}
)

// Catalogue is every mutant, grouped by package. Keep each Original short
// but unique in its file; TestCatalogue checks that it still is.
var Catalogue = []Mutant{
	// runtime: HTTP transport. The first two are issue 23's item 1, killed
	// by the HTTP-hardening work (slow bodies and headers, tested with
	// short limits as options).
	{ID: "runtime/read-header-timeout", File: "runtime/serve.go",
		Original: "ReadHeaderTimeout: h.cfg.readHeaderTimeout,", Mutated: "",
		Packages: pkgRuntime, Why: "slow headers (slowloris) hold a connection for ever"},
	{ID: "runtime/body-read-deadline", File: "runtime/http.go",
		Original: "_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(h.cfg.bodyReadTimeout))", Mutated: "_ = w",
		Packages: pkgRuntime, Why: "a POST body trickling in holds a goroutine for ever"},
	{ID: "runtime/host-any-port", File: "runtime/http.go",
		Original: `strings.EqualFold(an, name) && (ap == "" || ap == port)`, Mutated: `strings.EqualFold(an, name) && (ap == "" || port != "")`,
		Packages: pkgRuntime, Why: "an allowed Host entry with a port accepts every port"},
	{ID: "runtime/origin-any-scheme", File: "runtime/http.go",
		Original: `(u.Scheme != "http" && u.Scheme != "https")`, Mutated: `(u.Scheme == "ftp")`,
		Packages: pkgRuntime, Why: "an Origin such as ws://localhost passes the loopback check"},
	{ID: "runtime/origin-wildcard", File: "runtime/http.go",
		Original: `if a == "*" || strings.EqualFold(strings.TrimSuffix(a, "/"), origin) {`, Mutated: `if strings.EqualFold(strings.TrimSuffix(a, "/"), origin) {`,
		Packages: pkgRuntime, Why: `WithAllowedOrigins("*") refuses every origin`},
	{ID: "runtime/body-limit-read", File: "runtime/http.go",
		Original: "if int64(len(b)) > h.cfg.maxBody {", Mutated: "if int64(len(b)) > h.cfg.maxBody+1<<20 {",
		Packages: pkgRuntime, Why: "a body that middleware replaced is read past the limit"},
	{ID: "runtime/http-content-type", File: "runtime/http.go",
		Original: `!strings.EqualFold(strings.TrimSpace(mt), "application/json")`, Mutated: `mt == "text/plain"`,
		Packages: pkgRuntime, Why: "a POST of any content type is parsed as JSON"},
	{ID: "runtime/http-version-check", File: "runtime/http.go",
		Original: `v != "" && !slices.Contains(supportedVersions, v)`, Mutated: `false`,
		Packages: pkgRuntime, Why: "an unsupported MCP-Protocol-Version header is accepted"},
	{ID: "runtime/session-id-entropy", File: "runtime/http.go",
		Original: "if _, err := rand.Read(b[:]); err != nil {", Mutated: "if _, err := rand.Read(b[:0]); err != nil {",
		Packages: pkgRuntime, Why: "every session gets the same id"},

	// runtime: authorization.
	{ID: "runtime/auth-first-scope-only", File: "runtime/auth.go",
		Original: "for _, s := range scopes {", Mutated: "for _, s := range scopes[:min(1, len(scopes))] {",
		Packages: pkgRuntime, Why: "a tool needing two scopes is called with its first only (issue 23, item 3)"},
	{ID: "runtime/auth-server-scopes", File: "runtime/authhttp.go",
		Original: "if !info.hasAll(g.cfg.Scopes) {", Mutated: "if false {",
		Packages: pkgRuntime, Why: "a token without the server's scopes is accepted"},
	{ID: "runtime/auth-owner-subject", File: "runtime/auth.go",
		Original: `return strconv.Quote(a.Issuer) + " sub " + strconv.Quote(a.Subject)`, Mutated: `return strconv.Quote(a.Issuer) + " sub "`,
		Packages: pkgRuntime, Why: "anyone with a token of the same issuer takes over a session"},
	{ID: "runtime/auth-resource-fragment", File: "runtime/auth.go",
		Original: `case u.Fragment != "" || u.RawQuery != "":`, Mutated: `case u.Fragment != "":`,
		Packages: pkgRuntime, Why: "a resource URI with a query is accepted (RFC 8707 forbids it)"},

	// runtime: protocol core.
	{ID: "runtime/cursor-zero", File: "runtime/pagination.go",
		Original: "if err != nil || off <= 0 || off > n {", Mutated: "if err != nil || off < 0 || off > n {",
		Packages: pkgRuntime, Why: "a forged cursor for offset 0 is accepted"},
	{ID: "runtime/cursor-past-end", File: "runtime/pagination.go",
		Original: "if err != nil || off <= 0 || off > n {", Mutated: "if err != nil || off <= 0 {",
		Packages: pkgRuntime, Why: "a forged cursor past the end panics or lists nothing"},
	{ID: "runtime/page-next-cursor", File: "runtime/registry.go",
		Original: "if end < len(list) {", Mutated: "if end < len(list)-1 {",
		Packages: pkgRuntime, Why: "the last item of a long list is never reached"},
	{ID: "runtime/method-not-found-code", File: "runtime/errors.go",
		Original: "CodeMethodNotFound   = -32601", Mutated: "CodeMethodNotFound   = -32600",
		Packages: pkgRuntime, Why: "an unknown method gets the invalid-request code"},
	{ID: "runtime/idempotency-owner", File: "runtime/idempotency.go",
		Original: "k.Owner = info.owner()", Mutated: "_ = info",
		Packages: pkgRuntime, Why: "two users sharing an idempotency key see each other's results"},
	{ID: "runtime/idempotency-ttl-default", File: "runtime/idempotency.go",
		Original: "if ttl <= 0 {\n\t\tttl = DefaultIdempotencyTTL", Mutated: "if ttl < 0 {\n\t\tttl = DefaultIdempotencyTTL",
		Packages: pkgRuntime, Why: "a tool without a TTL records results for 0s: retries run again"},
	{ID: "runtime/idempotency-iserror", File: "runtime/idempotency.go",
		Original: "if r, isResult := res.(*CallToolResult); isResult && r.IsError {", Mutated: "if r, isResult := res.(*CallToolResult); isResult && r == nil {",
		Packages: pkgRuntime, Why: "a failed call is recorded and every retry gets the failure"},
	{ID: "runtime/listen-tools-changed", File: "runtime/listen.go",
		Original: "if changed&sub.kinds&m.kind != 0 {", Mutated: "if changed&sub.kinds&m.kind != 0 && m.kind != capTools {",
		Packages: pkgRuntime, Why: "a subscription never gets tools/list_changed (issue 23, item 6)"},

	// runtime/internal/*: leaf packages, tested on their own and through runtime.
	{ID: "jsonwire/trailing-data", File: "runtime/internal/jsonwire/value.go",
		Original: "if p.i != len(p.data) {", Mutated: "if false {",
		Packages: pkgJSONWire, Why: "a value followed by garbage is accepted"},
	{ID: "jsonwire/depth-limit", File: "runtime/internal/jsonwire/value.go",
		Original: "\tif depth > MaxDepth {\n\t\treturn nil, ErrTooDeep\n\t}\n\tp.i++ // {", Mutated: "\tp.i++ // {",
		Packages: pkgJSONWire, Why: "deeply nested objects exhaust the stack"},
	{ID: "jsonwire/literal-prefix", File: "runtime/internal/jsonwire/scan.go",
		Original: "string(data[i:i+len(lit)]) != lit", Mutated: "data[i] != lit[0]",
		Packages: pkgJSONWire, Why: "tru and nul are read as true and null"},
	{ID: "uritemplate/prefix-range", File: "runtime/internal/uritemplate/expand.go",
		Original: "maxlen < 1 || maxlen > 9999", Mutated: "maxlen < 0 || maxlen > 9999",
		Packages: pkgURITmpl, Why: "{var:0} is accepted"},
	{ID: "uritemplate/unclosed", File: "runtime/internal/uritemplate/expand.go",
		Original: "\tif c < 0 {\n\t\treturn open, 0, fmt.Errorf(\"unclosed expression at byte %d\", open)", Mutated: "\tif c < -1 {\n\t\treturn open, 0, fmt.Errorf(\"unclosed expression at byte %d\", open)",
		Packages: pkgURITmpl, Why: "an unclosed { is read past the end"},
	{ID: "uritemplate/varname-chars", File: "runtime/internal/uritemplate/expand.go",
		Original: "|| c == '_' || c == '.' || c == '%') {", Mutated: "|| c == '_' || c == '.' || c == '%' || c == '-') {",
		Packages: pkgURITmpl, Why: "a variable name with a dash is accepted"},
	{ID: "safetext/limit", File: "runtime/internal/safetext/safetext.go",
		Original: "if i >= limit {", Mutated: "if i > limit+8 {",
		Packages: pkgSafeText, Why: "peer text is quoted past its cap"},
	{ID: "safetext/newline", File: "runtime/internal/safetext/safetext.go",
		Original: "case r == '\\n':\n\t\t\tb = append(b, '\\\\', 'n')", Mutated: "case r == '\\n':\n\t\t\tb = append(b, '\\n')",
		Packages: pkgSafeText, Why: "a newline in peer text splits a log line or error message"},
	{ID: "validate/max-violations", File: "runtime/internal/validate/violations.go",
		Original: "if i == maxViolations {", Mutated: "if i == maxViolations+1 {",
		Packages: pkgValidate, Why: "one violation more than documented is listed"},
	{ID: "validate/pointer-shortened", File: "runtime/internal/validate/violations.go",
		Original: "if len(tokens) > pointerHead+pointerTail+1 {", Mutated: "if len(tokens) > 1000 {",
		Packages: pkgValidate, Why: "a 5 000-level pointer goes whole into the error message"},
	{ID: "oauth/same-resource-slash", File: "runtime/internal/oauth/oauth.go",
		Original: `return strings.TrimSuffix(a, "/") == strings.TrimSuffix(b, "/")`, Mutated: `return strings.TrimSuffix(a, "/") == b`,
		Packages: pkgOAuth, Why: "a token for https://x/mcp/ is refused at https://x/mcp"},
	{ID: "oauth/audience-any", File: "runtime/internal/oauth/oauth.go",
		Original: "\t\tif SameResource(a, resource) {\n\t\t\treturn true", Mutated: "\t\tif a != \"\" {\n\t\t\treturn true",
		Packages: pkgOAuth, Why: "a token for another resource is accepted"},

	// runtime/jwtauth.
	{ID: "jwtauth/expiry", File: "runtime/jwtauth/verifier.go",
		Original: "if !now.Before(exp.Add(leeway)) {", Mutated: "if now.After(exp.Add(leeway + time.Hour)) {",
		Packages: pkgJWT, Why: "a token is accepted for an hour after it expired"},
	{ID: "jwtauth/issuer", File: "runtime/jwtauth/verifier.go",
		Original: "if c.Iss != v.cfg.Issuer {", Mutated: "if c.Iss == \"\" {",
		Packages: pkgJWT, Why: "a token of another issuer is accepted"},
	{ID: "jwtauth/crit", File: "runtime/jwtauth/verifier.go",
		Original: `if _, ok := hdr.ExtraHeaders["crit"]; ok {`, Mutated: `if _, ok := hdr.ExtraHeaders["crit"]; ok && false {`,
		Packages: pkgJWT, Why: "a token with critical extensions the verifier does not understand is accepted"},
	{ID: "jwtauth/token-length", File: "runtime/jwtauth/verifier.go",
		Original: "if len(token) > oauth.MaxTokenBytes {", Mutated: "if len(token) > 100*oauth.MaxTokenBytes {",
		Packages: pkgJWT, Why: "a megabyte token is parsed"},
	{ID: "jwtauth/nbf", File: "runtime/jwtauth/verifier.go",
		Original: "if c.Nbf != nil && now.Add(leeway).Before(numericDate(*c.Nbf)) {", Mutated: "if c.Nbf != nil && false {",
		Packages: pkgJWT, Why: "a token used before its nbf is accepted"},

	// runtime/genimpl: the support of generated code.
	{ID: "genimpl/completion-limit", File: "runtime/genimpl/helpers.go",
		Original: "HasMore: n > limit}", Mutated: "HasMore: n >= limit}",
		Packages: pkgGenimpl, Why: "exactly 100 completion values say there are more"},
	{ID: "genimpl/completion-nil", File: "runtime/genimpl/helpers.go",
		Original: "\tif values == nil {\n\t\tvalues = []string{}\n\t}", Mutated: "",
		Packages: pkgGenimpl, Why: "no completion values encode as null, which clients refuse"},

	// spec: the loader and validator; its own tests must catch these.
	{ID: "spec/output-backslash", File: "spec/validate.go",
		Original: " && !strings.Contains(p, `\\`)", Mutated: "",
		Packages: pkgSpec, Why: "go.output with a backslash is accepted (issue 23, item 4)"},
	{ID: "spec/output-drive-letter", File: "spec/validate.go",
		Original: " && !(len(p) >= 2 && p[1] == ':')", Mutated: "",
		Packages: pkgSpec, Why: "go.output with a drive letter is accepted (issue 23, item 4)"},
	{ID: "spec/cache-scope-hint", File: "spec/caching.go",
		Original: "h.Scope, didYouMean(h.Scope, cacheScopes))", Mutated: "h.Scope, \"\")",
		Packages: pkgSpec, Why: "the did-you-mean hint for the cache scope is gone (issue 23, item 4)"},
	{ID: "spec/cache-ttl-negative", File: "spec/caching.go",
		Original: "case d < 0:", Mutated: "case d < -time.Hour:",
		Packages: pkgSpec, Why: "a negative ttl is accepted"},
	{ID: "spec/idempotency-hint", File: "spec/idempotency.go",
		Original: "t.Name, didYouMean(id.Key, names))", Mutated: "t.Name, \"\")",
		Packages: pkgSpec, Why: "bad_idempotency's did-you-mean is gone (issue 23, item 5)"},
	{ID: "spec/scope-chars", File: "spec/scopes.go",
		Original: "if bad := badScopeChar(name); bad != \"\" {", Mutated: "if bad := badScopeChar(name); false {",
		Packages: pkgSpec, Why: "a scope with a space or quote is accepted (bad_scopes)"},
	{ID: "spec/length-order", File: "spec/validate_schema.go",
		Original: "if ok && min != nil && max != nil && *min > *max {", Mutated: "if ok && min != nil && max != nil && *min > *max+1 {",
		Packages: pkgSpec, Why: "maxLength one below minLength is accepted"},
	{ID: "spec/length-negative", File: "spec/validate_schema.go",
		Original: "if b.n != nil && *b.n < 0 {", Mutated: "if b.n != nil && *b.n < -1 {",
		Packages: pkgSpec, Why: "minLength -1 is accepted"},
	{ID: "spec/tool-scopes-default", File: "spec/model.go",
		Original: "\tif t.Scopes.Set {\n\t\treturn t.Scopes.Names\n\t}", Mutated: "",
		Packages: pkgSpec, Why: "a tool's own scopes are replaced by the server's"},
	{ID: "spec/format-unknown", File: "spec/validate_schema.go",
		Original: `if hint := didYouMean(s.Format, known); hint != "" {`, Mutated: `if hint := didYouMean(s.Format, known); false {`,
		Packages: pkgSpec, Why: "a near miss of a known format (a typo) is accepted and never checked"},

	// gen: the generator.
	{ID: "gen/enum-empty-name", File: "gen/plan.go",
		Original: `suffix = fmt.Sprintf("Value%d", i)`, Mutated: `suffix = fmt.Sprintf("Value%d", i+1)`,
		Packages: pkgGen, Why: "the public Go name of an enum value with no letter changes (issue 23, item 4)"},
	{ID: "gen/enum-dup-name", File: "gen/plan.go",
		Original: `p.collide(Collision{At: d.schema.Pos, Fix: "goNames"`, Mutated: `_ = fmt.Sprint(Collision{At: d.schema.Pos, Fix: "goNames"`,
		Packages: pkgGen, Why: "two enum values with the same Go name: one is dropped without a word"},
	{ID: "gen/server-title", File: "gen/register.go",
		Original: "\t\t\tif srv.Title != \"\" {", Mutated: "\t\t\tif false {",
		Packages: pkgGen, Why: "the server's title is not sent"},
	{ID: "gen/instructions", File: "gen/register.go",
		Original: "if srv.Instructions != \"\" {", Mutated: "if false {",
		Packages: pkgGen, Why: "the server's instructions are not sent"},
	{ID: "gen/expand-int", File: "gen/types.go",
		Original: "return jen.Int64().Call(v)", Mutated: "return jen.String().Call(v)",
		Packages: pkgGen, Why: "an integer template variable expands wrong"},

	// internal/cli.
	{ID: "cli/exit-findings", File: "internal/cli/cli.go",
		Original: "ExitFindings = 100", Mutated: "ExitFindings = 1",
		Packages: pkgCLI, Why: "CI cannot tell findings from a broken tool (issue 23, item 2)"},
	{ID: "cli/findings-as-internal", File: "internal/cli/cli.go",
		Original: "\tcase errors.Is(err, errFindings):\n\t\treturn ExitFindings", Mutated: "\tcase errors.Is(err, errFindings):\n\t\treturn ExitInternal",
		Packages: pkgCLI, Why: "findings exit 1"},
	{ID: "cli/check-stale", File: "internal/cli/files.go",
		Original: "if problems > 0 {", Mutated: "if problems > 1 {",
		Packages: pkgCLI, Why: "check passes with one stale file"},
	{ID: "cli/generate-removes-stale", File: "internal/cli/files.go",
		Original: "\t\tif err := os.Remove(path); err != nil {\n\t\t\treturn err\n\t\t}", Mutated: "\t\t_ = path",
		Packages: pkgCLI, Why: "generate leaves files of deleted items behind"},
	{ID: "cli/serve-gone", File: "runtime/serve.go",
		Original: "func Serve(ctx context.Context, s *Server", Mutated: "func ServeGone(ctx context.Context, s *Server",
		Packages: pkgCLIAndRun, Why: "the scaffold of mcpgen init no longer builds (issue 23, item 7)"},

	// internal/lint.
	{ID: "lint/unbounded-id-maxlength", File: "internal/lint/lint.go",
		Original: " || s.MaxLength != nil {", Mutated: " {",
		Packages: pkgLint, Why: "maxLength no longer bounds an id (issue 23, item 4)"},
	{ID: "lint/max-tools", File: "internal/lint/lint.go",
		Original: "len(listed) > maxTools {", Mutated: "len(listed) > maxTools+1 {",
		Packages: pkgLint, Why: "one tool over the limit is not reported"},
	{ID: "lint/max-tools-search", File: "internal/lint/lint.go",
		Original: `if s.Server.Exposure == "search" {`, Mutated: `if false {`,
		Packages: pkgLint, Why: "a server with search exposure is told it lists too many tools"},
	{ID: "lint/max-tools-toolset-search", File: "internal/lint/lint.go",
		Original: `if listed || !searched {`, Mutated: `if true {`,
		Packages: pkgLint, Why: "the tools of a toolset with exposure: search count as listed"},
	{ID: "runtime/toolset-search-served", File: "runtime/exposure.go",
		Original: "in&x.search != 0 && in&x.enabledFor(p)&^x.search == 0", Mutated: "in&x.search != 0",
		Packages: pkgRuntime, Why: "a tool of a search-exposed toolset stays behind search when a served toolset lists it"},
	{ID: "runtime/search-by-view", File: "runtime/exposure.go",
		Original: "p := c.ss.view(ctx, c.peerInfo())", Mutated: "p := c.peerInfo()",
		Packages: pkgRuntime, Why: "search_tools finds tools the caller's scopes or served toolsets refuse"},
	{ID: "runtime/call-tool-scopes", File: "runtime/authhttp.go",
		Original: `stringMember(h.srv.directCall(env.method, env.Params), "name")`, Mutated: `stringMember(env.Params, "name")`,
		Packages: pkgRuntime, Why: "call_tool runs a tool whose scopes the token lacks"},
	{ID: "runtime/call-tool-direct", File: "runtime/modern.go",
		Original: "\tparams = ss.srv.directCall(method, params)\n", Mutated: "",
		Packages: pkgRuntime, Why: "a modern call_tool is not the direct call it stands for"},
	{ID: "toolsearch/stem", File: "runtime/internal/toolsearch/words.go",
		Original: "\t\tw = stem(w)\n", Mutated: "",
		Packages: []string{"./runtime/internal/toolsearch", "./runtime"}, Why: "search does not meet a word's inflections (issues, issue)"},
	{ID: "lint/disabled", File: "internal/lint/lint.go",
		Original: "\tif l.disabled[rule] {\n\t\treturn\n\t}", Mutated: "",
		Packages: pkgLint, Why: "lint.disable is ignored"},
	{ID: "lint/tokens-rounding", File: "internal/lint/budget.go",
		Original: "return (n + 3) / 4", Mutated: "return n / 4",
		Packages: pkgLint, Why: "the context budget rounds down"},
	{ID: "lint/dotted-name", File: "internal/lint/lint.go",
		Original: `if strings.Contains(t.Name, ".") {`, Mutated: `if strings.Contains(t.Name, "..") {`,
		Packages: pkgLint, Why: "a tool name with a dot is not reported"},

	// internal/breaking.
	{ID: "breaking/new-required", File: "internal/breaking/schema.go",
		Original: "if !oldProps[np.Name] && np.Required {", Mutated: "if !oldProps[np.Name] && np.Required && false {",
		Packages: pkgBreaking, Why: "a new required input property is not reported"},
	{ID: "breaking/closed-object", File: "internal/breaking/schema.go",
		Original: "if o.AdditionalProperties && !n.AdditionalProperties {", Mutated: "if false {",
		Packages: pkgBreaking, Why: "an input that stops accepting unknown keys is not reported"},
	{ID: "breaking/permission-rank", File: "internal/breaking/wire.go",
		Original: "if permissionRank[np] <= permissionRank[op] {", Mutated: "if permissionRank[np] < permissionRank[op] {",
		Packages: pkgBreaking, Why: "an unchanged permission is reported as tightened"},
	{ID: "breaking/go-package", File: "internal/breaking/gocompare.go",
		Original: "if og.Package != ng.Package {", Mutated: "if false {",
		Packages: pkgBreaking, Why: "a renamed Go package is not reported"},
	{ID: "breaking/enum-added", File: "internal/breaking/schema.go",
		Original: "\tif len(o.Enum) == 0 {\n\t\tvar vals []string", Mutated: "\tif len(o.Enum) == -1 {\n\t\tvar vals []string",
		Packages: pkgBreaking, Why: "an enum put on a free value is not reported"},

	// internal/docs.
	{ID: "docs/format", File: "internal/docs/docs.go",
		Original: `c = append(c, "format "+code(s.Format))`, Mutated: `_ = c`,
		Packages: pkgDocs, Why: "the reference leaves out formats"},
	{ID: "docs/exclusive-minimum", File: "internal/docs/docs.go",
		Original: `c = append(c, "> "+string(*s.ExclusiveMinimum))`, Mutated: `c = append(c, "≥ "+string(*s.ExclusiveMinimum))`,
		Packages: pkgDocs, Why: "an exclusive minimum is documented as inclusive"},
	{ID: "docs/instructions", File: "internal/docs/docs.go",
		Original: "\tif s.Server.Instructions != \"\" {", Mutated: "\tif false {",
		Packages: pkgDocs, Why: "the reference leaves out the server's instructions"},

	// internal/clientconfig.
	{ID: "clientconfig/destructive-deny", File: "internal/clientconfig/clientconfig.go",
		Original: `return Deny, "destructiveHint: true, without idempotency:"`, Mutated: `return Ask, "destructiveHint: true, without idempotency:"`,
		Packages: pkgConfig, Why: "a destructive tool is only asked about"},
	{ID: "clientconfig/denied-enabled", File: "internal/clientconfig/clientconfig.go",
		Original: "if t.permission != Deny {", Mutated: "if true {",
		Packages: pkgConfig, Why: "a denied tool is enabled"},
	{ID: "clientconfig/safe-name", File: "internal/clientconfig/clientconfig.go",
		Original: "if r == '_' || r == '-' || 'a' <= r", Mutated: "if r == '_' || r == '-' || r == '.' || 'a' <= r",
		Packages: pkgConfig, Why: "a dot in a server name reaches the client's tool names"},

	{ID: "clientconfig/empty-quotes", File: "internal/clientconfig/command.go",
		Original: "if end < 0 {", Mutated: "if end <= 0 {",
		Packages: pkgConfig, Why: "an empty quoted argument ('') is refused as unclosed"},
	{ID: "clientconfig/safe-name-nine", File: "internal/clientconfig/clientconfig.go",
		Original: "'0' <= r && r <= '9'", Mutated: "'0' <= r && r < '9'",
		Packages: pkgConfig, Why: "a 9 in a server name becomes _"},

	// internal/specschema.
	{ID: "specschema/true-schema", File: "internal/specschema/normalize.go",
		Original: "\t\tif v {\n\t\t\treturn map[string]any{}\n\t\t}", Mutated: "",
		Packages: pkgSchema, Why: "the schema true and {} compare different: a spurious breaking change"},
	{ID: "specschema/recursive", File: "internal/specschema/normalize.go",
		Original: "\t\t\tif s == name {", Mutated: "\t\t\tif s == name && false {",
		Packages: pkgSchema, Why: "a recursive type loops for ever"},
}
