// A minimal MCP Apps host, for the browser test: an MCP client over
// Streamable HTTP (through the test server's /mcp proxy, as a web host's
// backend would), and the host side of the view's postMessage protocol.
// It renders the ui:// resource the way the extension asks web hosts to:
// in a sandbox proxy iframe on another origin, which loads the HTML into an
// inner sandboxed iframe with a Content Security Policy built from
// _meta.ui.csp. Everything it does is recorded in window.host for the test.

const params = new URLSearchParams(location.search);
const toolName = params.get("tool") || "explore_expenses";
const toolArgs = JSON.parse(params.get("args") || '{"month":"2026-10"}');
const sandboxOrigin = params.get("sandbox"); // another origin than ours

const UI_MIME = "text/html;profile=mcp-app";
const MAX_MESSAGE = 1 << 20; // bytes; a view's messages are small

window.host = {
  calls: [],          // every tools/call the view asked for, and the answer
  modelContext: null, // the last ui/update-model-context
  csp: null,          // the policy the view was loaded with
  errors: [],
  ready: false,       // the tool result was delivered to the view
};

// --- MCP client over Streamable HTTP -----------------------------------

let sessionId = null;
let rpcId = 0;

async function mcp(method, params, isNotification) {
  const body = { jsonrpc: "2.0", method };
  if (params !== undefined) body.params = params;
  if (!isNotification) body.id = ++rpcId;
  const headers = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
  if (sessionId) {
    headers["Mcp-Session-Id"] = sessionId;
    headers["MCP-Protocol-Version"] = "2025-11-25";
  }
  const resp = await fetch("/mcp", { method: "POST", headers, body: JSON.stringify(body) });
  if (resp.headers.get("Mcp-Session-Id")) sessionId = resp.headers.get("Mcp-Session-Id");
  if (isNotification) return null;
  const type = resp.headers.get("Content-Type") || "";
  let msg;
  if (type.startsWith("text/event-stream")) {
    // The response is the SSE event whose data is a response to our id.
    const text = await resp.text();
    for (const block of text.split(/\r?\n\r?\n/)) {
      const data = block.split(/\r?\n/).filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trimStart()).join("\n");
      if (!data) continue;
      const m = JSON.parse(data);
      if (m.id === body.id) msg = m;
    }
  } else {
    msg = await resp.json();
  }
  if (!msg) throw new Error(`${method}: no response`);
  if (msg.error) throw Object.assign(new Error(msg.error.message), { rpc: msg.error });
  return msg.result;
}

// --- the view ----------------------------------------------------------

// cspFor builds the view's policy from _meta.ui.csp, with the extension's
// restrictive defaults: no network, no frames, no plugins, scripts and
// styles only inline or from resourceDomains.
function cspFor(csp) {
  csp = csp || {};
  const list = (xs, none) => (xs && xs.length ? xs.join(" ") : none);
  const res = list(csp.resourceDomains, "");
  return [
    "default-src 'none'",
    `script-src 'unsafe-inline' ${res}`.trim(),
    `style-src 'unsafe-inline' ${res}`.trim(),
    `img-src data: ${res}`.trim(),
    `font-src data: ${res}`.trim(),
    `media-src data: ${res}`.trim(),
    `connect-src ${list(csp.connectDomains, "'none'")}`,
    `frame-src ${list(csp.frameDomains, "'none'")}`,
    `base-uri ${list(csp.baseUriDomains, "'self'")}`,
    "object-src 'none'",
    "form-action 'none'",
  ].join("; ");
}

