package spec

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestLintSectionAndPermission(t *testing.T) {
	src := base + `tools:
  a:
    description: Does a.
    permission: allow
    x-lint-disable: [OBJECT_OPEN, DESCRIPTION_TOO_SHORT]
resources:
  r: {uri: 'config://r', x-lint-disable: [DESCRIPTION_MISSING]}
prompts:
  p: {description: Says p., x-lint-disable: [DESCRIPTION_TOO_SHORT]}
lint:
  disable: [TOO_MANY_TOOLS]
  maxTools: 12
  maxListItems: 80
`
	s, diags := Load("mcpgen.yaml", []byte(src))
	if len(diags) > 0 {
		t.Fatalf("diagnostics:\n%s", diags.Error())
	}
	want := &LintConfig{
		Pos:     Pos{14, 3},
		Disable: []string{"TOO_MANY_TOOLS"}, DisablePos: []Pos{{14, 13}},
		MaxTools: 12, MaxToolsPos: Pos{15, 13},
		MaxListItems: 80, MaxListItemsPos: Pos{16, 17},
	}
	if diff := cmp.Diff(want, s.Lint); diff != "" {
		t.Errorf("lint (-want +got):\n%s", diff)
	}
	if tl := s.Tools[0]; tl.Permission != "allow" || !cmp.Equal(tl.LintDisable, []string{"OBJECT_OPEN", "DESCRIPTION_TOO_SHORT"}) {
		t.Errorf("tool: permission %q, x-lint-disable %v", tl.Permission, tl.LintDisable)
	}
	if !cmp.Equal(s.Resources[0].LintDisable, []string{"DESCRIPTION_MISSING"}) || !cmp.Equal(s.Prompts[0].LintDisable, []string{"DESCRIPTION_TOO_SHORT"}) {
		t.Errorf("x-lint-disable of a resource or prompt not read")
	}
}

func TestLintSectionDiagnostics(t *testing.T) {
	for _, c := range []struct {
		name string
		src  string
		want []string
	}{
		{
			name: "unknown rules",
			src: `lint:
  disable: [DESCRIPTON_MISSING, NO_SUCH_RULE, 12]
  maxTool: 3
`,
			want: []string{
				`mcpgen.yaml:5:13: unknown lint rule "DESCRIPTON_MISSING"; did you mean "DESCRIPTION_MISSING"?`,
				`mcpgen.yaml:5:33: unknown lint rule "NO_SUCH_RULE"; the rules are DESCRIPTION_MISSING, DESCRIPTION_TOO_SHORT, TOOL_NAME_CLIENT_UNSAFE, STRING_UNBOUNDED_ID, OBJECT_OPEN, DESTRUCTIVE_NOT_IDEMPOTENT, DEFAULT_ON_REQUIRED, TOO_MANY_TOOLS, RESOURCE_LIST_LARGE, APP_PERMISSION, APP_WRITE_NOT_IDEMPOTENT, CLIENT_DROPS_TOOL, SCHEMA_PROFILE and PROMPT_OPTIONAL_PLACEHOLDER`,
				`mcpgen.yaml:5:47: each rule of disable must be a string`,
				`mcpgen.yaml:6:3: unknown key "maxTool" in lint; did you mean "maxTools"?`,
			},
		},
		{
			name: "limits",
			src: `lint: {maxTools: 0, maxListItems: many}
`,
			want: []string{
				`mcpgen.yaml:4:18: maxTools must be at least 1`,
				`mcpgen.yaml:4:35: maxListItems must be an integer`,
			},
		},
		{
			name: "not a mapping",
			src:  "lint: [OBJECT_OPEN]\n",
			want: []string{`mcpgen.yaml:4:7: lint must be a mapping`},
		},
		{
			name: "per item",
			src: `tools:
  a:
    description: Does a.
    permission: alow
    x-lint-disable: [TOO_MANY_TOOLS, OBJECT_OPN]
resourceTemplates:
  t: {uriTemplate: 'x://{id}', x-lint-disable: RESOURCE_LIST_LARGE}
prompts:
  p: {description: Says p., x-lint-disable: [RESOURCE_LIST_LARGE]}
`,
			want: []string{
				`mcpgen.yaml:7:17: permission must be allow, ask or deny, not "alow"; did you mean "allow"?`,
				`mcpgen.yaml:8:22: TOO_MANY_TOOLS is about the whole spec, not tool "a"; disable it under lint.disable`,
				`mcpgen.yaml:8:38: unknown lint rule "OBJECT_OPN"; did you mean "OBJECT_OPEN"?`,
				`mcpgen.yaml:10:48: x-lint-disable must be a list`,
				`mcpgen.yaml:12:46: RESOURCE_LIST_LARGE is about the whole spec, not prompt "p"; disable it under lint.disable`,
			},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, diags := Load("mcpgen.yaml", []byte(base+c.src))
			var got []string
			for _, d := range diags {
				got = append(got, d.String())
			}
			if diff := cmp.Diff(c.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s\nsource:\n%s", diff, numbered(base+c.src))
			}
		})
	}
}
