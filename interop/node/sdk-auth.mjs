// The official TypeScript SDK client (v1) as an OAuth client of a server in
// resource-server mode, with the SDK's own machinery (authorization code
// with PKCE, a public client): the 401 challenge sends it to the protected
// resource metadata, then to the authorization server, asking for the
// challenge's scope for this resource; a 403 insufficient_scope makes it
// ask again for the scopes the challenge names (step-up). The "user" here
// consents at once: redirectToAuthorization follows the authorization URL
// and keeps the code. The Go test runs the authorization server.
//
// Usage: node sdk-auth.mjs http http://127.0.0.1:PORT/mcp
import { discoverOAuthProtectedResourceMetadata, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { newClient, parseArgs, Summary } from './lib.mjs';

const { kind, target } = parseArgs();
const url = new URL(target);
const summary = new Summary(kind);
const kill = setTimeout(() => {
  console.error('interop script: overall timeout');
  process.exit(3);
}, 60_000);

// An OAuthClientProvider kept in memory, pre-registered as "ts-agent".
class HeadlessProvider {
  constructor() {
    this.info = { client_id: 'ts-agent' };
    this.code = undefined;
    this.authorizations = 0;
  }
  get redirectUrl() {
    return 'http://127.0.0.1:9/callback'; // never reached: the code is read off the redirect
  }
  get clientMetadata() {
    return {
      client_name: 'mcpgen interop',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info) {
    this.info = info;
  }
  tokens() {
    return this.savedTokens;
  }
  saveTokens(tokens) {
    this.savedTokens = tokens;
  }
  saveCodeVerifier(v) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
  async redirectToAuthorization(authorizationUrl) {
    this.authorizations++;
    const res = await fetch(authorizationUrl, { redirect: 'manual' });
    const location = res.headers.get('location');
    if (res.status !== 302 || !location) {
      throw new Error(`authorization: ${res.status} ${await res.text()}`);
    }
    this.code = new URL(location).searchParams.get('code');
  }
}

await summary.step('discoverMetadata', () => discoverOAuthProtectedResourceMetadata(url));
await summary.step('withoutToken', async () => {
  await newClient().connect(new StreamableHTTPClientTransport(url));
  return 'connected';
});

const provider = new HeadlessProvider();
let client = newClient();
let transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
await summary.step('connect', async () => {
  try {
    await client.connect(transport);
  } catch (err) {
    if (!(err instanceof UnauthorizedError)) throw err;
    // The user consented; the redirect brought the code back.
    await transport.finishAuth(provider.code);
    client = newClient();
    transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
    await client.connect(transport);
  }
  return { scope: provider.tokens()?.scope ?? null, authorizations: provider.authorizations };
});
await summary.step('lookupOrder', () => client.callTool({ name: 'lookup_order', arguments: { order_id: 'A-1042' } }));
const note = { name: 'create_note', arguments: { order_id: 'A-1042', text: 'via the TypeScript SDK' } };
await summary.step('createNote', async () => {
  try {
    return await client.callTool(note);
  } catch (err) {
    if (!(err instanceof UnauthorizedError)) throw err;
    // Step-up: the 403 sent the user back to consent to more scopes.
    await transport.finishAuth(provider.code);
    const result = await client.callTool(note);
    return { ...result, steppedUpScope: provider.tokens()?.scope ?? null, authorizations: provider.authorizations };
  }
});
await summary.step('lookupAfterNote', () => client.callTool({ name: 'lookup_order', arguments: { order_id: 'A-1042' } }));
await client.close();
clearTimeout(kill);
summary.print();
