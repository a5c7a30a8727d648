package authz

import (
	"encoding/json"
	"net/http"
	"net/url"
)

// Protected resource metadata (RFC 9728): a JSON document that tells a
// client which authorization servers issue tokens for this server, and
// which scopes exist. MCP clients look for it in the resource_metadata of a
// 401 challenge, then at /.well-known/oauth-protected-resource/<path of the
// endpoint>, then at /.well-known/oauth-protected-resource.

const wellKnownMetadata = "/.well-known/oauth-protected-resource"

// MetadataPaths returns the paths the metadata document is served at: the
// path-suffixed one of RFC 9728 §3.1 (the well-known prefix inserted before
// the resource's path, e.g. /.well-known/oauth-protected-resource/mcp), then
// the root one. For a resource without a path, only the root one.
func (cfg Config) MetadataPaths() []string {
	u, err := url.Parse(cfg.Resource)
	if err != nil || u.EscapedPath() == "" || u.EscapedPath() == "/" {
		return []string{wellKnownMetadata}
	}
	return []string{wellKnownMetadata + u.EscapedPath(), wellKnownMetadata}
}

// MetadataURL is the absolute URL of the metadata document that 401 and
// 403 challenges name (resource_metadata): the first of MetadataPaths on
// the resource's host.
func (cfg Config) MetadataURL() string {
	u, err := url.Parse(cfg.Resource)
	if err != nil {
		return ""
	}
	return (&url.URL{Scheme: u.Scheme, Host: u.Host}).String() + cfg.MetadataPaths()[0]
}

// Metadata is the protected resource metadata document (RFC 9728 §2).
type Metadata struct {
	Resource               string   `json:"resource"`
	AuthorizationServers   []string `json:"authorization_servers"`
	ScopesSupported        []string `json:"scopes_supported,omitempty"`
	BearerMethodsSupported []string `json:"bearer_methods_supported"`
	ResourceName           string   `json:"resource_name,omitempty"`
	ResourceDocumentation  string   `json:"resource_documentation,omitempty"`
}

// Metadata returns the document of cfg for a server named name (when
// cfg.ResourceName is "") whose tools need toolScopes: scopes_supported is
// cfg.ScopesSupported, or else cfg.Scopes and then every tool's.
func (cfg *Config) Metadata(name string, toolScopes ...[]string) *Metadata {
	scopes := cfg.ScopesSupported
	if scopes == nil {
		scopes = cfg.Scopes
		for _, ts := range toolScopes {
			scopes = ScopeUnion(scopes, ts)
		}
	}
	if cfg.ResourceName != "" {
		name = cfg.ResourceName
	}
	return &Metadata{
		Resource:               cfg.Resource,
		AuthorizationServers:   cfg.AuthorizationServers,
		ScopesSupported:        scopes,
		BearerMethodsSupported: []string{"header"},
		ResourceName:           name,
		ResourceDocumentation:  cfg.ResourceDocumentation,
	}
}

// MetadataHandler serves the document that doc builds at each request
// (the tools, and so the scopes they need, may change while serving) to
// GET and HEAD, with CORS open to any origin (the document is public, and
// browser-based clients fetch it).
func MetadataHandler(doc func() *Metadata) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		switch r.Method {
		case http.MethodGet, http.MethodHead:
		case http.MethodOptions:
			w.Header().Set("Access-Control-Allow-Methods", "GET, OPTIONS")
			w.WriteHeader(http.StatusNoContent)
			return
		default:
			w.Header().Set("Allow", "GET, HEAD, OPTIONS")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		b, err := json.Marshal(doc())
		if err != nil {
			http.Error(w, "internal error", http.StatusInternalServerError)
			return
		}
		w.Header()["Content-Type"] = jsonContentType // shared: net/http does not modify it
		w.Header().Set("Cache-Control", "max-age=300")
		_, _ = w.Write(b)
	})
}

var jsonContentType = []string{"application/json"}
