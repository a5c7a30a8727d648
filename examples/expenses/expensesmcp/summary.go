package expensesmcp

// This file is written by hand (mcpgen writes only *_mcpgen.go and
// ui_*_mcpgen.html here): the text summaries of the tools' outputs. The
// runtime sends each as the first text block of the result, which is what a
// person reads in a host without MCP Apps and what the model quotes (seed
// 002: every UI-linked tool stays useful without its view).

import (
	"fmt"
	"sort"
	"strings"
)

// Euros formats cents as an amount such as €1,234.50.
func Euros(cents int64) string {
	s := fmt.Sprintf("%d", cents/100)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return fmt.Sprintf("€%s.%02d", s, cents%100)
}

// pendingIDsShown bounds the ids a summary lists, so that it stays short.
const pendingIDsShown = 10

// TextSummary says what the snapshot holds, with the ids needed for the
// next call.
func (s *Snapshot) TextSummary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Expenses for %s (snapshot %s, ledger version %d, as of %s): %d expense%s, %s in total",
		s.Month, s.SnapshotID, s.Provenance.DataVersion, s.Provenance.AsOf, s.Totals.Count, plural(s.Totals.Count), Euros(s.Totals.AmountCents))
	if s.Truncated {
		fmt.Fprintf(&b, " (the first %d are in this snapshot)", len(s.Rows))
	}
	b.WriteString(".")
	if s.Totals.PendingCount > 0 {
		var ids []string
		for _, r := range s.Rows {
			if r.Status == StatusPending && len(ids) < pendingIDsShown {
				ids = append(ids, string(r.ID))
			}
		}
		more := ""
		if n := int(s.Totals.PendingCount) - len(ids); n > 0 {
			more = fmt.Sprintf(" and %d more", n)
		}
		fmt.Fprintf(&b, " %d pending approval (%s): %s%s.", s.Totals.PendingCount, Euros(s.Totals.PendingCents), strings.Join(ids, ", "), more)
	}
	if len(s.Totals.ByCategory) > 0 {
		cats := make([]string, 0, len(s.Totals.ByCategory))
		for c := range s.Totals.ByCategory {
			cats = append(cats, c)
		}
		sort.Slice(cats, func(i, j int) bool {
			a, b := s.Totals.ByCategory[cats[i]], s.Totals.ByCategory[cats[j]]
			return a > b || a == b && cats[i] < cats[j]
		})
		var parts []string
		for _, c := range cats {
			parts = append(parts, c+" "+Euros(s.Totals.ByCategory[c]))
		}
		fmt.Fprintf(&b, " By category: %s.", strings.Join(parts, ", "))
	}
	return b.String()
}

// TextSummary describes the expense in one paragraph.
func (d *Detail) TextSummary() string {
	e := d.Expense
	return fmt.Sprintf("%s: %s at %s (%s) by %s on %s, %s (version %d). Purpose: %s. %d line items, %d history events.",
		e.ID, Euros(e.AmountCents), e.Merchant, e.Category, e.Employee, e.Date, e.Status, e.Version, d.Purpose, len(d.LineItems), len(d.History))
}

// TextSummary says what the approval did.
func (a *Approval) TextSummary() string {
	e := a.Expense
	return fmt.Sprintf("Approved %s: %s at %s by %s; it is now at version %d.", e.ID, Euros(e.AmountCents), e.Merchant, e.Employee, e.Version)
}

func plural(n int64) string {
	if n == 1 {
		return ""
	}
	return "s"
}
