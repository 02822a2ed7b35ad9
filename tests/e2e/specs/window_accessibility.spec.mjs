// Runs after chat_approval, which must see the hand-written settings file before any spec accepts it.
// An accessibility pass with axe-core in the real window: the chat with an answer, the approval
// card, Settings and its Permissions, each in the light and the dark theme — no serious or
// critical violations; and every icon-only button has words for its name as WebKit computes it.

import { assertAccessible, assertIconButtonsNamed } from "../lib/axe.mjs";
import { answered, send, turnOver } from "../lib/chat.mjs";
import { readyToChat } from "../lib/ready.mjs";

async function setTheme(s, theme) {
  await (await s.waitForTestId("settings-open")).click();
  await s.waitForTestId("settings-panel");
  const already = await s.execute(`return document.querySelector('[data-testid="theme-${theme}"]').checked`);
  // Sections above it load what they list after the panel opens and grow: scrolled to again until
  // the click lands (a choice covered by the save bar is "not interactable").
  await s.waitFor(`the ${theme} choice clicked`, async () => {
    await s.execute(`document.querySelector('[data-testid="theme-${theme}"]').scrollIntoView({ block: "center" }); return true;`);
    try {
      await (await s.byTestId(`theme-${theme}`)).click();
      // A section above that grew between the scroll and the click moves the choice: the click
      // then lands on whatever took its place, and is made again.
      return await s.execute(`return document.querySelector('[data-testid="theme-${theme}"]').checked`);
    } catch (error) {
      if (String(error).includes("not interactable")) return false;
      throw error;
    }
  });
  if (!already) await s.waitFor("saved", async () => (await (await s.byTestId("settings-saved")).text()).includes("Saved"));
  if (theme !== "system") {
    await s.waitFor(`the ${theme} theme`, async () => (await s.execute("return document.documentElement.dataset.theme")) === theme);
  }
}

export default async function (t) {
  const { s } = t;
  t.step("a conversation with an answer");
  await readyToChat(t, "sk-ant-e2e-" + Math.random().toString(36).slice(2, 12));
  await send(s, "Hello there");
  await answered(s);

  for (const theme of ["light", "dark"]) {
    t.step(`Settings, ${theme}`);
    await setTheme(s, theme);
    await assertAccessible(t, `Settings (${theme})`);
    t.step(`Settings → Permissions, ${theme}`);
    await (await s.find('[data-testid="settings-nav-item"][data-section="permissions"]')).click();
    await assertAccessible(t, `Permissions (${theme})`);
    const inSettings = await assertIconButtonsNamed(t, `Settings (${theme})`);
    t.step(`(${inSettings} icon-only buttons in Settings, each named in words)`);
    await (await s.byTestId("settings-close")).click();

    t.step(`the chat, ${theme}`);
    await s.waitForTestId("composer-input");
    await assertAccessible(t, `the chat (${theme})`);
    const inChat = await assertIconButtonsNamed(t, `the chat (${theme})`);
    t.step(`(${inChat} icon-only buttons in the chat, each named in words)`);

    t.step(`the approval card, ${theme}`);
    await send(s, `Please write the file a11y/${theme}.txt`);
    await s.waitForTestId("approval-dialog", { timeoutMs: 20_000 });
    await assertAccessible(t, `the approval card (${theme})`);
    await (await s.byTestId("approval-reject")).click();
    await turnOver(s);
  }
  await setTheme(s, "system");
  await (await s.byTestId("settings-close")).click();
}
