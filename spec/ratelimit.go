package spec

import (
	"time"

	"gopkg.in/yaml.v3"
)

// RateLimit is a `rateLimit:` mapping, on the server (every request that
// runs server code) or on a tool (its calls): a token bucket per caller,
// keyed on the verified subject (runtime.RateLimit, runtime.WithRateLimit).
//
//	rateLimit: {requests: 60, per: 1m, burst: 10}
type RateLimit struct {
	Pos      Pos
	Requests int64 // > 0
	Per      time.Duration
	Burst    int64 // 0: Requests

	hasRequests, hasPer bool // the keys were written (a bad value is reported on its own)
}

var rateLimitFields = fields[*RateLimit]{
	{key: "requests", required: true, doc: "How many requests a caller may make per `per`, on average (required).", schema: `{"type":"integer","minimum":1}`,
		decode: func(d *decoder, r *RateLimit, e entry) {
			r.hasRequests = true
			if n, ok := d.integer(e.value, "requests"); ok {
				if n < 1 {
					d.errorf(posOf(e.value), "rateLimit requests must be at least 1, not %d", n)
				}
				r.Requests = n
			}
		}},
	{key: "per", required: true, doc: "The period of `requests`: a Go duration such as 1s, 1m or 1h (required).", schema: durationSchema,
		decode: func(d *decoder, r *RateLimit, e entry) {
			r.hasPer = true
			s, ok := d.str(e.value, "per")
			if !ok {
				return
			}
			per, err := time.ParseDuration(s)
			if err != nil || per <= 0 {
				d.errorf(posOf(e.value), "rateLimit per must be a positive duration such as 1s, 1m or 1h, not %q", s)
				return
			}
			r.Per = per
		}},
	{key: "burst", doc: "The most requests a caller may make at once (the bucket's size; default: requests).", schema: `{"type":"integer","minimum":1}`,
		decode: func(d *decoder, r *RateLimit, e entry) {
			if n, ok := d.integer(e.value, "burst"); ok {
				if n < 1 {
					d.errorf(posOf(e.value), "rateLimit burst must be at least 1, not %d", n)
				}
				r.Burst = n
			}
		}},
}

// rateLimit decodes a `rateLimit:` mapping; where names its owner in
// messages ("the server", `tool "search"`).
func (d *decoder) rateLimit(n *yaml.Node, where string) *RateLimit {
	m, ok := d.mapping(n, "rateLimit")
	if !ok {
		return nil
	}
	r := &RateLimit{Pos: posOf(n)}
	decodeMapping(d, m, r, rateLimitFields, func(e entry) {
		d.unknownKey(e, "in the rateLimit of "+where, rateLimitFields.keys())
	})
	if !r.hasRequests || !r.hasPer {
		d.errorf(r.Pos, "the rateLimit of %s needs requests and per, e.g. {requests: 60, per: 1m}", where)
	}
	if r.Requests < 1 || r.Per <= 0 || r.Burst < 0 {
		return nil // reported
	}
	return r
}
