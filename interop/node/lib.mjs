// Shared by the interop scripts: connect the official TypeScript SDK client
// over stdio or Streamable HTTP, run named steps that record their result
// or their error, and print one JSON summary line for the Go test to check.
//
// Usage of every script: node SCRIPT.mjs stdio /path/to/server-binary
//                        node SCRIPT.mjs http http://127.0.0.1:PORT/mcp
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const STEP_TIMEOUT_MS = 10_000;

export function parseArgs() {
  const [kind, target] = process.argv.slice(2);
  if (!['stdio', 'http'].includes(kind) || !target) {
    console.error('usage: node SCRIPT.mjs (stdio BINARY | http URL)');
    process.exit(2);
  }
  return { kind, target };
}

export function newTransport(kind, target) {
  if (kind === 'stdio') {
    // The server's stderr goes to ours, which the Go test shows on failure.
    return new StdioClientTransport({ command: target, args: [], stderr: 'inherit' });
  }
  return new StreamableHTTPClientTransport(new URL(target));
}

export function newClient(capabilities = {}) {
  return new Client({ name: 'mcpgen-interop-ts', version: '1.0.0' }, { capabilities });
}

// Summary collects what each step returned (or the error it threw).
export class Summary {
  constructor(kind) {
    this.out = { transport: kind, steps: {} };
  }
  set(key, value) {
    this.out[key] = value;
  }
  async step(name, fn) {
    let timer;
    try {
      const timeout = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`step ${name} timed out after ${STEP_TIMEOUT_MS} ms`)), STEP_TIMEOUT_MS);
      });
      const result = await Promise.race([fn(), timeout]);
      this.out.steps[name] = { result: result === undefined ? null : result };
    } catch (err) {
      this.out.steps[name] = { error: { code: err?.code ?? null, message: String(err?.message ?? err) } };
    } finally {
      clearTimeout(timer);
    }
    return this.out.steps[name].result;
  }
  print() {
    process.stdout.write(JSON.stringify(this.out) + '\n');
  }
}

// waitFor polls until pred() is true or ms elapse; it returns pred().
export async function waitFor(pred, ms) {
  const end = Date.now() + ms;
  while (!pred() && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 20));
  }
  return pred();
}

// run connects, runs body(client, summary, transport), closes and prints
// the summary; a failure to connect is fatal (exit 1, the error on stderr).
export async function run(capabilities, body) {
  const { kind, target } = parseArgs();
  const summary = new Summary(kind);
  const transport = newTransport(kind, target);
  const client = newClient(capabilities);
  // Errors the SDK reports outside any request (a notification it could
  // not route, a broken SSE stream): the Go test checks there are none
  // that the server caused.
  const clientErrors = [];
  client.onerror = (err) => clientErrors.push(String(err?.message ?? err));
  const kill = setTimeout(() => {
    console.error('interop script: overall timeout');
    process.exit(3);
  }, 60_000);
  try {
    await client.connect(transport);
  } catch (err) {
    console.error('connect failed:', err);
    process.exit(1);
  }
  summary.set('server', {
    info: client.getServerVersion() ?? null,
    capabilities: client.getServerCapabilities() ?? null,
    instructions: client.getInstructions() ?? null,
  });
  await body(client, summary, transport);
  if (kind === 'http') {
    summary.set('sessionId', transport.sessionId ?? null);
    // DELETE /mcp with the session id: the server must end the session,
    // and answer 404 to a request that still names it.
    const sessionId = transport.sessionId;
    await summary.step('terminateSession', () => transport.terminateSession());
    await summary.step('postAfterTerminate', async () => {
      const res = await fetch(target, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': sessionId ?? '',
          'mcp-protocol-version': transport.protocolVersion ?? '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 'after-delete', method: 'ping' }),
      });
      await res.body?.cancel();
      return { status: res.status };
    });
  }
  await client.close();
  summary.set('clientErrors', clientErrors);
  clearTimeout(kill);
  summary.print();
}
