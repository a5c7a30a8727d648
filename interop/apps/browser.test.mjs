// The real-browser test of MCP Apps: examples/expenses serves Streamable
// HTTP; a test server serves the test host (host/) on http://localhost and
// its sandbox proxy on http://127.0.0.1 (two origins, as the extension asks
// of web hosts) and proxies /mcp to the example; headless Chromium, driven
// by playwright-core, loads the host, which renders the ui:// view.
//
// Run by run.sh (which builds the server). Without Chromium it skips, unless
// MCPGEN_REQUIRE_BROWSER=1 (CI), where a missing browser fails.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";
const serverBin = process.env.EXPENSES_BIN;
const artifacts = path.join(here, "artifacts");
const haveBrowser = existsSync(chromiumPath);
const required = process.env.MCPGEN_REQUIRE_BROWSER === "1";
const skip = !haveBrowser && !required && `Chromium not found at ${chromiumPath} (install the chromium package, or set CHROMIUM); skipping the browser test`;
if (skip) console.log("# " + skip);

let go, web, context, page, view, port, profile;
const probeHits = { count: 0 };
const goLog = [];

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => { const p = s.address().port; s.close(() => resolve(p)); });
    s.on("error", reject);
  });
}

async function waitForPort(p) {
  for (let i = 0; i < 300; i++) {
    const ok = await new Promise((resolve) => {
      const c = net.connect(p, "127.0.0.1", () => { c.end(); resolve(true); });
      c.on("error", () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the expenses server did not listen on ${p}: ${goLog.join("")}`);
}

// The test server: static host files, the /mcp proxy (a host's backend;
// the browser never talks to the MCP server itself), and /csp-probe, which
// counts requests that got through.
function startWeb(goPort) {
  const files = { "/host.html": "text/html", "/host.js": "text/javascript", "/sandbox.html": "text/html" };
  const srv = http.createServer((req, res) => {
    const url = new URL(req.url, "http://x");
    if (url.pathname === "/mcp") {
      const headers = { ...req.headers, host: `127.0.0.1:${goPort}` };
      delete headers.origin; // server to server
      delete headers.referer;
      const up = http.request({ host: "127.0.0.1", port: goPort, path: "/mcp", method: req.method, headers }, (ur) => {
        res.writeHead(ur.statusCode, ur.headers);
        ur.pipe(res);
      });
      up.on("error", (e) => { res.writeHead(502); res.end(String(e)); });
      req.pipe(up);
      return;
    }
    if (url.pathname === "/csp-probe") {
      probeHits.count++;
      res.writeHead(200, { "Access-Control-Allow-Origin": "*" });
      res.end("reached");
      return;
    }
    const type = files[url.pathname];
    if (!type) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { "Content-Type": type + "; charset=utf-8", "Cache-Control": "no-store" });
    res.end(readFileSync(path.join(here, "host", url.pathname)));
  });
  return new Promise((resolve) => srv.listen(0, "127.0.0.1", () => resolve(srv)));
}

before(async () => {
  if (skip) return;
  assert.ok(haveBrowser, `MCPGEN_REQUIRE_BROWSER=1 but Chromium is missing at ${chromiumPath}: run interop/apps/setup.sh`);
  assert.ok(serverBin && existsSync(serverBin), "EXPENSES_BIN must name the built examples/expenses server (run.sh builds it)");
  const goPort = await freePort();
  go = spawn(serverBin, ["-http", `127.0.0.1:${goPort}`], { stdio: ["ignore", "pipe", "pipe"] });
  go.stdout.on("data", (d) => goLog.push(String(d)));
  go.stderr.on("data", (d) => goLog.push(String(d)));
  await waitForPort(goPort);
  web = await startWeb(goPort);
  port = web.address().port;

  const { chromium } = await import("playwright-core");
  profile = mkdtempSync(path.join(os.tmpdir(), "mcpgen-chromium-"));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    viewport: { width: 1100, height: 900 },
  });
  page = context.pages()[0] || await context.newPage();
  page.on("pageerror", (e) => console.log("# page error:", e.message));
  await openHost();
});

// openHost loads the host page, which calls the tool and renders its view,
// and sets view to the view's frame once its rows are drawn.
async function openHost() {
  const sandbox = encodeURIComponent(`http://127.0.0.1:${port}`);
  await page.goto(`http://localhost:${port}/host.html?sandbox=${sandbox}`);
  await page.waitForFunction(() => window.host && (window.host.ready || window.host.errors.length > 0), null, { timeout: 60000 });
  const errors = await page.evaluate(() => window.host.errors);
  assert.deepEqual(errors, [], "the host failed");
  // Playwright learns of the inner frame (in the sandbox's process) a
  // little after the view has already spoken: wait for it.
  view = null;
  for (let i = 0; i < 200 && !view; i++) {
    view = page.frames().find((f) => f.url() === "about:srcdoc");
    if (!view) await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(view, "the view's frame was not created");
  await view.waitForSelector("#rows tr");
}

after(async () => {
  if (context) await context.close();
  if (profile) rmSync(profile, { recursive: true, force: true, maxRetries: 5 });
  if (web) web.close();
  if (go) go.kill("SIGTERM");
});

// directCall calls a tool on the server through a session of its own, as
// another user's host would (it declares MCP Apps, without which the
// app-only tools do not exist), from the host page (the only place with
// the /mcp proxy).
function directCall(name, args) {
  return page.evaluate(async ([name, args]) => {
    const base = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
    const post = (headers, body) => fetch("/mcp", { method: "POST", headers, body: JSON.stringify(body) });
    const r = await post(base, { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } }, clientInfo: { name: "other-user", version: "1" } } });
    await r.text();
    const h = { ...base, "Mcp-Session-Id": r.headers.get("Mcp-Session-Id"), "MCP-Protocol-Version": "2025-11-25" };
    await post(h, { jsonrpc: "2.0", method: "notifications/initialized" });
    const text = await (await post(h, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name, arguments: args } })).text();
    const data = text.startsWith("{") ? text : text.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5)).find((d) => d.includes('"id":2'));
    return JSON.parse(data).result;
  }, [name, args]);
}

