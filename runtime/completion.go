package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/internal/gensupport"
	"github.com/mcpgen/mcpgen/runtime/internal/jsonwire"
)

// CompleteRequest is a completion/complete request as a handler sees it: the
// argument of a prompt, or the variable of a resource template, being
// filled, what the user typed so far, and the arguments already filled.
type CompleteRequest struct {
	Argument string
	Value    string
	Context  map[string]string // never nil
}

// Completion is what a CompleteHandler offers. The session sends at most 100
// values (the protocol's limit): beyond, it cuts and sets HasMore.
type Completion struct {
	Values  []string
	Total   int  // how many values there are in all, if known (0: not said)
	HasMore bool // there are more than Values
}

// CompleteHandler completes an argument of a prompt or a variable of a
// resource template. A nil *Completion offers nothing. Errors are answered
// as for prompts (see PromptHandler).
type CompleteHandler func(ctx context.Context, req *CompleteRequest) (*Completion, error)

// maxCompletions is the protocol's cap on completion values.
const maxCompletions = gensupport.MaxCompletionValues

// CompleteValues offers the values that start with prefix, ignoring case, in
// their order: at most 100, with Total the number that match and HasMore
// set when that is more than 100. It is how enums complete.
func CompleteValues(prefix string, values ...string) *Completion {
	c := &Completion{Values: []string{}}
	for _, v := range values {
		if len(v) >= len(prefix) && strings.EqualFold(v[:len(prefix)], prefix) {
			c.Total++
			if len(c.Values) < maxCompletions {
				c.Values = append(c.Values, v)
			}
		}
	}
	c.HasMore = c.Total > maxCompletions
	return c
}

// complete checks a completion/complete request, finds what it refers to,
// and runs its CompleteHandler in its own goroutine. An unknown prompt or
// template is invalid params; a known one that does not complete the
// argument offers no values.
func (ss *Session) complete(ctx context.Context, id string, params json.RawMessage) {
	h, req, what, e := ss.srv.completionFor(ss.declaredBy(ctx), params)
	if e != nil {
		ss.respond(ctx, id, nil, e)
		return
	}
	decoded(ctx, req)
	if h == nil {
		ss.respond(ctx, id, completionResult{}, nil)
		return
	}
	ss.start(ctx, id, &call{exec: func(ctx context.Context, _ *call) (encoder, *Error) {
		return ss.runComplete(ctx, h, req, what)
	}})
}

// completes reports whether anything registered completes.
func (s *Server) completes() bool {
	_, caps := s.capabilities()
	return caps&capCompletions != 0
}

const badRef = `invalid params: "ref" must be {"type":"ref/prompt","name":…} or {"type":"ref/resource","uri":…}`

