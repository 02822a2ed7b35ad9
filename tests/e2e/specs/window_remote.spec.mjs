// A project on another machine, in the real window (docs/REMOTE.md). The other machine is this one
// as another user (`warden-remote`, lib/remote_side.sh) behind a real sshd on loopback; the app
// reaches it through its WARDEN_SSH_COMMAND (run.sh), as a user's own ssh configuration would.
// "Open a remote project…" takes `warden-test:/home/warden-remote/…`. ssh does not know the host's
// key yet: the window shows ssh's question with the key's fingerprint, and ssh writes the key to
// known_hosts only after Accept. The top bar then names the project and the box there. The project's
// own hooks are offered over its conversation, read there; once approved here, the next message
// runs them there, as the remote user. A message asks the model to run `id -u > who.txt` (and to
// write to the npm cache) with bash: the approval card shows, nothing runs before the click, and
// after Approve the file is there, written by the remote user's uid. The turn's diff is read there, and "restore the project to before this
// message" asks what it would do there, then removes the file there. An MCP server of the settings
// (the real server-everything) runs there, as the remote user, and Settings → MCP servers says
// where it stands there; a form it asks for is shown here and the name typed reaches it there; it
// is removed at the end, for the specs after this one. A second message
// is rewound (dropped there; the model there no longer sees it) and the conversation compacted
// there (the divider shows). The conversation is renamed from the list (named there) and found by
// the list's search there; Settings → Sandbox shows the box there and clears the project's cache
// layer there. The project opened again starts a new conversation there, and the first is listed
// among those saved there, by the name it was given.

import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { centre } from "../lib/centre.mjs";
import { answered, ask, openedBlock, send, turnOver } from "../lib/chat.mjs";
import { readyToChat } from "../lib/ready.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const SIDE = path.join(here, "..", "lib", "remote_side.sh");
const MCP_SERVER = path.resolve(here, "../../mcp/node_modules/.bin/mcp-server-everything");

/** The name the first remote conversation is given from the list. */
const TITLE = "Checked on the other machine";

const saved = (s) =>
  s.waitFor("saved", async () => (await s.execute(`return document.querySelector('[data-testid="settings-saved"]')?.textContent ?? ""`)).includes("Saved"));

/** Settings → MCP servers: `everything` added (before the remote session opens: its settings are sent then) or removed. */
async function everything(s, add) {
  await (await s.waitForTestId("settings-open")).click();
  await s.waitForTestId("mcp-section");
  if (add) {
    await centre(s, '[data-testid="mcp-add-name"]');
    await (await s.byTestId("mcp-add-name")).type("everything");
    await (await s.byTestId("mcp-add-target")).type(`${MCP_SERVER} stdio`);
    await centre(s, '[data-testid="mcp-add"]');
    await (await s.byTestId("mcp-add")).click();
  } else {
    await centre(s, '[data-server="everything"] [data-testid="mcp-remove"]');
    await (await s.find('[data-server="everything"] [data-testid="mcp-remove"]')).click();
    await s.waitForTestId("mcp-empty");
  }
  await saved(s);
  await (await s.byTestId("settings-close")).click();
  await s.waitForTestId("composer-input");
}

