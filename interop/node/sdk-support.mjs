// The official TypeScript SDK client against examples/support: every list,
// tool calls (a valid one, an invalid one), a resource, a template, both
// prompts (and a prompt error), completions, and a subscription whose
// notification a tool call triggers. See lib.mjs for the usage.
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { run, waitFor } from './lib.mjs';

await run({}, async (client, s) => {
  const updated = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
    updated.push(n.params.uri);
  });

  await s.step('listTools', () => client.listTools());
  await s.step('listResources', () => client.listResources());
  await s.step('listResourceTemplates', () => client.listResourceTemplates());
  await s.step('listPrompts', () => client.listPrompts());

  await s.step('readCustomer', () => client.readResource({ uri: 'customer://acme' }));
  await s.step('readTicket', () => client.readResource({ uri: 'ticket://T-1002' }));
  await s.step('readMissingTicket', () => client.readResource({ uri: 'ticket://T-9' }));

  await s.step('getTriagePrompt', () =>
    client.getPrompt({ name: 'triage_ticket', arguments: { ticket_id: 'T-1001', customer: 'acme' } }));
  await s.step('getDraftPrompt', () =>
    client.getPrompt({ name: 'draft_reply', arguments: { ticket_id: 'T-1003', tone: 'friendly' } }));
  await s.step('getDraftPromptBadTone', () =>
    client.getPrompt({ name: 'draft_reply', arguments: { ticket_id: 'T-1001', tone: 'angry' } }));

  await s.step('completeTemplate', () =>
    client.complete({ ref: { type: 'ref/resource', uri: 'ticket://{id}' }, argument: { name: 'id', value: 'T-100' } }));
  await s.step('completePromptWithContext', () =>
    client.complete({
      ref: { type: 'ref/prompt', name: 'triage_ticket' },
      argument: { name: 'customer', value: '' },
      context: { arguments: { ticket_id: 'T-1003' } },
    }));
  await s.step('completeEnum', () =>
    client.complete({ ref: { type: 'ref/prompt', name: 'draft_reply' }, argument: { name: 'tone', value: 'f' } }));

  await s.step('subscribe', () => client.subscribeResource({ uri: 'ticket://T-1001' }));
  await s.step('callReply', () =>
    client.callTool({
      name: 'reply_to_ticket',
      arguments: { id: 'T-1001', body: 'A fix ships tonight.', idempotency_key: '3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b' },
    }));
  await waitFor(() => updated.length > 0, 5_000);
  await s.step('callEscalateInvalid', () =>
    client.callTool({ name: 'escalate_ticket', arguments: { id: 'T-1001', level: 'ceo', reason: 'the customer is very upset' } }));
  await s.step('callUnknownTool', () => client.callTool({ name: 'drop_tables', arguments: {} }));
  await s.step('readTicketAfterReply', () => client.readResource({ uri: 'ticket://T-1001' }));
  s.set('resourceUpdated', updated);
});