// completionFor resolves a completion/complete request to the handler that
// answers it (nil: no values) and what it completes, for messages. What the
// client may not see (context.go) is unknown.
func (s *Server) completionFor(client *peerInfo, params json.RawMessage) (CompleteHandler, *CompleteRequest, string, *Error) {
	if jsonwire.FirstByte(params) != '{' {
		return nil, nil, "", errorf(CodeInvalidParams, `invalid params: completion/complete takes an object with "ref" and "argument"`)
	}
	var p struct {
		Ref struct {
			Type string `json:"type"`
			Name string `json:"name"`
			URI  string `json:"uri"`
		} `json:"ref"`
		Argument *struct {
			Name  string `json:"name"`
			Value string `json:"value"`
		} `json:"argument"`
		Context *struct {
			Arguments map[string]string `json:"arguments"`
		} `json:"context"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		if te, ok := errors.AsType[*json.UnmarshalTypeError](err); ok && strings.HasPrefix(te.Field, "ref") {
			return nil, nil, "", errorf(CodeInvalidParams, badRef)
		}
		if te, ok := errors.AsType[*json.UnmarshalTypeError](err); ok && strings.HasPrefix(te.Field, "context") {
			return nil, nil, "", errorf(CodeInvalidParams, `invalid params: "context" must be {"arguments":{…}} with string values`)
		}
		return nil, nil, "", errorf(CodeInvalidParams, `invalid params: "argument" must be an object with "name" and "value" strings`)
	}
	if p.Argument == nil || p.Argument.Name == "" {
		return nil, nil, "", errorf(CodeInvalidParams, `invalid params: "argument" must be an object with "name" and "value" strings`)
	}
	req := &CompleteRequest{Argument: p.Argument.Name, Value: p.Argument.Value, Context: map[string]string{}}
	if p.Context != nil && p.Context.Arguments != nil {
		req.Context = p.Context.Arguments
	}
	switch p.Ref.Type {
	case "ref/prompt":
		pe := s.prompts.snapshot().byKey[p.Ref.Name]
		if pe == nil || !visible(pe, client) {
			return nil, nil, "", errorf(CodeInvalidParams, "unknown prompt %s", quote(p.Ref.Name))
		}
		arg := pe.arg(req.Argument)
		if arg == nil {
			return nil, nil, "", errorf(CodeInvalidParams, "prompt %s has no argument %s", quote(pe.p.Name), quote(req.Argument))
		}
		if len(arg.Enum) > 0 {
			enum := arg.Enum
			return func(context.Context, *CompleteRequest) (*Completion, error) {
				return CompleteValues(req.Value, enum...), nil
			}, req, "", nil
		}
		return pe.p.Complete, req, "prompt " + quote(pe.p.Name), nil
	case "ref/resource":
		for _, te := range s.templates.snapshot().list {
			if te.tmpl.URITemplate != p.Ref.URI || !visible(te, client) {
				continue
			}
			if !te.t.HasVar(req.Argument) {
				return nil, nil, "", errorf(CodeInvalidParams, "resource template %s has no variable %s", quote(te.tmpl.URITemplate), quote(req.Argument))
			}
			return te.tmpl.Complete, req, "resource template " + quote(te.tmpl.URITemplate), nil
		}
		if re := s.resources.snapshot().byKey[p.Ref.URI]; re != nil && visible(re, client) {
			return nil, req, "", nil // a static resource has nothing to complete
		}
		return nil, nil, "", errorf(CodeInvalidParams, "unknown resource or resource template %s", quote(p.Ref.URI))
	}
	return nil, nil, "", errorf(CodeInvalidParams, badRef)
}

func (ss *Session) runComplete(ctx context.Context, h CompleteHandler, req *CompleteRequest, what string) (res encoder, rpcErr *Error) {
	defer func() {
		if v := recover(); v != nil {
			ss.srv.cfg.logger.ErrorContext(ctx, "runtime: completion handler panicked",
				"of", what, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			res, rpcErr = nil, errorf(CodeInternalError, "internal error completing %s", what)
		}
	}()
	c, err := h(ctx, req)
	if err != nil {
		if e, ok := errors.AsType[*Error](err); ok {
			return nil, e
		}
		return nil, &Error{Code: CodeInternalError, Message: err.Error()}
	}
	return completionResult{c}, nil
}

// completionResult is {"completion":{"values":[…],"total":…,"hasMore":…}},
// cut to the protocol's 100 values.
type completionResult struct{ c *Completion }

func (r completionResult) appendJSON(dst []byte) ([]byte, error) {
	var c Completion
	if r.c != nil {
		c = *r.c
	}
	if n := len(c.Values); n > maxCompletions {
		c.Values, c.HasMore, c.Total = c.Values[:maxCompletions], true, max(c.Total, n)
	} else if c.Total != 0 && c.Total < n {
		c.Total = n
	}
	dst = append(dst, `{"completion":{"values":[`...)
	for i, v := range c.Values {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonwire.AppendString(dst, v)
	}
	dst = append(dst, ']')
	if c.Total > 0 {
		dst = append(dst, `,"total":`...)
		dst = strconv.AppendInt(dst, int64(c.Total), 10)
	}
	if c.HasMore {
		dst = append(dst, `,"hasMore":true`...)
	}
	return append(dst, "}}"...), nil
}
