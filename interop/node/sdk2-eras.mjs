// The official TypeScript SDK v2 client (@modelcontextprotocol/client)
// against examples/conformance in one era, over stdio or Streamable HTTP:
// a plain tool call and an elicitation round trip (accepted, then
// declined) through the client's one elicitation/create handler. It
// prints one JSON line: the era negotiated, each step's result or error,
// what the handler saw, and every JSON-RPC message sent and received, so that the Go test can see how each elicitation travelled.
//
// Usage: node sdk2-eras.mjs (legacy|modern|auto) stdio /path/to/server-binary
//        node sdk2-eras.mjs (legacy|modern|auto) http http://127.0.0.1:PORT/mcp
//
// The era is the client's choice (ClientOptions.versionNegotiation): the
// default, 'legacy', sends initialize; modern pins { pin: '2026-07-28' }:
// it probes with server/discover, fails unless the server offers that
// revision, then sends the per-request _meta and answers input_required
// results by retrying the call; 'auto' probes and falls back to
// initialize unless the server is definitely modern (over stdio it probes
// on a second, short-lived server process).
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const STEP_TIMEOUT_MS = 10_000;
const [era, kind, target] = process.argv.slice(2);
if (!['legacy', 'modern', 'auto'].includes(era) || !['stdio', 'http'].includes(kind) || !target) {
  console.error('usage: node sdk2-eras.mjs (legacy|modern|auto) (stdio BINARY | http URL)');
  process.exit(2);
}
const kill = setTimeout(() => {
  console.error('sdk2-eras: overall timeout');
  process.exit(3);
}, 60_000);

const out = { era, transport: kind, steps: {}, elicitRequests: [], sent: [], received: [], clientErrors: [] };
const client = new Client(
  { name: 'mcpgen-interop-ts2', version: '1.0.0' },
  {
    capabilities: { elicitation: { form: {} } },
    versionNegotiation: { mode: { legacy: 'legacy', modern: { pin: '2026-07-28' }, auto: 'auto' }[era] },
  },
);
// Errors the SDK reports outside any request, until close (which aborts
// the legacy GET stream, and reports that).
let closing = false;
client.onerror = (err) => closing || out.clientErrors.push(String(err?.message ?? err));
client.setRequestHandler('elicitation/create', async (req) => {
  out.elicitRequests.push(req.params);
  if (out.elicitRequests.length === 1) {
    return { action: 'accept', content: { username: 'alice', email: 'alice@example.com' } };
  }
  return { action: 'decline' };
});

const transport =
  kind === 'stdio'
    ? new StdioClientTransport({ command: target, args: [], stderr: 'inherit' })
    : new StreamableHTTPClientTransport(new URL(target));

// Record every message from the start: what the client writes, and what
// the transport hands to the client (whatever handler the client installs).
const send = transport.send.bind(transport);
transport.send = (msg, opts) => {
  out.sent.push(msg);
  return send(msg, opts);
};
let deliver;
Object.defineProperty(transport, 'onmessage', {
  configurable: true,
  set(fn) {
    deliver = fn;
  },
  get() {
    return deliver && ((msg, extra) => {
      out.received.push(msg);
      return deliver(msg, extra);
    });
  },
});

try {
  await client.connect(transport);
} catch (err) {
  console.error('connect failed:', err);
  process.exit(1);
}
out.negotiated = { era: client.getProtocolEra() ?? null, version: client.getNegotiatedProtocolVersion() ?? null };
out.serverInfo = client.getServerVersion() ?? null;


async function step(name, fn) {
  let timer;
  try {
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`step ${name} timed out after ${STEP_TIMEOUT_MS} ms`)), STEP_TIMEOUT_MS);
    });
    const result = await Promise.race([fn(), timeout]);
    out.steps[name] = { result: result ?? null };
  } catch (err) {
    out.steps[name] = { error: { code: err?.code ?? null, message: String(err?.message ?? err) } };
  } finally {
    clearTimeout(timer);
  }
}

await step('listTools', () => client.listTools());
await step('callSimpleText', () => client.callTool({ name: 'test_simple_text', arguments: {} }));
await step('callElicitationAccept', () =>
  client.callTool({ name: 'test_elicitation', arguments: { message: 'Please provide your username and email' } }));
await step('callElicitationDecline', () =>
  client.callTool({ name: 'test_elicitation', arguments: { message: 'Once more, please' } }));

out.sessionId = transport.sessionId ?? null;
closing = true;
await client.close();
clearTimeout(kill);
process.stdout.write(JSON.stringify(out) + '\n');
