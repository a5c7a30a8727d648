package clientconfig

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// jsonServer is a server entry of .mcp.json (Claude Code) or mcp.json
// (Cursor), with its fields in the order people write them.
type jsonServer struct {
	Type    string            `json:"type,omitempty"`
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	Cwd     string            `json:"cwd,omitempty"`
	URL     string            `json:"url,omitempty"`
}

// serverEntry is the server as a JSON entry; ref turns a variable name into
// the client's reference syntax.
func serverEntry(o Options, withType bool, ref func(string) string) jsonServer {
	var e jsonServer
	if o.URL != "" {
		e.URL = o.URL
		if withType {
			e.Type = "http"
		}
		return e
	}
	if withType {
		e.Type = "stdio"
	}
	e.Command, e.Args = o.Command[0], o.Command[1:]
	if len(o.Env) > 0 {
		e.Env = map[string]string{}
		for _, k := range o.Env {
			e.Env[k] = ref(k)
		}
	}
	return e
}

// marshal is indented JSON ending in a newline, with <, > and & as they are.
func marshal(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		panic(err) // only plain data is encoded here
	}
	return buf.Bytes()
}

// mcpServersFile is {"mcpServers": {name: entry}}, and merges by setting
// mcpServers[name] in an existing file.
func mcpServersFile(path, note, name string, entry any) File {
	return serversFile(path, note, "mcpServers", name, entry)
}

// serversFile is {key: {name: entry}}, and merges by setting key[name] in
// an existing file.
func serversFile(path, note, key, name string, entry any) File {
	content := marshal(map[string]map[string]any{key: {name: entry}})
	return File{Path: path, Note: note, Content: content, merge: func(existing []byte) ([]byte, error) {
		top, err := object(existing, path)
		if err != nil {
			return nil, err
		}
		servers := map[string]json.RawMessage{}
		if raw, ok := top[key]; ok {
			if err := json.Unmarshal(raw, &servers); err != nil || servers == nil {
				return nil, fmt.Errorf("%s: %s is not an object", path, key)
			}
		}
		servers[name] = marshal(entry)
		top[key] = marshal(servers)
		return marshal(top), nil
	}}
}

// object decodes a JSON object, keeping its values raw.
func object(data []byte, path string) (map[string]json.RawMessage, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil || top == nil {
		return nil, fmt.Errorf("%s is not a JSON object; fix or move it, then run again", path)
	}
	return top, nil
}

// mergeList removes from list the entries that belong to this server (by
// prefix) and appends ours.
func mergeList(list []string, prefix string, ours []string) []string {
	out := []string{}
	for _, e := range list {
		if !strings.HasPrefix(e, prefix) {
			out = append(out, e)
		}
	}
	for _, e := range ours {
		if !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	return out
}
