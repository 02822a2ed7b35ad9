// Reversibility in the real window: the model writes a file, the user approves, the turn's
// Changes summary names it and its diff shows it (read from the real checkpoint store), "Restore
// project to before this message" removes it from disk, and "Undo restore" brings it back.

import { readFile, stat } from "node:fs/promises";
import path from "node:path";

import { readyToChat } from "../lib/ready.mjs";

const FILE = "checkpointed/demo.txt";
const CONTENT = "Hello from Warden.\nA second line.\n";
const exists = (p) => stat(p).then(() => true, () => false);

export default async function (t) {
  const { s } = t;
  const target = path.join(t.env("E2E_PROJECT"), FILE);
  t.assert(!(await exists(target)), `${FILE} does not exist before the spec`);

  t.step("a new conversation that can answer");
  await readyToChat(t, "sk-ant-e2e-" + Math.random().toString(36).slice(2, 12));

  t.step("the model writes a file and the user approves");
  await (await s.byTestId("composer-input")).type(`Please write the file ${FILE}`);
  await (await s.byTestId("composer-send")).click();
  await s.waitForTestId("approval-dialog", { timeoutMs: 20_000 });
  await (await s.byTestId("approval-approve")).click();
  const written = '[data-testid="tool-block"][data-tool-name="file_write"][data-status="success"]';
  await s.waitFor("the write succeeds", async () => (await s.count(written)) === 1, { timeoutMs: 20_000 });
  await s.waitFor("turn over", async () => (await s.count('[data-testid="composer-stop"]')) === 0, { timeoutMs: 20_000 });
  t.assert((await readFile(target, "utf8")) === CONTENT, "the approved write created the file");

  t.step("the call and the turn say what changed");
  const callChanges = await s.waitFor("the call's changes", async () =>
    s.execute(`return document.querySelector('${written} [data-testid="call-changes"]')?.textContent ?? ""`),
  );
  t.assert(callChanges.includes("Changed 1 file"), `the write's block names its change: ${callChanges}`);
  const summary = await s.waitForTestId("turn-changes");
  t.assert((await summary.attr("data-files")) === "1", "the turn changed one file");
  const summaryText = await s.execute(`return document.querySelector('[data-testid="turn-changes"]').textContent`);
  t.assert(summaryText.includes(FILE) && summaryText.includes("+2"), `the summary names the file and its lines: ${summaryText}`);

  t.step("the turn's diff, from the real checkpoint store");
  await (await s.byTestId("turn-diff-open")).click();
  await s.waitFor("the diff of the file", async () => (await s.count(`[data-testid="turn-diff-file"][data-path="${FILE}"]`)) === 1, {
    timeoutMs: 15_000,
  });
  const diff = await s.execute(`return document.querySelector('[data-testid="turn-diff"]').textContent`);
  t.assert(diff.includes("Hello from Warden.") && diff.includes("A second line."), `the diff shows the written lines: ${diff}`);
  await t.shot("changes");

  t.step("restore the project to before the message: it says which file it will delete, then the file is gone");
  const restore = await s.find('[data-testid="message"][data-role="user"] [data-testid="restore-project"]');
  await restore.click();
  const shown = '[data-testid="message"][data-role="user"] [data-testid="restore-confirm"]';
  await s.waitFor("what the restore would do is shown", async () => (await s.count(shown)) === 1, { timeoutMs: 15_000 });
  const planned = await s.execute(`return document.querySelector('${shown}').textContent`);
  t.assert(planned.includes(FILE) && planned.includes("1 file deleted"), `the restore names the file it deletes: ${planned}`);
  t.assert(await exists(target), "nothing is touched before the user says yes");
  await t.shot("restore-asked");
  await (await s.find(`${shown} [data-testid="restore-confirm-yes"]`)).click();
  const note = '[data-testid="message"][data-role="user"] [data-testid="restore-note"]';
  await s.waitFor("the restore is done", async () => (await s.count(`${note}[data-phase="restored"]`)) === 1, { timeoutMs: 15_000 });
  t.assert(!(await exists(target)), "the restore removed the file the turn wrote");
  t.assert(!(await exists(path.dirname(target))), "and the folder it made");
  // Files only: the conversation keeps every message.
  t.assert((await s.count('[data-testid="message"]')) >= 2, "the conversation is left as it was");
  await t.shot("restored");

  t.step("undo the restore: the file is back");
  await (await s.find(`${note} [data-testid="restore-undo"]`)).click();
  await s.waitFor("what the undo would do is shown", async () => (await s.count(shown)) === 1, { timeoutMs: 15_000 });
  await (await s.find(`${shown} [data-testid="restore-confirm-yes"]`)).click();
  await s.waitFor("the restore is undone", async () => (await s.count(`${note}[data-phase="undone"]`)) === 1, { timeoutMs: 15_000 });
  t.assert((await readFile(target, "utf8")) === CONTENT, "undoing the restore brought the file back as it was");
  await t.shot("undone");
}
