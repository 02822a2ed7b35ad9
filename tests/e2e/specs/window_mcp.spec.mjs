// An MCP server in the real window: added in Settings → MCP servers (the real server-everything
// from npm), seen connected with its tools, one tool allowed; then a model's turn calls a tool the
// approval dialog asks about (naming the server) and the allowed one runs without asking; the tool
// blocks say which server; one of its resources attached to a message reaches the model with it; a
// form the server asks for, and a request for the user's model (sampling) once the user lets it
// ask, each shown over the window. The server is removed at the end, for the
// specs after this one.

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { openedBlock, send, turnOver } from "../lib/chat.mjs";
import { readyToChat } from "../lib/ready.mjs";
import { centre } from "../lib/centre.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const SERVER = path.resolve(here, "../../mcp/node_modules/.bin/mcp-server-everything");
// The TypeScript SDK's example server with OAuth on: 401 until signed in; its sign-in approves at once.
const OAUTH_SERVER = path.resolve(here, "../../mcp/node_modules/@modelcontextprotocol/sdk/dist/esm/examples/server/simpleStreamableHttp.js");

const freePort = () =>
  new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

const text = (s, selector) => s.execute(`return document.querySelector(${JSON.stringify(selector)})?.textContent ?? ""`);

async function openSettings(s) {
  await (await s.waitForTestId("settings-open")).click();
  await s.waitForTestId("mcp-section");
}

async function closeSettings(s) {
  await (await s.byTestId("settings-close")).click();
  await s.waitForTestId("composer-input");
}

