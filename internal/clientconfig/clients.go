package clientconfig

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// claude writes Claude Code's project files: .mcp.json (the server; Claude
// Code expands ${VAR} in it) and the permissions block of
// .claude/settings.json, where rules name tools mcp__SERVER__TOOL.
func claude(o Options, p permissions) ([]File, error) {
	entry := serverEntry(o, true, func(k string) string { return "${" + k + "}" })
	servers := mcpServersFile(".mcp.json", "the server, for everyone who clones the project (Claude Code asks each user to approve it once)", o.Name, entry)

	names := func(tools []string) []string {
		out := []string{}
		for _, t := range tools {
			out = append(out, ClaudeToolName(o.Name, t))
		}
		return out
	}
	type rules struct {
		Allow []string `json:"allow"`
		Ask   []string `json:"ask"`
		Deny  []string `json:"deny"`
	}
	ours := rules{names(p.allow), names(p.ask), names(p.deny)}
	const path = ".claude/settings.json"
	prefix := "mcp__" + o.Name + "__"
	settings := File{
		Path: path,
		Note: "a permission rule per tool: read-only tools allowed, destructive ones denied, the others asked",
		Content: marshal(struct {
			Permissions rules `json:"permissions"`
		}{ours}),
		merge: func(existing []byte) ([]byte, error) {
			top, err := object(existing, path)
			if err != nil {
				return nil, err
			}
			perms := map[string]json.RawMessage{}
			if raw, ok := top["permissions"]; ok {
				if err := json.Unmarshal(raw, &perms); err != nil || perms == nil {
					return nil, fmt.Errorf("%s: permissions is not an object", path)
				}
			}
			for key, list := range map[string][]string{"allow": ours.Allow, "ask": ours.Ask, "deny": ours.Deny} {
				var old []string
				if raw, ok := perms[key]; ok {
					if err := json.Unmarshal(raw, &old); err != nil {
						return nil, fmt.Errorf("%s: permissions.%s is not a list of strings", path, key)
					}
				}
				perms[key] = marshal(mergeList(old, prefix, list))
			}
			top["permissions"] = marshal(perms)
			return marshal(top), nil
		},
	}
	return []File{servers, settings}, nil
}

// cursor writes .cursor/mcp.json (Cursor expands ${env:VAR} in it) and the
// mcpAllowlist of ~/.cursor/permissions.json, whose entries are
// SERVER:TOOL. Cursor asks before every other tool; it has no deny list in
// a file, so denied tools are named in a comment (permissions.json is
// JSONC), to be turned off in Cursor's MCP settings.
func cursor(o Options, p permissions) ([]File, error) {
	entry := serverEntry(o, false, func(k string) string { return "${env:" + k + "}" })
	servers := mcpServersFile(".cursor/mcp.json", "the server, for this project", o.Name, entry)

	allow := []string{}
	for _, t := range p.allow {
		allow = append(allow, o.Name+":"+t)
	}
	var b strings.Builder
	b.WriteString("{\n")
	if len(p.deny) > 0 {
		var deny []string
		for _, t := range p.deny {
			deny = append(deny, o.Name+":"+t)
		}
		fmt.Fprintf(&b, "  // Denied (turn them off in Cursor Settings > MCP): %s\n", strings.Join(deny, ", "))
	}
	if len(p.ask) > 0 {
		var ask []string
		for _, t := range p.ask {
			ask = append(ask, o.Name+":"+t)
		}
		fmt.Fprintf(&b, "  // Asked before each call (not allowlisted): %s\n", strings.Join(ask, ", "))
	}
	list := strings.TrimSuffix(string(marshal(allow)), "\n")
	fmt.Fprintf(&b, "  \"mcpAllowlist\": %s\n}\n", strings.ReplaceAll(list, "\n", "\n  "))
	const path = "~/.cursor/permissions.json"
	perms := File{
		Path:    path,
		Note:    "per user, not per project: merge mcpAllowlist into yours (a permissions.json allowlist replaces the one in Cursor's settings)",
		Content: []byte(b.String()),
	}
	return []File{servers, perms}, nil
}

// gemini writes the mcpServers entry of Gemini CLI's project settings,
// .gemini/settings.json (it expands $VAR and ${VAR} in env): command, args
// and env, or httpUrl; includeTools (allowed and asked tools: a tool added
// to the spec later stays off until the configuration is written again)
// and excludeTools (denied ones). Gemini CLI asks before every MCP tool
// call unless the server is trusted, so trust stays false; it has no
// per-tool allow list in this file.
func gemini(o Options, p permissions) ([]File, error) {
	type entry struct {
		Command      string            `json:"command,omitempty"`
		Args         []string          `json:"args,omitempty"`
		Env          map[string]string `json:"env,omitempty"`
		HTTPURL      string            `json:"httpUrl,omitempty"`
		Trust        bool              `json:"trust"`
		IncludeTools []string          `json:"includeTools"`
		ExcludeTools []string          `json:"excludeTools"`
	}
	j := serverEntry(o, false, func(k string) string { return "${" + k + "}" })
	e := entry{Command: j.Command, Args: j.Args, Env: j.Env, HTTPURL: j.URL, IncludeTools: nonNil(p.enabled), ExcludeTools: nonNil(p.deny)}
	return []File{mcpServersFile(".gemini/settings.json", "the server and the tools Gemini CLI may call (it asks before each call)", o.Name, e)}, nil
}

