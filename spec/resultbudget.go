package spec

import (
	"fmt"
	"time"
)

// Result budgets: `maxResultBytes:` on a tool bounds the encoded result the
// model gets; `onOverflow:` says what a result over it becomes: an error
// that names its size and the limit, or a resource_link to the full result
// (kept for `resultTTL:`, default 10m) plus a summary (runtime.Tool's
// MaxResultBytes, Overflow, ResultTTL). Never a silent truncation.
//
//	maxResultBytes: 16384
//	onOverflow: link
//	resultTTL: 30m

// Overflows are the values of `onOverflow:`.
var Overflows = []string{"error", "link"}

// ResultBudget is what a tool's budget keys say; nil when it has none.
type ResultBudget struct {
	MaxBytes    int64
	MaxBytesPos Pos
	OnOverflow  string // "error" (the default) or "link"
	OverflowPos Pos
	TTL         time.Duration // with link; 0: the runtime's default
	TTLPos      Pos
}

func (t *Tool) budget() *ResultBudget {
	if t.ResultBudget == nil {
		t.ResultBudget = &ResultBudget{}
	}
	return t.ResultBudget
}

var resultBudgetFields = fields[*Tool]{
	{key: "maxResultBytes", doc: "The most bytes of an encoded result (its JSON) the model gets; a result over it becomes what onOverflow says. Absent: no limit.", schema: `{"type":"integer","minimum":1}`,
		decode: func(d *decoder, t *Tool, e entry) {
			b := t.budget()
			b.MaxBytesPos = posOf(e.value)
			if n, ok := d.integer(e.value, "maxResultBytes"); ok {
				if n < 1 {
					d.errorf(b.MaxBytesPos, "maxResultBytes must be at least 1, not %d", n)
				}
				b.MaxBytes = n
			}
		}},
	{key: "onOverflow", doc: "What a result over maxResultBytes becomes: error (an error naming its size and the limit; the default) or link (a resource_link to the full result, kept for resultTTL for the same caller, and a summary).", schema: stringEnum(Overflows),
		decode: func(d *decoder, t *Tool, e entry) {
			b := t.budget()
			b.OverflowPos = posOf(e.value)
			b.OnOverflow, _ = d.str(e.value, "onOverflow")
		}},
	{key: "resultTTL", doc: "With onOverflow: link, how long the full result can be read: a Go duration such as 10m (default 10m).", schema: durationSchema,
		decode: func(d *decoder, t *Tool, e entry) {
			b := t.budget()
			b.TTLPos = posOf(e.value)
			b.TTL, _ = d.positiveDuration(e.value, "resultTTL", "10m or 1h")
		}},
}

// resultBudget checks a tool's budget keys together.
func (v *validator) resultBudget(t *Tool) {
	b := t.ResultBudget
	if b == nil {
		return
	}
	where := fmt.Sprintf("tool %q", t.Name)
	if b.OnOverflow != "" && b.OnOverflow != "error" && b.OnOverflow != "link" {
		v.errorf(b.OverflowPos, "onOverflow of %s must be error or link, not %q%s", where, b.OnOverflow, didYouMean(b.OnOverflow, Overflows))
	}
	if b.MaxBytesPos == (Pos{}) {
		at := b.OverflowPos
		if at == (Pos{}) {
			at = b.TTLPos
		}
		v.errorf(at, "%s says what to do with a result over its budget, but has no maxResultBytes: add maxResultBytes", where)
	}
	if b.TTLPos != (Pos{}) && b.OnOverflow != "link" {
		v.errorf(b.TTLPos, "resultTTL of %s is how long a linked result is kept; it needs onOverflow: link", where)
	}
}
