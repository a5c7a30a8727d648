package main

import (
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/examples/expenses/expensesmcp"
)

// ledger is the system of record: the authoritative expenses, in memory.
// Tools read snapshots of it and change it only through approve; the view
// never holds state the server does not check again.
type ledger struct {
	mu          sync.Mutex
	records     map[expensesmcp.ExpenseID]*record
	order       []expensesmcp.ExpenseID // by date, then id
	dataVersion int64                   // grows on every change
	asOf        time.Time               // when the ledger last changed
	now         func() time.Time
}

type record struct {
	row       expensesmcp.Row
	purpose   string
	lineItems []expensesmcp.LineItem
	history   []expensesmcp.Event
}

// approvalLimitCents is the most one approver may approve: above it the
// expense needs finance.
const approvalLimitCents = 500_000

// snapshotRows bounds a snapshot, so that its JSON stays small enough for
// a model's context and a view's table.
const snapshotRows = 200

func newLedger(records []*record, asOf time.Time) *ledger {
	l := &ledger{records: map[expensesmcp.ExpenseID]*record{}, dataVersion: 1, asOf: asOf, now: time.Now}
	for _, r := range records {
		l.records[r.row.ID] = r
		l.order = append(l.order, r.row.ID)
	}
	sort.SliceStable(l.order, func(i, j int) bool {
		a, b := l.records[l.order[i]].row, l.records[l.order[j]].row
		if a.Date != b.Date {
			return a.Date < b.Date
		}
		return a.ID < b.ID
	})
	return l
}

// sampleLedger is a deterministic team's expenses over three months.
func sampleLedger() *ledger {
	employees := []string{"Alice Martin", "Bruno Keller", "Chloé Dubois", "Dmitri Ivanov", "Eva Lindqvist"}
	merchants := map[expensesmcp.Category][]string{
		expensesmcp.CategoryTravel:   {"Lufthansa", "SNCF", "Hotel Adlon", "Uber"},
		expensesmcp.CategoryMeals:    {"Café Central", "Sushi Bar Ito", "Team lunch"},
		expensesmcp.CategorySoftware: {"GitHub", "JetBrains", "Figma"},
		expensesmcp.CategoryHardware: {"Apple Store", "Dell", "Logitech"},
		expensesmcp.CategoryOffice:   {"Staples", "IKEA"},
	}
	categories := []expensesmcp.Category{expensesmcp.CategoryTravel, expensesmcp.CategoryMeals, expensesmcp.CategorySoftware, expensesmcp.CategoryHardware, expensesmcp.CategoryOffice}
	var records []*record
	seed := uint32(7)
	next := func(n uint32) uint32 { // a small LCG: the same data on every run
		seed = seed*1664525 + 1013904223
		return (seed >> 8) % n
	}
	id := 1
	for _, month := range []string{"2026-09", "2026-10", "2026-11"} {
		for i := 0; i < 16; i++ {
			cat := categories[next(uint32(len(categories)))]
			ms := merchants[cat]
			amount := int64(1_500 + next(60_000))
			if cat == expensesmcp.CategoryHardware {
				amount *= 12 // some above the approval limit
			}
			status := expensesmcp.StatusApproved
			switch next(3) {
			case 0:
				status = expensesmcp.StatusPending
			case 1:
				if next(4) == 0 {
					status = expensesmcp.StatusRejected
				}
			}
			emp := employees[next(uint32(len(employees)))]
			date := fmt.Sprintf("%s-%02d", month, 1+next(28))
			merchant := ms[next(uint32(len(ms)))]
			tax := amount / 6
			r := &record{
				row: expensesmcp.Row{
					ID: expensesmcp.ExpenseID(fmt.Sprintf("EXP-%04d", id)), Date: date, Employee: emp, Category: cat,
					Merchant: merchant, AmountCents: amount, Status: status, Version: 1,
				},
				purpose: fmt.Sprintf("%s for the %s project", cat, []string{"Atlas", "Borealis", "Cygnus"}[next(3)]),
				lineItems: []expensesmcp.LineItem{
					{Description: merchant, AmountCents: amount - tax},
					{Description: "VAT", AmountCents: tax},
				},
				history: []expensesmcp.Event{{At: date + "T09:00:00Z", Who: emp, What: "submitted"}},
			}
			if status != expensesmcp.StatusPending {
				r.history = append(r.history, expensesmcp.Event{At: date + "T17:00:00Z", Who: "finance@example.com", What: string(status)})
			}
			records = append(records, r)
			id++
		}
	}
	return newLedger(records, time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC))
}
