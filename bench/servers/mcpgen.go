// Package servers builds the three servers of the comparison, each serving
// the same three tools (echo, order, stats; see ../mcpgen.yaml): mcpgen's
// generated server, the official Go SDK's and mcp-go's. The handlers do the
// same work in each; only the SDK around them differs.
package servers

import (
	"context"
	"strconv"

	"github.com/mcpgen/mcpgen/bench/benchmcp"
	"github.com/mcpgen/mcpgen/runtime"
)

// NewMcpgen returns the mcpgen-generated server (benchmcp) with its handler.
func NewMcpgen(opts ...runtime.Option) *runtime.Server {
	return benchmcp.NewServer(mcpgenHandler{}, opts...)
}

type mcpgenHandler struct{}

var _ benchmcp.Handler = mcpgenHandler{}

func (mcpgenHandler) Echo(ctx context.Context, in *benchmcp.EchoInput) (*runtime.CallToolResult, error) {
	echoed()
	return runtime.TextResult(in.Text), nil
}

func (mcpgenHandler) Order(ctx context.Context, in *benchmcp.OrderInput) (*runtime.CallToolResult, error) {
	var items int64
	var total float64
	for _, l := range in.Lines {
		items += l.Quantity
		total += float64(l.Quantity) * l.UnitPrice
	}
	total *= 1 - in.DiscountPercent.Or(0)/100
	return runtime.TextResult(summary(in.OrderID, in.Customer.Name, string(in.Customer.Tier),
		len(in.Lines), items, total, string(in.Currency), string(in.Priority),
		in.ShippingAddress.City, in.ShippingAddress.Country, in.Gift.Or(false), in.Express.Or(false))), nil
}

func (mcpgenHandler) Stats(ctx context.Context, in *benchmcp.StatsInput) (*benchmcp.StatsOutput, error) {
	n, sum, mean, lo, hi := stats(in.Values)
	return &benchmcp.StatsOutput{Count: n, Sum: sum, Mean: mean, Min: lo, Max: hi}, nil
}

// summary is the order tool's answer, the same in every server:
// "order A-1042 for Ada Lovelace (pro): 3 lines, 7 items, 123.45 EUR, priority high, to Paris FR, gift, express".
func summary(id, name, tier string, lines int, items int64, total float64, currency, priority, city, country string, gift, express bool) string {
	b := make([]byte, 0, 128)
	b = append(b, "order "...)
	b = append(b, id...)
	b = append(b, " for "...)
	b = append(b, name...)
	b = append(b, " ("...)
	b = append(b, tier...)
	b = append(b, "): "...)
	b = strconv.AppendInt(b, int64(lines), 10)
	b = append(b, " lines, "...)
	b = strconv.AppendInt(b, items, 10)
	b = append(b, " items, "...)
	b = strconv.AppendFloat(b, total, 'f', 2, 64)
	b = append(b, ' ')
	b = append(b, currency...)
	b = append(b, ", priority "...)
	b = append(b, priority...)
	b = append(b, ", to "...)
	b = append(b, city...)
	b = append(b, ' ')
	b = append(b, country...)
	if gift {
		b = append(b, ", gift"...)
	}
	if express {
		b = append(b, ", express"...)
	}
	return string(b)
}

// stats is the stats tool's computation, the same in every server.
func stats(values []float64) (n int64, sum, mean, lo, hi float64) {
	if len(values) == 0 {
		return 0, 0, 0, 0, 0
	}
	lo, hi = values[0], values[0]
	for _, v := range values {
		sum += v
		lo = min(lo, v)
		hi = max(hi, v)
	}
	n = int64(len(values))
	return n, sum, sum / float64(n), lo, hi
}