const rowIds = () => view.$$eval("#rows tr", (trs) => trs.map((tr) => tr.dataset.id));
const hostCalls = () => page.evaluate(() => window.host.calls.map((c) => ({ ...c })));

test("the view renders the snapshot's rows", { skip }, async () => {
  const ids = await rowIds();
  assert.equal(ids.length, 16, "October holds 16 expenses");
  assert.match(await view.textContent("#provenance"), /Snapshot snap-[0-9a-f]{12} of 2026-10/);
  assert.match(await view.textContent("#caption"), /16 of 16 expenses shown/);
  // The host told the server it supports the extension, and the server
  // linked the tool to the view: both ends of the negotiation.
  assert.ok(await page.evaluate(() => window.host.serverCapabilities.tools !== undefined));
});

test("a filter narrows the rows, and sorting orders them", { skip }, async () => {
  await view.selectOption("#category", "travel");
  const travel = await view.$$eval("#rows tr td:nth-child(4)", (tds) => tds.map((td) => td.textContent));
  assert.ok(travel.length > 0 && travel.length < 16, `travel rows: ${travel.length}`);
  assert.ok(travel.every((c) => c === "travel"));
  await view.selectOption("#category", "");
  await view.fill("#search", "lufthansa");
  const merchants = await view.$$eval("#rows tr td:nth-child(5)", (tds) => tds.map((td) => td.textContent));
  assert.ok(merchants.length > 0 && merchants.length < 16 && merchants.every((m) => m === "Lufthansa"), merchants.join(","));
  await view.fill("#search", "");

  await view.click("#sort-amount_cents");
  const amounts = () => view.$$eval("#rows tr td.amount", (tds) => tds.map((td) => Number(td.textContent.replace(/[€,]/g, ""))));
  const up = await amounts();
  assert.deepEqual(up, [...up].sort((a, b) => a - b));
  await view.click("#sort-amount_cents");
  const down = await amounts();
  assert.deepEqual(down, [...up].reverse());
  assert.equal(await view.getAttribute('th[data-sort="amount_cents"]', "aria-sort"), "descending");
});

test("drill-down calls the app-only detail tool", { skip }, async () => {
  const before = (await hostCalls()).length;
  await view.click('button[data-detail="EXP-0020"]');
  await view.waitForSelector("#detail:not([hidden])");
  assert.match(await view.textContent("#detail-title"), /^EXP-0020/);
  const calls = (await hostCalls()).slice(before);
  assert.deepEqual(calls.map((c) => [c.name, c.arguments]), [["expense_detail", { expense_id: "EXP-0020" }]]);
  assert.ok(calls[0].result && !calls[0].result.isError);
});

test("approving twice with the same key approves once", { skip }, async () => {
  // EXP-0020 is pending and under the limit in the sample ledger.
  const row = (await hostCalls()).find((c) => c.name === "expense_detail").result.structuredContent.expense;
  assert.equal(row.status, "pending");
  const before = (await hostCalls()).length;
  await view.click("#approve");
  await view.click("#confirm-approve");
  await view.waitForFunction(() => /Approved EXP-0020/.test(document.getElementById("status-line").textContent));
  await view.click("#confirm-approve"); // the same confirmation: the same key
  await page.waitForFunction((n) => window.host.calls.slice(n).filter((c) => c.name === "approve_expense" && c.result).length === 2, before);

  const approvals = (await hostCalls()).slice(before).filter((c) => c.name === "approve_expense");
  assert.equal(approvals.length, 2);
  assert.equal(approvals[0].arguments.idempotency_key, approvals[1].arguments.idempotency_key);
  // The second call got the first one's result: the approval ran once.
  assert.deepEqual(approvals[1].result.structuredContent, approvals[0].result.structuredContent);
  // The server's state moved once: version +1, ledger version +1.
  assert.equal(approvals[1].result.structuredContent.expense.version, row.version + 1);
  const snap = (await directCall("explore_expenses", { month: "2026-10" })).structuredContent;
  assert.equal(snap.provenance.data_version, 2, "one change to the ledger");
  assert.equal(snap.rows.find((r) => r.id === "EXP-0020").status, "approved");
  const ctx = await page.evaluate(() => window.host.modelContext);
  assert.match(ctx.content[0].text, /approved EXP-0020/, "the decision reached the model context once");
});