export default async function (t) {
  const { s } = t;
  await readyToChat(t, "sk-ant-e2e-" + Math.random().toString(36).slice(2, 12));

  t.step("add server-everything in Settings → MCP servers");
  await openSettings(s);
  await centre(s, '[data-testid="mcp-add-name"]');
  await (await s.byTestId("mcp-add-name")).type("everything");
  await (await s.byTestId("mcp-add-target")).type(`${SERVER} stdio`);
  await centre(s, '[data-testid="mcp-add"]');
  await (await s.byTestId("mcp-add")).click();
  const status = '[data-server="everything"] [data-testid="mcp-status"]';
  await s.waitFor("the server connected", async () => /^Connected · \d+ tools$/.test(await text(s, status)), { timeoutMs: 40_000 });
  t.step(`it says: ${await text(s, status)}`);

  t.step("allow get-sum (runs without asking)");
  await s.execute(`
    const row = document.querySelector('[data-server="everything"]');
    row.querySelector('details:last-of-type').open = true;
    const select = row.querySelector('[data-testid="mcp-tool-choice"][data-tool="get-sum"]');
    select.scrollIntoView({ block: "center" });
    const set = Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, "value").set;
    set.call(select, "allow");
    select.dispatchEvent(new Event("change", { bubbles: true }));
    return true;`);
  await s.waitFor("saved", async () => (await text(s, '[data-testid="settings-saved"]')).includes("Saved"));
  await t.shot("settings");
  await closeSettings(s);

  t.step("a dangerous MCP tool asks, naming its server");
  await send(s, 'please call mcp__everything__echo {"message":"from the window"}');
  const dialog = await s.waitForTestId("approval-dialog", { timeoutMs: 30_000 });
  const asked = await dialog.text();
  t.assert(asked.includes("echo") && asked.includes("from the MCP server everything"), `the dialog names the server: ${asked}`);
  await t.shot("asks");
  await (await s.byTestId("approval-approve")).click();
  const block = '[data-testid="tool-block"][data-tool-name="mcp__everything__echo"]';
  await s.waitFor("the call succeeded", async () =>
    (await s.execute(`return document.querySelector('${block}')?.getAttribute("data-status")`)) === "success",
  );
  t.assert((await text(s, `${block} [data-testid="tool-server"]`)) === "everything", "the block names the server");
  await turnOver(s);

  t.step("the allowed tool runs without asking");
  await send(s, 'please call mcp__everything__get-sum {"a":2,"b":3}');
  const sum = '[data-testid="tool-block"][data-tool-name="mcp__everything__get-sum"]';
  await s.waitFor("get-sum ran", async () =>
    (await s.execute(`return document.querySelector('${sum}')?.getAttribute("data-status")`)) === "success",
  );
  t.assert((await s.count('[data-testid="approval-dialog"]')) === 0, "no approval was asked");
  await turnOver(s);
  await t.shot("ran");

  t.step("an image an MCP tool returns shows under its block as the result comes, not after a restart");
  await send(s, "please call mcp__everything__get-tiny-image {}");
  await s.waitForTestId("approval-dialog", { timeoutMs: 30_000 });
  await (await s.byTestId("approval-approve")).click();
  const tiny = '[data-testid="tool-block"][data-tool-name="mcp__everything__get-tiny-image"]';
  await s.waitFor("the image under the block", async () =>
    s.execute(
      `const img = document.querySelector('${tiny} [data-testid="tool-images"] img');
       return !!img && img.complete && img.naturalWidth > 0 && img.getAttribute("src").startsWith("data:image/png;base64,");`,
    ),
  { timeoutMs: 30_000 });
  await turnOver(s);
  await t.shot("image-live");

  t.step("a resource of the server attached to a message: its text goes to the model with it");
  await (await s.byTestId("composer-resource-attach")).click();
  const item = await s.waitForTestId("composer-resource-item", { timeoutMs: 30_000 });
  const uri = await item.attr("data-uri");
  await item.click();
  await s.waitFor("the resource attached", async () => (await s.count('[data-testid="composer-resource"]')) === 1, { timeoutMs: 30_000 });
  await t.shot("resource-attached");
  const sentBefore = (await (await fetch(`${t.env("E2E_PROVIDER_URL")}/__requests`)).json()).length;
  await send(s, "what does the attached resource say?");
  await turnOver(s);
  const withResource = (await (await fetch(`${t.env("E2E_PROVIDER_URL")}/__requests`)).json())
    .slice(sentBefore)
    .map((r) => JSON.stringify(r.body.messages));
  t.assert(
    withResource.some((m) => m.includes("Attached from the MCP server “everything”: " + uri) && m.includes("what does the attached resource say?")),
    `the model got the resource with the message: ${withResource.join(" ").slice(0, 400)}`,
  );

  t.step("a server asks for a form: the window shows it, and what the user typed goes back");
  await send(s, 'please call mcp__everything__trigger-elicitation-request {}');
  await s.waitForTestId("approval-dialog", { timeoutMs: 30_000 });
  await (await s.byTestId("approval-approve")).click();
  const form = await s.waitForTestId("mcp-form", { timeoutMs: 30_000 });
  t.assert((await form.text()).includes("The MCP server everything asks"), "the form names the server");
  await (await s.find('[data-testid="mcp-form-field"][data-field="name"]')).type("Ada Lovelace");
  await t.shot("form");
  await (await s.byTestId("mcp-form-submit")).click();
  const formCall = '[data-testid="tool-block"][data-tool-name="mcp__everything__trigger-elicitation-request"]';
  await s.waitFor("the call succeeded", async () =>
    (await s.execute(`return document.querySelector('${formCall}')?.getAttribute("data-status")`)) === "success",
  );
  const result = await openedBlock(s, formCall);
  t.assert(result.includes("Name: Ada Lovelace"), `the server got the name: ${result.slice(0, 300)}`);
  await turnOver(s);

  t.step("a server the user lets sample: its request is shown in full, and only Allow sends it to the model");
  await openSettings(s);
  await centre(s, '[data-server="everything"] [data-testid="mcp-sampling"]');
  await (await s.find('[data-server="everything"] [data-testid="mcp-sampling"]')).click();
  await s.waitFor("saved", async () => (await text(s, '[data-testid="settings-saved"]')).includes("Saved"));
  // Started again with the capability offered, the server registers its sampling tool.
  await s.waitFor(
    "the sampling tool listed",
    async () => (await s.count('[data-server="everything"] [data-testid="mcp-tool-choice"][data-tool="trigger-sampling-request"]')) > 0,
    { timeoutMs: 40_000 },
  );
  await closeSettings(s);
  const before = (await (await fetch(`${t.env("E2E_PROVIDER_URL")}/__requests`)).json()).length;
  await send(s, 'please call mcp__everything__trigger-sampling-request {"prompt":"name a colour","maxTokens":50}');
  await s.waitForTestId("approval-dialog", { timeoutMs: 30_000 });
  await (await s.byTestId("approval-approve")).click();
  const request = await s.waitForTestId("mcp-form", { timeoutMs: 30_000 });
  const shown = await request.text();
  t.assert(shown.includes("asks to use your model") && shown.includes("name a colour"), `the request is shown: ${shown.slice(0, 300)}`);
  const early = (await (await fetch(`${t.env("E2E_PROVIDER_URL")}/__requests`)).json()).slice(before);
  t.assert(!early.some((r) => JSON.stringify(r.body.messages).includes("name a colour") && !JSON.stringify(r.body.messages).includes("please call")), "nothing reached the model before Allow");
  await t.shot("sampling-asks");
  await (await s.byTestId("mcp-form-submit")).click();
  const sampleCall = '[data-testid="tool-block"][data-tool-name="mcp__everything__trigger-sampling-request"]';
  await s.waitFor("the call succeeded", async () =>
    (await s.execute(`return document.querySelector('${sampleCall}')?.getAttribute("data-status")`)) === "success",
  );
  const sampled = await openedBlock(s, sampleCall);
  t.assert(sampled.includes("Warden's test model"), `the model's answer went back through the server: ${sampled.slice(0, 300)}`);
  await turnOver(s);
  const requests = (await (await fetch(`${t.env("E2E_PROVIDER_URL")}/__requests`)).json()).slice(before);
  const sampling = requests.filter((r) => JSON.stringify(r.body.messages).includes("name a colour") && !JSON.stringify(r.body.messages).includes("please call"));
  t.assert(sampling.length === 1, `one request for the server: ${sampling.length}`);
  t.assert(!(sampling[0].body.tools?.length > 0), "sent without tools");
  t.assert(sampling[0].body.max_tokens === 50, `the server's token limit: ${sampling[0].body.max_tokens}`);

  t.step("an HTTP server that needs a sign-in: Sign in, and it connects");
  const [port, authPort] = [await freePort(), await freePort()];
  const oauth = spawn("node", [OAUTH_SERVER, "--oauth"], {
    env: { ...process.env, MCP_PORT: String(port), MCP_AUTH_PORT: String(authPort) },
    stdio: "ignore",
  });
  try {
    await openSettings(s);
    await centre(s, '[data-testid="mcp-add-name"]');
    await (await s.byTestId("mcp-add-name")).type("secure");
    await (await s.byTestId("mcp-add-target")).type(`http://localhost:${port}/mcp`);
    await (await s.byTestId("mcp-add")).click();
    const secure = '[data-server="secure"] [data-testid="mcp-status"]';
    await s.waitFor("it asks for a sign-in", async () => (await text(s, secure)) === "Needs you to sign in", { timeoutMs: 30_000 });
    await t.shot("needs-sign-in");
    await centre(s, '[data-server="secure"] [data-testid="mcp-sign-in"]');
    await (await s.find('[data-server="secure"] [data-testid="mcp-sign-in"]')).click();
    await s.waitFor("signed in and connected", async () => /^Connected · \d+ tools$/.test(await text(s, secure)), { timeoutMs: 40_000 });
    await t.shot("signed-in");
    await centre(s, '[data-server="secure"] [data-testid="mcp-remove"]');
    await (await s.find('[data-server="secure"] [data-testid="mcp-remove"]')).click();
    await s.waitFor("saved", async () => (await text(s, '[data-testid="settings-saved"]')).includes("Saved"));
    await closeSettings(s);
  } finally {
    oauth.kill();
  }

  t.step("a local server's box wants a host no rule names: asked over the window in the server's name, before any call");
  const hits = [];
  const registry = createHttpServer((req, res) => {
    hits.push(req.url);
    res.end("ok");
  });
  await new Promise((resolve) => registry.listen(0, "127.0.0.1", resolve));
  const hostPort = `127.0.0.1:${registry.address().port}`;
  const folder = mkdtempSync("/tmp/warden-e2e-fetcher-");
  const launcher = path.join(folder, "fetch-then-serve.sh");
  // It fetches at its start, before it answers the handshake: no call of the model's is running.
  writeFileSync(launcher, `#!/bin/sh\ncurl -s -m 60 --noproxy '' http://${hostPort}/at-start >/dev/null\nexec ${SERVER} stdio\n`, { mode: 0o755 });
  try {
    await openSettings(s);
    await centre(s, '[data-testid="mcp-add-name"]');
    await (await s.byTestId("mcp-add-name")).type("fetcher");
    await (await s.byTestId("mcp-add-target")).type(launcher);
    await (await s.byTestId("mcp-add")).click();
    const question = await s.waitForTestId("mcp-host-question", { timeoutMs: 30_000 });
    const words = await question.text();
    t.assert(words.includes("fetcher") && words.includes(hostPort), `the question names the server and the host: ${words}`);
    t.assert(hits.length === 0, `nothing reached the host before the answer: ${hits}`);
    await t.shot("host-question");
    await (await s.byTestId("mcp-host-always")).click();
    const fetcher = '[data-server="fetcher"] [data-testid="mcp-status"]';
    await s.waitFor("the server connected", async () => /^Connected · \d+ tools$/.test(await text(s, fetcher)), { timeoutMs: 40_000 });
    t.assert(hits.join() === "/at-start", `the host was reached once, after Always: ${hits}`);
    // Removing the server saves Settings' copy, read before the rule was saved: the rule stays.
    await centre(s, '[data-server="fetcher"] [data-testid="mcp-remove"]');
    await (await s.find('[data-server="fetcher"] [data-testid="mcp-remove"]')).click();
    await s.waitFor("saved", async () => (await text(s, '[data-testid="settings-saved"]')).includes("Saved"));
    await closeSettings(s);
    await openSettings(s);
    await centre(s, '[data-testid="sandbox-hosts"]');
    const hosts = await s.execute(`return document.querySelector('[data-testid="sandbox-hosts"]')?.value ?? ""`);
    t.assert(hosts.split("\n").includes(hostPort), `"Always for this project" is the project's rule, kept through Settings' save: ${JSON.stringify(hosts)}`);
    await t.shot("host-rule");
    await closeSettings(s);
  } finally {
    registry.close();
    rmSync(folder, { recursive: true, force: true });
  }

  t.step("remove the server again");
  await openSettings(s);
  await centre(s, '[data-server="everything"] [data-testid="mcp-remove"]');
  await (await s.find('[data-server="everything"] [data-testid="mcp-remove"]')).click();
  await s.waitForTestId("mcp-empty");
  await s.waitFor("saved", async () => (await text(s, '[data-testid="settings-saved"]')).includes("Saved"));
  await closeSettings(s);
}
