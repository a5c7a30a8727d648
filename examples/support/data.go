package main

import (
	"github.com/mcpgen/mcpgen/examples/support/supportmcp"
	"github.com/mcpgen/mcpgen/runtime"
)

// sampleCustomers and sampleTickets are the desk's starting state.
func sampleCustomers() []supportmcp.Customer {
	return []supportmcp.Customer{
		{
			Slug: "acme", Name: "Acme Corp", Plan: supportmcp.CustomerPlanEnterprise, SLAHours: 4,
			Contacts: []supportmcp.Contact{
				{Name: "Wile E. Coyote", Email: "wile@acme.example", Role: runtime.Some("Head of procurement")},
				{Name: "Road Runner", Email: "rr@acme.example", Role: runtime.Some("IT administrator")},
			},
			Notes: runtime.Some("Renewal in March. Prefers email over phone; escalate outages straight to engineering."),
		},
		{
			Slug: "globex", Name: "Globex", Plan: supportmcp.CustomerPlanBusiness, SLAHours: 24,
			Contacts: []supportmcp.Contact{
				{Name: "Hank Scorpio", Email: "hank@globex.example", Role: runtime.Some("CEO")},
			},
		},
	}
}

func sampleTickets() []supportmcp.Ticket {
	msg := func(from supportmcp.TicketMessageFrom, author, at, body string) supportmcp.TicketMessage {
		return supportmcp.TicketMessage{From: from, Author: author, At: at, Body: body}
	}
	return []supportmcp.Ticket{
		{
			ID: "T-1001", Customer: "acme", Subject: "Invoice PDF export times out",
			Status: supportmcp.TicketStatusOpen, Level: supportmcp.TicketLevelTier1, Priority: supportmcp.TicketPriorityHigh,
			Messages: []supportmcp.TicketMessage{
				msg(supportmcp.TicketMessageFromCustomer, "Wile E. Coyote", "2026-11-02T09:14:00Z", "Exporting the October invoices as PDF spins for a minute and then fails with a 504. Smaller months work. We need these for the audit on Friday."),
				msg(supportmcp.TicketMessageFromAgent, "Sam (support)", "2026-11-02T10:02:00Z", "Thanks, we can reproduce it with more than 400 invoices in a month. Looking into it."),
				msg(supportmcp.TicketMessageFromCustomer, "Wile E. Coyote", "2026-11-03T08:40:00Z", "Any news? The audit is in two days."),
			},
		},
		{
			ID: "T-1002", Customer: "acme", Subject: "SSO login loop after IdP certificate rotation",
			Status: supportmcp.TicketStatusOpen, Level: supportmcp.TicketLevelTier2, Priority: supportmcp.TicketPriorityUrgent,
			Messages: []supportmcp.TicketMessage{
				msg(supportmcp.TicketMessageFromCustomer, "Road Runner", "2026-11-03T07:55:00Z", "Since we rotated our IdP signing certificate this morning, every user is redirected back to the login page. Nobody can sign in."),
				msg(supportmcp.TicketMessageFromSystem, "escalation", "2026-11-03T08:05:00Z", "Escalated to tier2: all users of the account are locked out."),
			},
		},
		{
			ID: "T-1003", Customer: "globex", Subject: "Webhook deliveries delayed by hours",
			Status: supportmcp.TicketStatusOpen, Level: supportmcp.TicketLevelTier1, Priority: supportmcp.TicketPriorityNormal,
			Messages: []supportmcp.TicketMessage{
				msg(supportmcp.TicketMessageFromCustomer, "Hank Scorpio", "2026-11-01T16:20:00Z", "Order webhooks arrive two to three hours late since Thursday. Our endpoint answers in under 100 ms."),
			},
		},
		{
			ID: "T-1017", Customer: "globex", Subject: "CSV export of the audit log",
			Status: supportmcp.TicketStatusPendingCustomer, Level: supportmcp.TicketLevelTier1, Priority: supportmcp.TicketPriorityLow,
			Messages: []supportmcp.TicketMessage{
				msg(supportmcp.TicketMessageFromCustomer, "Hank Scorpio", "2026-10-28T11:00:00Z", "Can we get the audit log as CSV?"),
				msg(supportmcp.TicketMessageFromAgent, "Sam (support)", "2026-10-28T13:30:00Z", "Yes: Settings > Audit log > Export. Does that cover what you need?"),
			},
		},
	}
}
