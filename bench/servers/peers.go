package servers

import (
	"encoding/json"

	"github.com/google/jsonschema-go/jsonschema"
)

// The peer SDKs' typed structs: what a go-sdk or mcp-go user writes by hand
// for the tools of ../mcpgen.yaml. Both SDKs reflect schemas with
// github.com/google/jsonschema-go, whose `jsonschema` tag is a description.

type EchoIn struct {
	Text string `json:"text"`
}

type Address struct {
	Street     string `json:"street"`
	City       string `json:"city"`
	PostalCode string `json:"postal_code"`
	Country    string `json:"country" jsonschema:"ISO 3166-1 alpha-2 code."`
}

type Customer struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Email string `json:"email"`
	Tier  string `json:"tier"`
}

type LineItem struct {
	Sku       string  `json:"sku"`
	Quantity  int64   `json:"quantity"`
	UnitPrice float64 `json:"unit_price" jsonschema:"Price of one unit."`
}

type OrderIn struct {
	OrderID         string     `json:"order_id"`
	Customer        Customer   `json:"customer"`
	ShippingAddress Address    `json:"shipping_address"`
	BillingAddress  *Address   `json:"billing_address,omitempty"`
	Lines           []LineItem `json:"lines"`
	Currency        string     `json:"currency"`
	Priority        string     `json:"priority"`
	Gift            bool       `json:"gift,omitempty"`
	Express         bool       `json:"express,omitempty"`
	DiscountPercent float64    `json:"discount_percent,omitempty"`
	Note            string     `json:"note,omitempty"`
	Tags            []string   `json:"tags,omitempty"`
}

type StatsIn struct {
	Values []float64 `json:"values"`
}

type StatsOut struct {
	Count int64   `json:"count"`
	Sum   float64 `json:"sum"`
	Mean  float64 `json:"mean"`
	Min   float64 `json:"min"`
	Max   float64 `json:"max"`
}

// OrderSchema is the input schema of the order tool for the peer SDKs:
// reflected from OrderIn, then given the constraints of the spec that struct
// tags cannot carry in jsonschema-go (patterns, enums, bounds), so that every
// server validates the same contract.
func OrderSchema() *jsonschema.Schema {
	s, err := jsonschema.For[OrderIn](nil)
	if err != nil {
		panic(err)
	}
	p := s.Properties
	p["order_id"].Pattern = `^[A-Z]-\d{4}$`
	p["customer"].Properties["tier"].Enum = []any{"free", "pro", "enterprise"}
	for _, a := range []string{"shipping_address", "billing_address"} {
		p[a].Properties["country"].Pattern = `^[A-Z]{2}$`
	}
	p["lines"].MinItems = jsonschema.Ptr(1)
	item := p["lines"].Items
	item.Properties["quantity"].Minimum = jsonschema.Ptr(1.0)
	item.Properties["unit_price"].Minimum = jsonschema.Ptr(0.0)
	p["currency"].Enum = []any{"EUR", "USD", "GBP"}
	p["priority"].Enum = []any{"low", "normal", "high"}
	p["discount_percent"].Minimum = jsonschema.Ptr(0.0)
	p["discount_percent"].Maximum = jsonschema.Ptr(100.0)
	p["note"].MaxLength = jsonschema.Ptr(500)
	return s
}

// StatsSchema is the input schema of the stats tool for the peer SDKs.
func StatsSchema() *jsonschema.Schema {
	s, err := jsonschema.For[StatsIn](nil)
	if err != nil {
		panic(err)
	}
	s.Properties["values"].MinItems = jsonschema.Ptr(1)
	return s
}

// OnEcho, when set, is called by every server's echo handler while it runs:
// the large-payload benchmark measures there what the server holds once the
// arguments are decoded. Set it before serving; nil in the servers.
var OnEcho func()

func echoed() {
	if OnEcho != nil {
		OnEcho()
	}
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func peerOrder(in *OrderIn) string {
	var items int64
	var total float64
	for _, l := range in.Lines {
		items += l.Quantity
		total += float64(l.Quantity) * l.UnitPrice
	}
	total *= 1 - in.DiscountPercent/100
	return summary(in.OrderID, in.Customer.Name, in.Customer.Tier, len(in.Lines), items, total,
		in.Currency, in.Priority, in.ShippingAddress.City, in.ShippingAddress.Country, in.Gift, in.Express)
}

func peerStats(in *StatsIn) StatsOut {
	n, sum, mean, lo, hi := stats(in.Values)
	return StatsOut{Count: n, Sum: sum, Mean: mean, Min: lo, Max: hi}
}
