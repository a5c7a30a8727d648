package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/jwtauth"
)

// authOptions turns the -auth-* flags into the HTTP options of an OAuth
// resource server (none without -auth-issuer).
func authOptions(issuer, jwks, resource, httpAddr string) ([]runtime.HTTPOption, error) {
	cfg, err := authConfig(issuer, jwks, resource, httpAddr)
	if cfg == nil || err != nil {
		return nil, err
	}
	return []runtime.HTTPOption{runtime.WithAuthorization(*cfg)}, nil
}

// authConfig reads the -auth-* flags: bearer JWTs from issuer, verified
// with the keys of jwks (a URL, fetched and cached, or a file), for
// resource (by default the URL of /mcp on httpAddr). No issuer: nil.
func authConfig(issuer, jwks, resource, httpAddr string) (*runtime.AuthConfig, error) {
	if issuer == "" {
		if jwks != "" || resource != "" {
			return nil, errors.New("-auth-jwks and -auth-resource need -auth-issuer")
		}
		return nil, nil
	}
	if httpAddr == "" {
		return nil, errors.New("-auth-issuer needs -http: authorization applies to HTTP only")
	}
	if jwks == "" {
		return nil, errors.New("-auth-issuer needs -auth-jwks: the issuer's JWK set (a URL or a file)")
	}
	cfg := jwtauth.Config{Issuer: issuer}
	if strings.HasPrefix(jwks, "https://") || strings.HasPrefix(jwks, "http://") {
		cfg.JWKSURL = jwks
	} else {
		doc, err := os.ReadFile(jwks)
		if err != nil {
			return nil, fmt.Errorf("-auth-jwks: %w", err)
		}
		cfg.JWKS = doc
	}
	verifier, err := jwtauth.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("-auth-jwks: %w", err)
	}
	if resource == "" {
		resource = "http://" + httpAddr + "/mcp"
	}
	return &runtime.AuthConfig{
		Resource:             resource,
		AuthorizationServers: []string{issuer},
		Verifier:             verifier,
		// Every tool needs orders:read (server.scopes in mcpgen.yaml): ask
		// for it in the 401 challenge, so that a client's first token has it.
		Scopes: []string{"orders:read"},
	}, nil
}