export default async function (t) {
  const { s } = t;
  await readyToChat(t, "sk-ant-e2e-" + Math.random().toString(36).slice(2, 12));

  t.step("the other machine: a user of its own, this engine copied there, a real sshd");
  const bin = path.dirname(t.env("APP"));
  const project = (await t.run("bash", [SIDE, "start", bin])).stdout.trim().split("\n").pop();
  const uid = (await t.run("id", ["-u", "warden-remote"])).stdout.trim();
  try {
    t.step("an MCP server in the settings, to run where the project is");
    await everything(s, true);

    t.step("Open a remote project…: the target typed, Connect");
    await (await s.waitForTestId("remote-open")).click();
    await (await s.waitForTestId("remote-target")).type(`warden-test:${project}`);
    await (await s.byTestId("remote-connect")).click();

    t.step("ssh asks about the host key it does not know, in the window, with its fingerprint");
    const known = path.join(process.env.RUN_DIR, "remote", "known_hosts");
    const fingerprint = readFileSync(path.join(process.env.RUN_DIR, "remote", "fingerprint"), "utf8").trim();
    const question = await s.waitForTestId("ssh-question-prompt", { timeoutMs: 60_000 });
    t.assert((await question.text()).includes(fingerprint), `the question shows ${fingerprint}: ${await question.text()}`);
    t.assert(readFileSync(known, "utf8") === "", "nothing is written to known_hosts before the answer");
    await t.shot("host-key");
    await (await s.byTestId("ssh-question-accept")).click();
    const shown = await s.waitForTestId("remote-project", { timeoutMs: 60_000 });
    t.assert((await shown.text()).includes(project), `the top bar names the remote project: ${await shown.text()}`);
    const remembered = readFileSync(known, "utf8");
    t.assert(/^\[127\.0\.0\.1\]:\d+ ssh-ed25519 /.test(remembered), `ssh wrote the accepted key to known_hosts: ${remembered}`);
    await t.shot("remote-project");

    t.step("the top bar names the remote project's own instructions, read there");
    await s.waitFor("the remote AGENTS.md named", async () => (await (await s.waitForTestId("instructions-indicator")).text()).includes("AGENTS.md"), {
      timeoutMs: 15_000,
    });
    await (await s.byTestId("instructions-indicator")).click();
    const readThere = await s.execute(`return [...document.querySelectorAll('[data-testid="instruction-file-there"]')].map((f) => f.getAttribute("data-path"))`);
    t.assert(readThere.length === 1 && readThere[0] === path.join(project, "AGENTS.md"), `the file there: ${JSON.stringify(readThere)}`);
    await (await s.byTestId("instructions-indicator")).click();

    t.step("the remote project's own hooks: offered over its conversation, read there, approved here");
    const hooksOffer = await s.waitForTestId("hooks-offer", { timeoutMs: 30_000 });
    const offered = await hooksOffer.text();
    t.assert(offered.includes(`${project}/.claude/settings.json`) && offered.includes("id -u"), `the file there and its command: ${offered}`);
    const machine = await (await s.byTestId("hooks-offer-there")).text();
    t.assert(machine === os.hostname(), `says which machine (the name it gives itself): ${machine}`);
    await t.shot("remote-hooks-offer");
    await (await s.byTestId("hooks-offer-run")).click();
    await s.waitFor("the offer gone once approved", async () => (await s.count('[data-testid="hooks-offer"]')) === 0, { timeoutMs: 15_000 });
    t.assert(!existsSync(path.join(project, "hooked")), "nothing ran before a message");

    t.step("a command asks there; nothing runs before the answer");
    const command = JSON.stringify({ command: "id -u > who.txt && echo cached > ~/.npm/e2e-from-the-box" });
    await (await s.waitForTestId("composer-input")).type(`please call bash ${command}`);
    await (await s.byTestId("composer-send")).click();
    await s.waitForTestId("approval-approve", { timeoutMs: 60_000 });
    t.assert(!existsSync(path.join(project, "who.txt")), "nothing ran before the answer");
    await t.shot("approval");

    t.step("approved from the window: it ran there, as the remote user");
    await (await s.byTestId("approval-approve")).click();
    await s.waitFor("who.txt written there", async () => existsSync(path.join(project, "who.txt")), { timeoutMs: 60_000 });
    await turnOver(s);
    const hooked = path.join(project, "hooked");
    t.assert(existsSync(hooked) && readFileSync(hooked, "utf8").trim() === uid, "the approved hook ran there, as the remote user, at the message");
    const who = readFileSync(path.join(project, "who.txt"), "utf8").trim();
    t.assert(who === uid, `the command ran as the remote user (${uid}): ${who}`);
    t.assert(String(statSync(path.join(project, "who.txt")).uid) === uid, "the file belongs to the remote user");
    await t.shot("done");

    t.step("the turn's diff and a restore of the remote project, done there");
    await (await s.byTestId("turn-diff-open")).click();
    await s.waitFor("the diff of who.txt, read there", async () => (await s.count('[data-testid="turn-diff-file"][data-path="who.txt"]')) === 1, {
      timeoutMs: 30_000,
    });
    const diff = await s.execute(`return document.querySelector('[data-testid="turn-diff"]').textContent`);
    t.assert(diff.includes(uid), `the diff shows what the remote command wrote: ${diff}`);
    await (await s.find('[data-testid="message"][data-role="user"] [data-testid="restore-project"]')).click();
    const asked = '[data-testid="message"][data-role="user"] [data-testid="restore-confirm"]';
    await s.waitFor("what the restore would do there is shown", async () => (await s.count(asked)) === 1, { timeoutMs: 30_000 });
    const planned = () => s.execute(`return document.querySelector('${asked}').textContent`);
    await s.waitFor("the restore names the remote file it deletes", async () => (await planned()).includes("who.txt"), { timeoutMs: 15_000 });
    await (await s.find(`${asked} [data-testid="restore-confirm-yes"]`)).click();
    const note = '[data-testid="message"][data-role="user"] [data-testid="restore-note"][data-phase="restored"]';
    await s.waitFor("the restore is done", async () => (await s.count(note)) === 1, { timeoutMs: 30_000 });
    t.assert(!existsSync(path.join(project, "who.txt")), "the restore removed who.txt on the remote machine");
    await t.shot("restored-there");

    t.step("rewound there: the last message dropped from the conversation saved there, and the session goes on without it");
    await ask(s, "A second question there");
    await s.execute(`[...document.querySelectorAll('[data-testid="rewind-conversation"]')].pop().click(); return true;`);
    await (await s.waitForTestId("rewind-confirm")).click();
    await s.waitFor("the message is back in the field", async () =>
      (await s.execute(`return document.querySelector('[data-testid="composer-input"]').value`)) === "A second question there",
    );
    const userTexts = await s.execute(`return [...document.querySelectorAll('[data-testid="message"][data-role="user"] [data-testid="message-text"]')].map((m) => m.textContent)`);
    t.assert(userTexts.length === 1 && userTexts[0].includes("please call bash"), `the history read there ends before it: ${JSON.stringify(userTexts)}`);
    const input = await s.byTestId("composer-input");
    await input.clear();
    await input.type("A fixed question there");
    await (await s.byTestId("composer-send")).click();
    await answered(s);
    const sent = async () => (await (await fetch(`${t.env("E2E_PROVIDER_URL")}/__requests`)).json()).map((r) => JSON.stringify(r.body.messages));
    const fixed = (await sent()).pop();
    t.assert(fixed.includes("A fixed question there") && !fixed.includes("A second question there"), `the model there sees what is left: ${fixed}`);

    t.step("Compact now, done there: the divider shows where the summary begins");
    await centre(s, '[data-testid="compact-now"]');
    await (await s.byTestId("compact-now")).click();
    const divider = await s.waitForTestId("compaction-divider", { timeoutMs: 30_000 });
    t.assert(Number(await divider.attr("data-summarized")) > 0, `the divider says how much was summarized: ${await divider.attr("data-summarized")}`);
    await t.shot("compacted-there");

    t.step("renamed from the list: named there, its host beside the new title");
    const renamedId = await s.execute(`return document.querySelector('[data-testid="conversation-item"][aria-current="page"]').getAttribute("data-conversation-id")`);
    const activeItem = () => s.execute(`return document.querySelector('[data-testid="conversation-item"][aria-current="page"]').textContent`);
    await (await s.byTestId("conversation-rename")).click();
    // End, the old title erased (no Ctrl+A: a held Ctrl would turn the title's letters into shortcuts), the new one, Enter.
    await (await s.waitForTestId("conversation-rename-input")).type(`\uE010${"\uE003".repeat(120)}${TITLE}\uE007`);
    await s.waitFor("the new title in the list", async () => (await activeItem()).includes(TITLE), { timeoutMs: 30_000 });
    t.assert((await activeItem()).includes(`warden-test:${project}`), `the host stays beside it: ${await activeItem()}`);

    t.step("the list's search finds it there, by a word of its messages, with its host");
    const search = await s.byTestId("conversation-search");
    await search.type("fixed");
    const hit = `[data-testid="conversation-hit"][data-conversation-id="${renamedId}"]`;
    await s.waitFor("found there", async () => (await s.count(hit)) === 1, { timeoutMs: 30_000 });
    const found = await s.execute(`return document.querySelector('${hit}').textContent`);
    t.assert(found.includes(TITLE) && found.includes(`warden-test:${project}`), `the hit names it and its host: ${found}`);
    await t.shot("found-there");
    await search.type("\uE00C");

    t.step("Settings → Sandbox shows the box of the linked remote project, asked there");
    await (await s.byTestId("settings-open")).click();
    const remoteBox = await s.waitForTestId("remote-sandbox", { timeoutMs: 15_000 });
    await s.execute(`document.querySelector('[data-testid="remote-sandbox"] summary').click()`);
    const boxText = () => s.execute(`return document.querySelector('[data-testid="remote-sandbox"]').textContent`);
    await s.waitFor("the remote box, asked there", async () => (await boxText()).includes("bubblewrap"), { timeoutMs: 30_000 });
    const shownBox = await boxText();
    t.assert(shownBox.includes("warden-remote"), `the box is the remote user's: ${shownBox}`);
    t.assert((await remoteBox.attr("data-target")).includes(project), "for the remote project");
    await t.shot("remote-sandbox");

    t.step("its cache layer, cleared there: what the command wrote to ~/.npm is gone from the project's layer");
    const layerText = () => s.execute(`return document.querySelector('[data-testid="remote-sandbox"] [data-testid="sandbox-cache-layer"]')?.textContent ?? ""`);
    await s.waitFor("the layer holds the command's write", async () => /\d/.test(await layerText()) && !/: 0 B/.test(await layerText()), { timeoutMs: 15_000 });
    // This project's storage there (an earlier run's project has a layer of its own).
    const layerOf = `/home/warden-remote/.local/share/warden/projects/${path.basename(project)}-*/cache-layer/npm/upper/e2e-from-the-box`;
    const planted = () => t.run("bash", ["-c", `ls -d ${layerOf} 2>/dev/null || true`]);
    t.assert((await planted()).stdout.trim() !== "", "the command's write is in the project's layer there");
    t.assert(!existsSync("/home/warden-remote/.npm/e2e-from-the-box"), "never in the remote user's own cache");
    await s.execute(`document.querySelector('[data-testid="remote-sandbox"] [data-testid="sandbox-cache-layer-clear"]').click(); return true;`);
    await s.waitFor("the layer is empty", async () => /: 0 B/.test(await layerText()), { timeoutMs: 30_000 });
    t.assert((await planted()).stdout.trim() === "", "the layer there is cleared");

    t.step("Settings → MCP servers: the server runs there, as the remote user, and says so");
    await centre(s, '[data-testid="remote-mcp"] summary');
    await s.execute(`document.querySelector('[data-testid="remote-mcp"] summary').click()`);
    const there = '[data-testid="remote-mcp-server"][data-name="everything"]';
    await s.waitFor("the server connected there", async () => (await s.execute(`return document.querySelector('${there}')?.getAttribute("data-state")`)) === "connected", {
      timeoutMs: 60_000,
    });
    const said = await s.execute(`return document.querySelector('${there}').textContent`);
    t.assert(/Connected · \d+ tools/.test(said), `says where it stands there: ${said}`);
    const running = (await t.run("ps", ["-u", "warden-remote", "-o", "args="])).stdout;
    t.assert(running.includes("mcp-server-everything"), `the server runs as the remote user: ${running}`);
    await t.shot("remote-mcp");
    await (await s.byTestId("settings-close")).click();

    t.step("the server there asks for a form: shown here, and what the user typed reaches it there");
    await send(s, "please call mcp__everything__trigger-elicitation-request {}");
    await (await s.waitForTestId("approval-approve", { timeoutMs: 60_000 })).click();
    const form = await s.waitForTestId("mcp-form", { timeoutMs: 60_000 });
    t.assert((await form.text()).includes("The MCP server everything asks"), "the form names the server");
    await (await s.find('[data-testid="mcp-form-field"][data-field="name"]')).type("Ada Lovelace");
    await t.shot("remote-form");
    await (await s.byTestId("mcp-form-submit")).click();
    const formCall = '[data-testid="tool-block"][data-tool-name="mcp__everything__trigger-elicitation-request"]';
    await s.waitFor("the call there succeeded", async () =>
      (await s.execute(`return document.querySelector('${formCall}')?.getAttribute("data-status")`)) === "success",
    { timeoutMs: 60_000 });
    const formResult = await openedBlock(s, formCall);
    t.assert(formResult.includes("Name: Ada Lovelace"), `the server there got the name: ${formResult.slice(0, 300)}`);
    await turnOver(s);

    t.step("the project opened again: a new conversation there, and the first one listed among those saved there");
    const first = await s.execute(`return document.querySelector('[data-testid="conversation-item"][aria-current="page"]').getAttribute("data-conversation-id")`);
    // For window_remote_restart, the spec after this one: the conversation to take up after a restart.
    writeFileSync(path.join(process.env.RUN_DIR, "remote", "first_conversation"), `${first}\n${project}\n`);
    await (await s.waitForTestId("remote-open")).click();
    await (await s.waitForTestId("remote-target")).type(`warden-test:${project}`);
    await (await s.byTestId("remote-connect")).click();
    const current = () => s.execute(`return document.querySelector('[data-testid="conversation-item"][aria-current="page"]')?.getAttribute("data-conversation-id")`);
    await s.waitFor("a new conversation there is shown", async () => ![first, null, undefined].includes(await current()), { timeoutMs: 60_000 });
    await (await s.waitForTestId("remote-saved-open")).click();
    const firstThere = `[data-testid="remote-saved-item"][data-id="${first}"]`;
    await s.waitFor("the first conversation, listed there", async () => (await s.count(firstThere)) === 1, { timeoutMs: 30_000 });
    const listed = await s.execute(`return document.querySelector('${firstThere}').textContent`);
    t.assert(listed.includes(TITLE), `listed there by the name given in the window: ${listed}`);
    await t.shot("saved-there");
    await (await s.find(firstThere)).click();
    await s.waitFor("the first conversation shown again", async () => (await current()) === first, { timeoutMs: 30_000 });
    t.assert((await s.count('[data-testid="remote-saved"]')) === 0, "the list closed");

    t.step("a machine without Warden: the window offers to copy this one, says what it does, copies, connects");
    const fresh = readFileSync(path.join(process.env.RUN_DIR, "remote", "fresh_project"), "utf8").trim();
    await (await s.waitForTestId("remote-open")).click();
    await (await s.waitForTestId("remote-target")).type(`warden-fresh:${fresh}`);
    await (await s.byTestId("remote-connect")).click();
    const offer = await s.waitForTestId("remote-copy-plan", { timeoutMs: 60_000 });
    const failed = await (await s.byTestId("remote-error")).text();
    t.assert(failed.includes("Is Warden installed there?"), `says why it could not link: ${failed}`);
    await offer.click();
    await s.waitForTestId("remote-copy-confirm", { timeoutMs: 60_000 });
    const plan = await (await s.byTestId("remote-copy-plan")).text();
    t.assert(plan.includes("glibc") && plan.includes(".local/share/warden/bin"), `says what the copy does: ${plan}`);
    t.assert(!existsSync(`/home/warden-fresh/.local/share/warden/bin/warden`), "nothing copied before the confirmation");
    await t.shot("copy-offer");
    await (await s.byTestId("remote-copy-confirm")).click();
    const named = async () => (await s.count('[data-testid="remote-project"]')) > 0 && (await (await s.byTestId("remote-project")).text()).includes(fresh);
    await s.waitFor("the fresh project shown", named, { timeoutMs: 120_000 });
    t.assert(existsSync(`/home/warden-fresh/.local/share/warden/bin/warden`), "the engine was copied there");
    await t.shot("copied");
  } finally {
    await t.run("bash", [SIDE, "stop"]);
  }
  t.step("the MCP server removed again");
  await everything(s, false);
}
