package load

import (
	"encoding/json"
	"strconv"
	"strings"
)

// Arguments are the arguments each benchmark tool is called with, the same
// for every server.
var Arguments = map[string]json.RawMessage{
	"echo": json.RawMessage(`{"text":"hello, world"}`),
	"order": json.RawMessage(`{"order_id":"A-1042",` +
		`"customer":{"id":"c-17","name":"Ada Lovelace","email":"ada@example.com","tier":"pro"},` +
		`"shipping_address":{"street":"12 Rue de Rivoli","city":"Paris","postal_code":"75001","country":"FR"},` +
		`"billing_address":{"street":"1 Infinite Loop","city":"Cupertino","postal_code":"95014","country":"US"},` +
		`"lines":[{"sku":"BOOK-1","quantity":2,"unit_price":19.5},{"sku":"PEN-3","quantity":4,"unit_price":2.25},{"sku":"INK-9","quantity":1,"unit_price":7}],` +
		`"currency":"EUR","priority":"high","gift":true,"express":false,"discount_percent":10,` +
		`"note":"leave at the door","tags":["vip","q4"]}`),
	"stats": statsArgs(64),
}

// Tools are the benchmark's tools, in table order.
var Tools = []string{"echo", "order", "stats"}

func statsArgs(n int) json.RawMessage {
	var b strings.Builder
	b.WriteString(`{"values":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatFloat(float64((i*37)%101)/4, 'g', -1, 64))
	}
	b.WriteString(`]}`)
	return json.RawMessage(b.String())
}
