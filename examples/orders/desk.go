package main

import (
	"context"
	"fmt"
	"sync"

	"github.com/mcpgen/mcpgen/examples/orders/ordersmcp"
	"github.com/mcpgen/mcpgen/runtime"
)

// desk implements ordersmcp.Handler over an in-memory order book.
type desk struct {
	mu     sync.Mutex
	orders map[ordersmcp.OrderID]*ordersmcp.Order
	nextID int
}

var _ ordersmcp.Handler = (*desk)(nil)

func newDesk(orders []ordersmcp.Order) *desk {
	d := &desk{orders: map[ordersmcp.OrderID]*ordersmcp.Order{}}
	for i := range orders {
		d.orders[orders[i].OrderID] = &orders[i]
	}
	return d
}

func (d *desk) LookupOrder(ctx context.Context, in *ordersmcp.LookupOrderInput) (*ordersmcp.Order, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	o, ok := d.orders[in.OrderID]
	if !ok {
		return nil, fmt.Errorf("no order %s; check the id with the customer", in.OrderID)
	}
	copy := *o
	copy.Notes = append([]string(nil), o.Notes...)
	return &copy, nil
}

func (d *desk) CreateNote(ctx context.Context, in *ordersmcp.CreateNoteInput) (*ordersmcp.CreateNoteOutput, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	o, ok := d.orders[in.OrderID]
	if !ok {
		return nil, fmt.Errorf("no order %s", in.OrderID)
	}
	text := in.Text
	if who, ok := runtime.AuthFromContext(ctx); ok {
		text = "[" + who.Subject + "] " + text // over HTTP with authorization: who wrote it
	}
	if in.Pinned.Value { // false when left out (the spec's default, applied by the runtime)
		o.Notes = append([]string{text}, o.Notes...)
	} else {
		o.Notes = append(o.Notes, text)
	}
	d.nextID++
	return &ordersmcp.CreateNoteOutput{NoteID: fmt.Sprintf("N-%d", d.nextID), Notes: int64(len(o.Notes))}, nil
}

// RefundOrder refunds. Retries with the same idempotency_key never reach it:
// the spec declares the key, and the runtime answers them with the first
// result.
func (d *desk) RefundOrder(ctx context.Context, in *ordersmcp.RefundOrderInput) (*runtime.CallToolResult, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	o, ok := d.orders[in.OrderID]
	if !ok {
		return nil, fmt.Errorf("no order %s", in.OrderID)
	}
	if o.Status != ordersmcp.OrderStatusPaid && o.Status != ordersmcp.OrderStatusShipped {
		return nil, fmt.Errorf("order %s is %s; only paid or shipped orders can be refunded", o.OrderID, o.Status)
	}
	amount := o.Total
	if a, ok := in.Amount.Get(); ok {
		if a.Currency != o.Total.Currency || a.Amount > o.Total.Amount {
			return nil, fmt.Errorf("refund of %d %s does not fit order total %d %s", a.Amount, a.Currency, o.Total.Amount, o.Total.Currency)
		}
		amount = a
	}
	o.Status = ordersmcp.OrderStatusRefunded
	done := fmt.Sprintf("refunded %d %s on order %s (reason: %s)", amount.Amount, amount.Currency, o.OrderID, in.Reason)
	return runtime.TextResult(done), nil
}

func sampleOrders() []ordersmcp.Order {
	eur := func(cents int64) ordersmcp.Money { return ordersmcp.Money{Amount: cents, Currency: "EUR"} }
	return []ordersmcp.Order{
		{
			OrderID: "A-1042", Status: ordersmcp.OrderStatusPaid, CustomerEmail: "ada@example.com",
			Lines: []ordersmcp.OrderLine{{Sku: "BOOK-1", Quantity: 2, Price: eur(1250)}},
			Total: eur(2500),
		},
		{
			OrderID: "B-2001", Status: ordersmcp.OrderStatusPending, CustomerEmail: "bob@example.com",
			Lines: []ordersmcp.OrderLine{{Sku: "MUG-7", Quantity: 1, Price: eur(900)}},
			Total: eur(900), Notes: []string{"asked for gift wrap"},
		},
	}
}