// vscode writes the servers entry of .vscode/mcp.json (VS Code expands
// ${env:VAR} and ${workspaceFolder} in it). VS Code asks before each tool
// call and keeps what the user allows in its own settings: this file has
// no permissions. A stdio server runs in the workspace folder, where the
// other clients start it too.
func vscode(o Options) ([]File, error) {
	e := serverEntry(o, true, func(k string) string { return "${env:" + k + "}" })
	if o.URL == "" {
		e.Cwd = "${workspaceFolder}"
	}
	return []File{serversFile(".vscode/mcp.json", "the server, for this workspace (VS Code asks before each tool call)", "servers", o.Name, e)}, nil
}

func nonNil(list []string) []string {
	if list == nil {
		return []string{}
	}
	return list
}

// codex writes the [mcp_servers.NAME] table of .codex/config.toml (Codex
// reads it in trusted projects): command and args or url, enabled_tools
// (allowed and asked tools: a tool added to the spec later stays off until
// the configuration is written again) and disabled_tools (denied ones), and
// an approval mode per tool: approve for allowed tools, prompt for asked
// ones. Environment variables are forwarded by name (env_vars). A command
// that runs go (go run) gets the variables go needs for its caches and a
// startup timeout long enough to build (startup_timeout_sec; Codex's
// default is far shorter).
func codex(o Options, p permissions) ([]File, error) {
	var b strings.Builder
	header := "mcp_servers." + tomlKey(o.Name)
	fmt.Fprintf(&b, "[%s]\n", header)
	if o.URL != "" {
		fmt.Fprintf(&b, "url = %s\n", tomlString(o.URL))
	} else {
		fmt.Fprintf(&b, "command = %s\n", tomlString(o.Command[0]))
		fmt.Fprintf(&b, "args = %s\n", tomlArray(o.Command[1:]))
		env := o.Env
		if runsGo(o.Command) {
			env = append(slices.Clone(env), goEnv...)
			slices.Sort(env)
			env = slices.Compact(env)
		}
		if len(env) > 0 {
			fmt.Fprintf(&b, "env_vars = %s\n", tomlArray(env))
		}
		if runsGo(o.Command) {
			fmt.Fprintf(&b, "startup_timeout_sec = %d\n", goStartupTimeout)
		}
	}
	fmt.Fprintf(&b, "enabled_tools = %s\n", tomlArray(p.enabled))
	fmt.Fprintf(&b, "disabled_tools = %s\n", tomlArray(p.deny))
	for _, group := range []struct {
		tools []string
		mode  string
	}{{p.allow, "approve"}, {p.ask, "prompt"}} {
		for _, t := range group.tools {
			fmt.Fprintf(&b, "\n[%s.tools.%s]\napproval_mode = %q\n", header, tomlKey(t), group.mode)
		}
	}
	content := b.String()
	const path = ".codex/config.toml"
	return []File{{
		Path:    path,
		Note:    "the server and its tools (Codex reads a project's .codex/config.toml once the project is trusted)",
		Content: []byte(content),
		merge: func(existing []byte) ([]byte, error) {
			kept := dropTables(string(existing), header)
			if kept != "" && !strings.HasSuffix(kept, "\n\n") {
				kept = strings.TrimRight(kept, "\n") + "\n\n"
			}
			return []byte(kept + content), nil
		},
	}}, nil
}

// dropTables removes from a TOML document the tables [header] and
// [header.…] (and [[…]] arrays of them) with their contents.
func dropTables(doc, header string) string {
	var out []string
	dropping := false
	for _, line := range strings.SplitAfter(doc, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") {
			name := strings.TrimSpace(strings.Trim(strings.SplitN(t, "#", 2)[0], "[] \t"))
			dropping = name == header || strings.HasPrefix(name, header+".")
		}
		if !dropping {
			out = append(out, line)
		}
	}
	return strings.Join(out, "")
}

// tomlKey is a bare key when it can be, else a quoted one.
func tomlKey(k string) string {
	if k != "" && SafeName(k) == k {
		return k
	}
	return tomlString(k)
}

// tomlString is a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\u%04X", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func tomlArray(items []string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = tomlString(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}
