// Two things people do in their first hour, in the real window: edit a message they sent and send
// it again (what came after it is dropped from what the model sees), and ask for a write in a
// project Warden has no permissions for yet (Guided asks first instead of refusing).

import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

import { answered, ask, send, turnOver } from "../lib/chat.mjs";
import { readyToChat } from "../lib/ready.mjs";

const userTexts = (s) =>
  s.execute(`return [...document.querySelectorAll('[data-testid="message"][data-role="user"] [data-testid="message-text"]')].map((m) => m.textContent)`);

/** The settings as the engine has them, changed by `patch` and saved (the engine's own command). */
async function patchSettings(s, patch) {
  return s.executeAsync(
    `const done = arguments[arguments.length - 1];
     const inv = window.__TAURI_INTERNALS__.invoke;
     (async () => {
       const settings = await inv("settings_get");
       const before = settings.projectDir;
       await inv("settings_set", { settings: { ...settings, ...arguments[0] } });
       done({ before });
     })().catch((e) => done({ error: String(e) }));`,
    [patch],
  );
}

export default async function (t) {
  const { s } = t;
  t.step("a conversation with two exchanges");
  await readyToChat(t, "sk-ant-e2e-" + Math.random().toString(36).slice(2, 12));
  for (const text of ["First question", "Second question, with a typo"]) {
    await ask(s, text);
  }

  t.step("edit the second message and send it again");
  await s.execute(`[...document.querySelectorAll('[data-testid="rewind-conversation"]')].pop().click(); return true;`);
  await (await s.waitForTestId("rewind-confirm")).click();
  await s.waitFor("the message is back in the field", async () =>
    (await s.execute(`return document.querySelector('[data-testid="composer-input"]').value`)) === "Second question, with a typo",
  );
  t.assert(JSON.stringify(await userTexts(s)) === JSON.stringify(["First question"]), `what followed is dropped: ${await userTexts(s)}`);
  const input = await s.byTestId("composer-input");
  await input.clear();
  await input.type("Second question, fixed");
  await (await s.byTestId("composer-send")).click();
  await answered(s);
  const reqs = await (await fetch(`${t.env("E2E_PROVIDER_URL")}/__requests`)).json();
  const last = JSON.stringify(reqs[reqs.length - 1].body.messages);
  t.assert(last.includes("Second question, fixed") && !last.includes("with a typo"), `the model sees the edit only: ${last}`);
  await t.shot("edited");

  t.step("a project Warden has no permissions for: Guided asks before a write");
  const fresh = await mkdtemp(path.join(os.tmpdir(), "warden-e2e-new-project-"));
  const changed = await patchSettings(s, { projectDir: fresh, trustLevel: "guided" });
  t.assert(!changed.error, `settings_set: ${changed.error}`);
  await (await s.byTestId("conversation-new")).click();
  await send(s, "Please write the file hello.txt");
  await s.waitForTestId("approval-dialog", { timeoutMs: 20_000 });
  await t.shot("new-project-asks");
  await (await s.byTestId("approval-reject")).click();
  await turnOver(s);
  const restored = await patchSettings(s, { projectDir: changed.before });
  t.assert(!restored.error, `settings restored: ${restored.error}`);
}
