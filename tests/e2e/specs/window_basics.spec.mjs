// The window as people expect it (issue: settings that stick, errors that clear, retry, focus and
// Esc), in the real app against the loopback provider: settings save without a Save button and
// survive closing the panel; a 429 that is retried leaves nothing behind once the answer comes; a
// stream that breaks off offers Retry, which gets the answer; Esc stops a running answer and the
// caret is back in the message field; and the window drawn light and dark at two sizes.

import { readFile } from "node:fs/promises";
import path from "node:path";

import { answered, lastAssistantText, send, turnOver } from "../lib/chat.mjs";
import { readyToChat } from "../lib/ready.mjs";

const composerFocused = (s) =>
  s.execute(`return document.activeElement?.getAttribute("data-testid") === "composer-input"`);

/** Click a control of a long panel, scrolled to the middle first (not under the sticky footer). */
async function clickCentered(s, testId) {
  await s.execute(`document.querySelector('[data-testid="${testId}"]').scrollIntoView({ block: "center" }); return true;`);
  await (await s.byTestId(testId)).click();
}

/** Height of the menu bar GTK draws inside the window, above the page (File, Edit, View, Help). */
const MENU_BAR_MAX = 40;

/**
 * The app window resized on the virtual screen (no window manager: X resizes it as asked). The page
 * gets the window's width and its height less the menu bar.
 */
async function resize(t, width, height) {
  await t.run("xdotool", ["search", "--sync", "--name", "^Warden$", "windowsize", "--sync", String(width), String(height)]);
  await t.s.waitFor(`a ${width}×${height} window`, async () => {
    const [w, h] = await t.s.execute("return [window.innerWidth, window.innerHeight]");
    return w === width && h <= height && h >= height - MENU_BAR_MAX;
  });
}

export default async function (t) {
  const { s } = t;
  const tag = Math.random().toString(36).slice(2, 8);

  t.step("a new conversation that can answer, the caret in the message field");
  await readyToChat(t, "sk-ant-e2e-" + Math.random().toString(36).slice(2, 12));
  await s.waitFor("the caret in the message field", () => composerFocused(s));

  t.step("settings save as they change: no Save button, and the choice is on disk after closing");
  await (await s.byTestId("settings-open")).click();
  await s.waitForTestId("settings-panel");
  t.assert((await s.count('[data-testid="settings-save"]')) === 0, "there is no Save button to forget");
  await clickCentered(s, "theme-dark");
  await s.waitFor("saved", async () => (await (await s.byTestId("settings-saved")).text()).includes("Saved"));
  await (await s.byTestId("settings-close")).click();
  const settingsFile = path.join(t.env("WARDEN_HOME"), "settings.json");
  const onDisk = JSON.parse(await readFile(settingsFile, "utf8"));
  t.assert(onDisk.theme === "dark", `settings.json holds the theme chosen: ${onDisk.theme}`);
  await s.waitFor("the caret back in the message field", () => composerFocused(s));
  await (await s.byTestId("settings-open")).click();
  // Settings open once the engine's settings are read (an IPC round trip).
  await s.waitForTestId("settings-panel");
  t.assert(await s.execute(`return document.querySelector('[data-testid="theme-dark"]').checked`), "reopened, dark is still chosen");
  await (await s.byTestId("settings-close")).click();

  t.step("a rate limit that is retried leaves no error behind once the answer comes");
  await send(s, `Hello, rate limit once ${tag}`);
  await answered(s);
  t.assert((await s.count('[data-testid="conversation-view"] [role="alert"]')) === 0, "no error box stays under the answer");

  t.step("a stream that breaks off offers Retry, and Retry gets the answer");
  await send(s, `Hello again, drop once ${tag}`);
  await turnOver(s);
  const retry = await s.waitForTestId("retry-last", { timeoutMs: 20_000 });
  t.assert((await retry.text()).includes("Retry"), `the failed turn offers Retry: ${await retry.text()}`);
  await t.shot("dropped");
  await retry.click();
  await answered(s);
  t.assert((await s.count('[data-testid="conversation-view"] [role="alert"]')) === 0, "the failure is gone once Retry worked");

  t.step("Esc stops a running answer, and the caret is back in the message field");
  await send(s, "Please talk slowly");
  await s.waitFor("the answer streaming", async () => (await lastAssistantText(s)).includes("slow3 "), { timeoutMs: 20_000 });
  await (await s.waitForTestId("composer-input")).type("\uE00C");
  await turnOver(s);
  t.assert(!(await lastAssistantText(s)).includes("slow299"), "the answer stopped before its end");
  t.assert((await lastAssistantText(s)).includes("Stopped."), "the message says it was stopped");
  await s.waitFor("the caret in the message field", () => composerFocused(s));

  t.step("the window light and dark, at 1280×800 and 720×480");
  for (const theme of ["dark", "light"]) {
    await (await s.byTestId("settings-open")).click();
    await s.waitForTestId("settings-panel");
    const already = await s.execute(`return document.querySelector('[data-testid="theme-${theme}"]').checked`);
    await clickCentered(s, `theme-${theme}`);
    if (!already) await s.waitFor("saved", async () => (await (await s.byTestId("settings-saved")).text()).includes("Saved"));
    await (await s.byTestId("settings-close")).click();
    await s.waitFor(`the ${theme} theme`, async () => (await s.execute("return document.documentElement.dataset.theme")) === theme);
    for (const [w, h] of [[1280, 800], [720, 480]]) {
      await resize(t, w, h);
      const overflow = await s.execute(
        `const m = document.querySelector('[data-testid="conversation-view"] .messages'); return m.scrollWidth - m.clientWidth;`,
      );
      t.assert(overflow <= 0, `nothing widens the transcript at ${w}×${h} (${overflow} px too wide)`);
      const sidebar = await s.execute(
        `const n = document.querySelector('[data-testid="conversation-list"]'); return n ? n.scrollWidth - n.clientWidth : 0;`,
      );
      t.assert(sidebar <= 0, `the conversation list fits its column at ${w}×${h} (${sidebar} px too wide)`);
      await t.shot(`${theme}-${w}x${h}`);
    }
  }
}