test("an approval from a stale view is refused by the server", { skip }, async () => {
  // The view shows EXP-0026 pending; someone else approves it meanwhile.
  await view.click('button[data-detail="EXP-0026"]');
  await view.waitForFunction(() => document.getElementById("detail-title").textContent.startsWith("EXP-0026"));
  await view.click("#approve");
  const other = await directCall("approve_expense", { expense_id: "EXP-0026", expected_version: 1, idempotency_key: "other-user-0026" });
  assert.equal(other.isError, undefined, JSON.stringify(other));
  await view.click("#confirm-approve");
  await view.waitForFunction(() => /^Not approved: /.test(document.getElementById("status-line").textContent));
  assert.match(await view.textContent("#status-line"), /changed since your snapshot/);
  await view.click("#close-detail");
});

test("after a refresh the view shows the server's state, not the browser's", { skip }, async () => {
  await openHost();
  const status = (id) => view.textContent(`#rows tr[data-id="${id}"] td:nth-child(7)`);
  assert.equal(await status("EXP-0020"), "approved");
  assert.equal(await status("EXP-0026"), "approved");
  assert.match(await view.textContent("#provenance"), /ledger version 3/, "two approvals since the first snapshot");
  assert.equal(await view.evaluate(() => document.getElementById("detail").hidden), true, "view state does not survive: it was the browser's");
});

test("a fetch to an origin not in connectDomains is blocked by CSP", { skip }, async () => {
  assert.match(await page.evaluate(() => window.host.csp), /connect-src 'none'/, "the example declares no connectDomains");
  const hitsBefore = probeHits.count;
  const outcome = await view.evaluate(async (url) => {
    const violation = new Promise((resolve) => document.addEventListener("securitypolicyviolation",
      (e) => resolve({ directive: e.effectiveDirective, blocked: e.blockedURI }), { once: true }));
    const fetched = fetch(url).then(() => "fetched", (e) => "failed: " + e.name);
    return { violation: await violation, fetched: await fetched };
  }, `http://localhost:${port}/csp-probe`);
  assert.equal(outcome.violation.directive, "connect-src");
  assert.match(outcome.violation.blocked, /csp-probe/);
  assert.match(outcome.fetched, /^failed/);
  assert.equal(probeHits.count, hitsBefore, "the request must not reach the network");
});

test("the view cannot call a tool the host did not give it", { skip }, async () => {
  const answer = await view.evaluate(() => new Promise((resolve) => {
    window.addEventListener("message", (e) => { if (e.data && e.data.id === "probe") resolve(e.data); });
    window.parent.postMessage({ jsonrpc: "2.0", id: "probe", method: "tools/call", params: { name: "drop_tables", arguments: {} } }, "*");
  }));
  assert.ok(answer.error, JSON.stringify(answer));
});

test("every control is reachable with the keyboard alone", { skip }, async () => {
  // Open a pending expense's approval so that every kind of control shows.
  await view.selectOption("#status", "pending");
  const first = (await rowIds())[0];
  await view.focus(`button[data-detail="${first}"]`);
  await page.keyboard.press("Enter");
  await view.waitForFunction((id) => document.getElementById("detail-title").textContent.startsWith(id), first);
  await view.focus("#approve");
  await page.keyboard.press("Enter");
  await view.waitForSelector("#confirm:not([hidden])");

  const controls = await view.$$eval("button, input, select, [tabindex]:not([tabindex='-1'])", (els) => els
    .filter((el) => !el.disabled && el.offsetParent !== null)
    .map((el) => el.id || el.dataset.detail));
  await view.focus("#search");
  const reached = new Set();
  for (let i = 0; i < controls.length + 5; i++) {
    reached.add(await view.evaluate(() => document.activeElement.id || document.activeElement.dataset.detail));
    await page.keyboard.press("Tab");
  }
  const missed = controls.filter((c) => !reached.has(c));
  assert.deepEqual(missed, [], "controls Tab never reached");
  // Escape closes the detail and puts focus back in the table.
  await page.keyboard.press("Escape");
  assert.ok(await view.evaluate(() => document.getElementById("detail").hidden));
  await view.selectOption("#status", "");

  mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: path.join(artifacts, "expenses-explorer.png"), fullPage: true });
});
