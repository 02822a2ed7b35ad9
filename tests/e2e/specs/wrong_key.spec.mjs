// A wrong key, then the right one, in the real window: the conversation fails in words with a way
// to Settings, Settings says the stored key was rejected, and once the key is replaced the same
// conversation answers (an open conversation takes the new key) and the key reads as accepted.

import { answered, send } from "../lib/chat.mjs";
import { readyToChat } from "../lib/ready.mjs";

async function replaceKey(s, key) {
  await (await s.waitForTestId("settings-open")).click();
  await s.waitForTestId("settings-panel");
  await (await s.waitForTestId("key-input-anthropic")).type(key);
  await (await s.byTestId("key-save-anthropic")).click();
}

const keyStatus = (s) => s.execute(`return document.querySelector('[data-testid="key-status-anthropic"]')?.textContent ?? ""`);

export default async function (t) {
  const { s } = t;
  t.step("a conversation, then the key replaced by a wrong one");
  await readyToChat(t, "sk-ant-e2e-" + Math.random().toString(36).slice(2, 12));
  await replaceKey(s, "sk-wrong-" + Math.random().toString(36).slice(2, 10));
  await (await s.byTestId("settings-close")).click();

  t.step("the message fails in words, with the way to Settings");
  await send(s, "Hello with the wrong key");
  const error = await s.waitForTestId("chat-error", { timeoutMs: 20_000 });
  t.assert((await error.attr("data-code")) === "AUTH_FAILED", `the failure is typed: ${await error.attr("data-code")}`);
  t.assert((await s.count('[data-testid="chat-error-action"]')) === 1, "it offers Settings");
  await t.shot("rejected");

  t.step("Settings says the stored key was rejected");
  await (await s.byTestId("chat-error-action")).click();
  await s.waitFor("the key's verdict", async () => (await keyStatus(s)).includes("rejected by the provider"));

  t.step("the right key, and the same conversation answers");
  await (await s.waitForTestId("key-input-anthropic")).type("sk-ant-e2e-right-" + Math.random().toString(36).slice(2, 8));
  await (await s.byTestId("key-save-anthropic")).click();
  await s.waitFor("a new key has no verdict yet", async () => (await keyStatus(s)).includes("not used yet"));
  await (await s.byTestId("settings-close")).click();
  await s.waitForTestId("conversation-view");
  const before = await s.execute(`return document.querySelector('[data-testid="conversation-view"]').getAttribute("data-message-count")`);
  await send(s, "Hello again");
  await answered(s);
  const after = await s.execute(`return document.querySelector('[data-testid="conversation-view"]').getAttribute("data-message-count")`);
  t.assert(Number(after) > Number(before), `the same conversation went on (${before} → ${after} messages)`);
  // The first message's failure stays where it happened; nothing is said below the answer.
  const below = await s.execute(`
    const answer = [...document.querySelectorAll('[data-role="assistant"]')].pop();
    return [...document.querySelectorAll('[data-testid="chat-error"]')]
      .filter((e) => answer.contains(e) || (answer.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_FOLLOWING)).length;`);
  t.assert(below === 0, `no failure under the answer once it worked (${below})`);
  await t.shot("answered");

  t.step("Settings now says the key was accepted");
  await (await s.byTestId("settings-open")).click();
  await s.waitFor("accepted", async () => (await keyStatus(s)).includes("accepted at"));
  await (await s.byTestId("settings-close")).click();
}
