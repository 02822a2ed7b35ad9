// The window as people expect it (issue: settings that stick, errors that clear, retry, focus and
// Esc), in the real app against the loopback provider: settings save without a Save button and
// survive closing the panel; a 429 that is retried leaves nothing behind once the answer comes; a
// stream that breaks off before any text is sent again by itself, one that breaks off mid-answer
// (or every time) offers Retry, which gets the answer; Esc stops a running answer and the caret is
// back in the message field; and the window drawn light and dark at two sizes.

import { readFile } from "node:fs/promises";
import path from "node:path";

import { answered, lastAssistantText, send, turnOver } from "../lib/chat.mjs";
import { readyToChat } from "../lib/ready.mjs";

/** Error boxes under the answers, a retry in progress included (that one is a status, not an alert). */
const errorBoxes = (s) => s.count('[data-testid="conversation-view"] [data-testid="chat-error"]');

/** What the stand-in provider was sent so far. */
const sentToProvider = async (t) => (await fetch(`${t.env("E2E_PROVIDER_URL")}/__requests`)).json();

/**
 * From now on, notes every error box drawn while the engine retries by itself (it is gone once the
 * answer comes): its role and text, in `window.__retryBoxes`.
 */
const watchRetryBoxes = (s) =>
  s.execute(`
    window.__retryBoxes = [];
    const note = () => {
      for (const e of document.querySelectorAll('[data-testid="chat-error"][data-retrying="true"]')) {
        window.__retryBoxes.push([e.getAttribute("role"), e.textContent]);
      }
    };
    window.__retryWatch?.disconnect();
    window.__retryWatch = new MutationObserver(note);
    window.__retryWatch.observe(document.body, { childList: true, subtree: true, characterData: true });
    return true;`);

/** The text of the last error box. */
const lastErrorText = (s) =>
  s.execute(`return [...document.querySelectorAll('[data-testid="chat-error"]')].pop()?.textContent ?? ""`);

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
  t.assert((await errorBoxes(s)) === 0, "no error box stays under the answer");

  t.step("a stream that breaks off before any text is sent again by itself: the answer comes, no error left");
  const sentBefore = (await sentToProvider(t)).length;
  await watchRetryBoxes(s);
  await send(s, `Hello, drop early once ${tag}`);
  await answered(s);
  const boxes = await s.execute("window.__retryWatch.disconnect(); return window.__retryBoxes;");
  t.assert(boxes.length > 0, "while it waited, the window said it would try again");
  for (const [role, text] of boxes) {
    t.assert(role === "status", `a retry in progress is news, not an alert: ${role}`);
    t.assert((text.match(/retrying/gi) ?? []).length === 1, `one countdown, said once: ${text}`);
  }
  const sentNow = (await sentToProvider(t)).length - sentBefore;
  t.assert(sentNow === 2, `sent once more by the engine itself, no Retry pressed: ${sentNow} requests`);
  t.assert((await errorBoxes(s)) === 0, "no error box stays under the answer");
  const answer = await lastAssistantText(s);
  t.assert(answer.split("I am Warden's test model").length === 2, `the answer is there once: ${answer}`);

  t.step("a stream that breaks off mid-answer is not sent again by itself (its text would show twice): Retry gets the answer");
  await send(s, `Hello again, drop once ${tag}`);
  await turnOver(s);
  const retry = await s.waitForTestId("retry-last", { timeoutMs: 20_000 });
  t.assert((await retry.text()).includes("Retry"), `the failed turn offers Retry: ${await retry.text()}`);
  const said = await lastErrorText(s);
  t.assert(said.includes("The model's answer was cut off"), `the failure in words a person reads: ${said}`);
  t.assert(!/message_stop|os error|hyper|decoding response body/.test(said.replace(/Details.*$/s, "")), `no engine words in the sentence: ${said}`);
  await t.shot("dropped");
  await retry.click();
  await answered(s);
  t.assert((await errorBoxes(s)) === 0, "the failure is gone once Retry worked");

  t.step("a stream that breaks off every time ends, after the engine's own tries, in the error and Retry");
  const sentBeforeAlways = (await sentToProvider(t)).length;
  await send(s, "Hello, always drop early");
  await turnOver(s);
  const again = await s.waitForTestId("retry-last", { timeoutMs: 20_000 });
  t.assert((await again.text()).includes("Retry"), `the failed turn offers Retry: ${await again.text()}`);
  const tries = (await sentToProvider(t)).length - sentBeforeAlways;
  t.assert(tries === 3, `sent three times in all, then given up: ${tries} requests`);
  const alerts = await s.execute(
    `return [...document.querySelectorAll('[data-testid="chat-error"]')].map((e) => [e.getAttribute("role"), e.dataset.retrying]);`,
  );
  t.assert(alerts.length === 1 && alerts[0][0] === "alert" && alerts[0][1] === "false", `one error box, an alert, not retrying: ${JSON.stringify(alerts)}`);
  t.assert((await lastErrorText(s)).startsWith("The model's answer was cut off"), `the failure in words: ${await lastErrorText(s)}`);

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