async function main() {
  const init = await mcp("initialize", {
    protocolVersion: "2025-11-25",
    // The extension, as a host declares it.
    capabilities: { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: [UI_MIME] } } },
    clientInfo: { name: "mcpgen-apps-test-host", version: "1.0.0" },
  });
  await mcp("notifications/initialized", undefined, true);
  const { tools } = await mcp("tools/list", {});
  const tool = tools.find((t) => t.name === toolName);
  const uri = tool && tool._meta && tool._meta.ui && tool._meta.ui.resourceUri;
  if (!uri || !uri.startsWith("ui://")) throw new Error(`tool ${toolName} has no ui:// view`);
  // visibility: the view may call only tools that include "app".
  const appTools = new Set(tools.filter((t) => {
    const v = t._meta && t._meta.ui && t._meta.ui.visibility;
    return !v || v.includes("app");
  }).map((t) => t.name));

  const { resources } = await mcp("resources/list", {});
  const listed = resources.find((r) => r.uri === uri) || {};
  const read = await mcp("resources/read", { uri });
  const content = read.contents[0];
  if (content.mimeType !== UI_MIME) throw new Error(`the view's mimeType is ${content.mimeType}`);
  // The content item's _meta.ui wins over the list entry's.
  const ui = (content._meta && content._meta.ui) || listed._meta && listed._meta.ui || {};
  const csp = cspFor(ui.csp);
  window.host.csp = csp;
  window.host.serverCapabilities = init.capabilities;

  const frame = document.createElement("iframe");
  frame.id = "sandbox";
  frame.title = "Expense explorer";
  frame.setAttribute("sandbox", "allow-scripts allow-same-origin allow-forms");
  frame.src = `${sandboxOrigin}/sandbox.html?host=${encodeURIComponent(location.origin)}`;
  if (ui.prefersBorder === false) frame.style.border = "0";
  document.getElementById("stage").appendChild(frame);

  const post = (msg) => frame.contentWindow.postMessage(msg, sandboxOrigin);
  const respond = (id, result) => post({ jsonrpc: "2.0", id, result });
  const fail = (id, code, message) => post({ jsonrpc: "2.0", id, error: { code, message } });

  // The tool call that the view shows starts now, as a host does.
  const toolCall = mcp("tools/call", { name: toolName, arguments: toolArgs });

  window.addEventListener("message", async (event) => {
    // Only the sandbox we made, from its origin, speaking JSON-RPC 2.0, and
    // not too much of it.
    if (event.source !== frame.contentWindow || event.origin !== sandboxOrigin) return;
    const msg = event.data;
    if (!msg || msg.jsonrpc !== "2.0" || typeof msg.method !== "string") return;
    if (JSON.stringify(msg).length > MAX_MESSAGE) {
      if ("id" in msg) fail(msg.id, -32600, "message too large");
      return;
    }
    switch (msg.method) {
      case "ui/notifications/sandbox-proxy-ready":
        post({ jsonrpc: "2.0", method: "ui/notifications/sandbox-resource-ready",
          params: { html: content.text, csp: ui.csp || {}, permissions: ui.permissions || {}, policy: csp } });
        return;
      case "ui/initialize":
        respond(msg.id, {
          protocolVersion: "2026-01-26",
          hostInfo: { name: "mcpgen-apps-test-host", version: "1.0.0" },
          hostCapabilities: { serverTools: {}, serverResources: {}, logging: {}, sandbox: { csp: ui.csp || {}, permissions: ui.permissions || {} } },
          hostContext: { toolInfo: { tool }, theme: "light", displayMode: "inline", availableDisplayModes: ["inline"], platform: "web", locale: "en-US" },
        });
        return;
      case "ui/notifications/initialized":
        post({ jsonrpc: "2.0", method: "ui/notifications/tool-input", params: { arguments: toolArgs } });
        try {
          post({ jsonrpc: "2.0", method: "ui/notifications/tool-result", params: await toolCall });
          window.host.ready = true;
        } catch (e) {
          window.host.errors.push(String(e));
        }
        return;
      case "ui/notifications/size-changed":
        if (msg.params && msg.params.height > 0) frame.style.height = Math.min(msg.params.height + 8, 4000) + "px";
        return;
      case "ui/update-model-context":
        window.host.modelContext = msg.params;
        respond(msg.id, {});
        return;
      case "ping":
        respond(msg.id, {});
        return;
      case "tools/call": {
        const name = msg.params && msg.params.name;
        const entry = { name, arguments: msg.params && msg.params.arguments };
        window.host.calls.push(entry);
        if (!appTools.has(name)) { // not declared for the view
          entry.refused = true;
          fail(msg.id, -32602, `tool ${name} is not available to this view`);
          return;
        }
        try {
          const result = await mcp("tools/call", { name, arguments: entry.arguments || {} });
          entry.result = result;
          respond(msg.id, result);
        } catch (e) {
          entry.error = String(e);
          fail(msg.id, (e.rpc && e.rpc.code) || -32603, String(e.message));
        }
        return;
      }
      case "resources/read":
        try { respond(msg.id, await mcp("resources/read", msg.params)); } catch (e) { fail(msg.id, -32603, String(e.message)); }
        return;
    }
    if ("id" in msg) fail(msg.id, -32601, `method ${msg.method} not found`);
  });
}

main().catch((e) => { window.host.errors.push(String(e && e.stack || e)); });
