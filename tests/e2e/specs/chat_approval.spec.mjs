// The scenario: enter a key in settings (it lands in the keychain, not on disk), send a
// message and watch the answer stream, see a file_read complete, reject a file_write (nothing
// written), then approve it (file written) and see the diff.

import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";

const KEY = "sk-ant-e2e-" + Math.random().toString(36).slice(2, 12);
const WRITE_PATH = "notes/hello.txt";
const ANSWER_START = "Hello! I am Warden's test model.";
const SERVICE = "dev.warden.app";
const REJECT_REASON = "not now, the notes folder is for humans";

async function filesUnder(dir) {
  const out = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await filesUnder(p)));
    else out.push(p);
  }
  return out;
}

const exists = (p) => stat(p).then(() => true, () => false);

export default async function (t) {
  const { s } = t;
  const project = t.env("E2E_PROJECT");
  const home = t.env("WARDEN_HOME");
  const target = path.join(project, WRITE_PATH);

  t.step("open settings (first run shows the setup screen)");
  await s.waitForTestId("app-root", { timeoutMs: 20_000 });
  await s.waitFor("setup screen or settings button", async () =>
    (await s.count('[data-testid="setup-screen"], [data-testid="settings-open"]')) > 0,
  );
  if ((await s.count('[data-testid="setup-open-settings"]')) > 0) await (await s.byTestId("setup-open-settings")).click();
  else await (await s.byTestId("settings-open")).click();
  await s.waitForTestId("settings-panel");

  t.step("the hand-written settings file is flagged, and accepting it applies it");
  // session.sh wrote settings.json itself, as a person editing it would: Warden did not seal it,
  // so the window says so and uses safe defaults until the user accepts the file.
  await s.waitForTestId("settings-integrity-notice", { timeoutMs: 10_000 });
  await t.shot("settings-not-sealed");
  await (await s.byTestId("settings-accept-file")).click();
  await s.waitFor("the notice goes once accepted", async () => (await s.count('[data-testid="settings-integrity-notice"]')) === 0);

  t.step("enter the Anthropic key");
  await (await s.waitForTestId("key-input-anthropic")).type(KEY);
  await (await s.byTestId("key-save-anthropic")).click();
  await s.waitFor("key status: set", async () => (await (await s.byTestId("key-status-anthropic")).attr("data-set")) === "true");
  const keyField = await s.byTestId("key-input-anthropic");
  t.assert(!(await keyField.property("value"))?.includes(KEY), "the key field does not keep the key");
  await t.shot("key-saved");

  t.step("the key is in the keychain and nowhere under WARDEN_HOME");
  const { stdout } = await t.run("secret-tool", ["lookup", "service", SERVICE, "username", "anthropic"]);
  t.assert(stdout.trim() === KEY, `secret-tool finds the key under ${SERVICE}/anthropic`);
  for (const f of await filesUnder(home)) {
    t.assert(!(await readFile(f, "utf8")).includes(KEY), `the key must not be on disk: found in ${f}`);
  }
  t.assert(!(await s.execute("return document.documentElement.outerHTML")).includes(KEY), "the key is not in the DOM");

  t.step("back to the conversation");
  if ((await s.count('[data-testid="settings-close"]')) > 0) await (await s.byTestId("settings-close")).click();
  if ((await s.count('[data-testid="setup-skip"]')) > 0) await (await s.byTestId("setup-skip")).click();
  const input = await s.waitForTestId("composer-input");

  t.step("send a message and watch the answer stream in");
  // Every change the window makes to the answer is recorded as it happens (a DOM observer, not a
  // poll), so "streamed" means the answer was drawn in several steps, whatever the machine's speed.
  await s.execute(`
    const view = document.querySelector('[data-testid="conversation-view"]');
    window.__answerLengths = [];
    new MutationObserver(() => {
      const m = [...document.querySelectorAll('[data-testid="message"][data-role="assistant"]')].pop();
      const n = m ? m.textContent.length : 0;
      if (n && window.__answerLengths[window.__answerLengths.length - 1] !== n) window.__answerLengths.push(n);
    }).observe(view, { subtree: true, childList: true, characterData: true });
    return true;`);
  await input.type("Hi there");
  await (await s.byTestId("composer-send")).click();
  const lastAssistantText = () =>
    s.execute(`const m = [...document.querySelectorAll('[data-testid="message"][data-role="assistant"]')].pop();
               return m ? m.textContent : "";`);
  await s.waitFor("the full answer", async () => (await lastAssistantText()).includes("with your approval, change them."), {
    timeoutMs: 20_000,
  });
  const lengths = await s.execute("return window.__answerLengths");
  t.assert(lengths.length >= 3, `the answer was drawn in steps (lengths seen: ${lengths.join(", ")})`);
  t.assert(
    lengths.every((n, i) => i === 0 || n > lengths[i - 1]),
    `each step only added text (lengths: ${lengths.join(", ")})`,
  );
  t.assert((await lastAssistantText()).includes(ANSWER_START), "the answer starts as streamed");
  await t.shot("answer");

  t.step("a file_read tool block completes");
  await (await s.byTestId("composer-input")).type("Could you please read the README?");
  await (await s.byTestId("composer-send")).click();
  await s.waitFor("file_read success", async () => (await s.count('[data-testid="tool-block"][data-tool-name="file_read"][data-status="success"]')) === 1, { timeoutMs: 20_000 });
  await s.waitFor("turn over", async () => (await s.count('[data-testid="composer-stop"]')) === 0);
  await t.shot("file-read");

  t.step("a file_write asks for approval; reject it");
  await (await s.byTestId("composer-input")).type("Now please write a note.");
  await (await s.byTestId("composer-send")).click();
  await s.waitForTestId("approval-dialog", { timeoutMs: 20_000 });
  await t.shot("approval");
  await (await s.waitForTestId("approval-reject-reason")).type(REJECT_REASON);
  await (await s.byTestId("approval-reject")).click();
  await s.waitFor("the write is denied", async () =>
    (await s.count('[data-testid="tool-block"][data-tool-name="file_write"][data-status="denied"]')) === 1,
  );
  await s.waitFor("turn over", async () => (await s.count('[data-testid="composer-stop"]')) === 0);
  t.assert(!(await exists(target)), "a rejected write creates no file");

  t.step("ask again and approve: the file is written and the diff shows");
  await (await s.byTestId("composer-input")).type("Please write the note again.");
  await (await s.byTestId("composer-send")).click();
  await s.waitForTestId("approval-dialog", { timeoutMs: 20_000 });
  await (await s.byTestId("approval-approve")).click();
  await s.waitFor("the write succeeds", async () => (await s.count('[data-testid="tool-block"][data-tool-name="file_write"][data-status="success"]')) === 1, { timeoutMs: 20_000 });
  t.assert((await readFile(target, "utf8")).startsWith("Hello from Warden."), "the approved write created the file");
  // The block is opened once the turn is over: a click while the answer still streams in can land
  // on a header the growing transcript has just moved.
  await s.waitFor("turn over", async () => (await s.count('[data-testid="composer-stop"]')) === 0);
  if ((await s.count('[data-testid="tool-block"][data-status="success"][data-tool-name="file_write"] [data-testid="diff-view"]')) === 0) {
    await (await s.find('[data-testid="tool-block"][data-status="success"][data-tool-name="file_write"] [data-testid="tool-toggle"]')).click();
  }
  await s.waitFor("the diff", async () => (await s.count('[data-testid="diff-view"]')) > 0);
  const diff = await s.execute(`return document.querySelector('[data-testid="diff-view"]').textContent`);
  t.assert(diff.includes("Hello from Warden.") && diff.includes("A second line."), `the diff shows the written lines: ${diff}`);
  await t.shot("diff");

  t.step("the provider saw the rejection and the result");
  const reqs = await (await fetch(`${t.env("E2E_PROVIDER_URL")}/__requests`)).json();
  const results = reqs.flatMap((r) => r.body.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : []))).filter((b) => b.type === "tool_result");
  // Every later request repeats the history, so one call's result appears once per request after it.
  const rejected = [...new Map(results.filter((b) => b.is_error).map((b) => [b.tool_use_id, b])).values()];
  t.assert(rejected.length === 1, `exactly the rejected call went back as an error (${rejected.length})`);
  const said = JSON.stringify(rejected[0]?.content ?? "");
  t.assert(said.includes(REJECT_REASON), `the model was told the user's reason: ${said}`);
  t.assert(!JSON.stringify(reqs).includes(KEY), "the recorded requests never carry the key in a body");
}
