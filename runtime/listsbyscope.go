package runtime

// Lists by scope: with WithAuthorization, a tool whose Scopes the caller's
// token does not grant would be refused with 403 insufficient_scope. With
// WithListsByScope such a tool is not listed either, and a call of it is
// answered as a call of an unknown tool: each caller sees the tools it may
// call, and a model is not shown tools it cannot use. The lists then depend
// on the caller, so their modern cacheScope is "private". Over stdio, and
// without a verified token, scopes do not apply and nothing is hidden.

// WithListsByScope hides from each caller the tools its token's scopes do
// not allow (see above).
func WithListsByScope() Option { return func(c *config) { c.listsByScope = true } }
