// Every shortcut the shortcuts overlay lists, pressed as a person presses it (X key events through
// XTEST, never WebDriver actions or dispatched DOM events), does what the overlay says. The
// overlay's list is read first and must be exactly the keys this spec drives: a shortcut listed
// without a test here fails it.

import { answered, lastAssistantText } from "../lib/chat.mjs";
import { readyToChat } from "../lib/ready.mjs";

/** The keys of each listed shortcut, as the overlay writes them, and how xdotool types them. */
const DRIVEN = ["Enter", "Esc", "Ctrl+N", "Ctrl+,", "Ctrl+L", "Ctrl+B", "Ctrl+K", "Ctrl+/", "/", "Ctrl+Shift+P"];

async function wardenWindow(t) {
  return (await t.run("xdotool", ["search", "--onlyvisible", "--name", "^Warden$"])).stdout.trim().split("\n")[0];
}

/** Keys typed into the focused Warden window through XTEST. */
async function press(t, ...keys) {
  await t.run("xdotool", ["windowfocus", "--sync", await wardenWindow(t)]);
  await t.run("xdotool", ["key", "--clearmodifiers", "--delay", "60", ...keys]);
  await t.s.afterPaint();
}

/** Text typed through XTEST. */
async function typeText(t, text) {
  await t.run("xdotool", ["windowfocus", "--sync", await wardenWindow(t)]);
  await t.run("xdotool", ["type", "--delay", "20", text]);
}

const focused = (s) => s.execute(`return document.activeElement?.getAttribute("data-testid") ?? document.activeElement?.tagName`);

export default async function (t) {
  const { s } = t;
  await readyToChat(t, "sk-ant-e2e-" + Math.random().toString(36).slice(2, 12));

  t.step("Ctrl+/ shows the shortcuts; they are exactly the ones this spec presses; Esc closes them");
  await press(t, "ctrl+slash");
  const help = await s.waitForTestId("shortcuts-help");
  const listed = await s.execute(
    `return [...document.querySelectorAll('[data-testid="shortcuts-help"] dt kbd')].map((k) => k.textContent.trim())`,
  );
  t.assert(
    JSON.stringify([...listed].sort()) === JSON.stringify([...DRIVEN].sort()),
    `the overlay lists ${JSON.stringify(listed)}; this spec drives ${JSON.stringify(DRIVEN)}`,
  );
  t.assert(!!help, "the overlay is shown");
  await press(t, "Escape");
  await s.waitFor("the overlay closed", async () => (await s.count('[data-testid="shortcuts-help"]')) === 0);

  t.step("Ctrl+K goes to the conversation search; Ctrl+L back to the message field");
  await press(t, "ctrl+k");
  await s.waitFor("the search focused", async () => (await focused(s)) === "conversation-search");
  await press(t, "ctrl+l");
  await s.waitFor("the message field focused", async () => (await focused(s)) === "composer-input");

  t.step("Enter sends what was typed (Shift+Enter is a new line)");
  await typeText(t, "Hello");
  await press(t, "shift+Return");
  await typeText(t, "there");
  const typed = await s.execute(`return document.querySelector('[data-testid="composer-input"]').value`);
  t.assert(typed === "Hello\nthere", `Shift+Enter made a new line: ${JSON.stringify(typed)}`);
  await press(t, "Return");
  await answered(s);

  t.step("Esc stops an answer while it streams");
  await typeText(t, "Please talk slowly");
  await press(t, "Return");
  await s.waitFor("the answer streaming", async () => (await lastAssistantText(s)).includes("slow2 "), { timeoutMs: 20_000 });
  await press(t, "Escape");
  await s.waitFor("the turn stopped", async () => (await s.count('[data-testid="composer-stop"]')) === 0, { timeoutMs: 10_000 });
  const stoppedAt = (await lastAssistantText(s)).length;
  await new Promise((r) => setTimeout(r, 600));
  t.assert((await lastAssistantText(s)).length === stoppedAt, "nothing more streamed after Esc");

  t.step("Ctrl+B hides the conversation list and shows it again");
  await press(t, "ctrl+b");
  await s.waitFor("the list hidden", async () => (await s.count('[data-testid="conversation-list"]')) === 0);
  await press(t, "ctrl+b");
  await s.waitFor("the list back", async () => (await s.count('[data-testid="conversation-list"]')) === 1);

  t.step("Ctrl+N starts a new conversation");
  const before = await s.execute(
    `return document.querySelector('[data-testid="conversation-item"][aria-current="page"]')?.getAttribute("data-conversation-id") ?? null`,
  );
  await press(t, "ctrl+n");
  await s.waitFor("another conversation shown", async () =>
    (await s.execute(
      `return document.querySelector('[data-testid="conversation-item"][aria-current="page"]')?.getAttribute("data-conversation-id") ?? null`,
    )) !== before,
  );
  await s.waitFor("the caret in its message field", async () => (await focused(s)) === "composer-input");

  t.step("/ at the start of a message lists the commands: Tab completes one, Enter runs a built-in, Esc closes what it shows");
  await typeText(t, "/he");
  await s.waitFor("the commands listed", async () => (await s.count('[data-testid="slash-option"][data-name="help"]')) === 1);
  await press(t, "Tab");
  const completed = await s.execute(`return document.querySelector('[data-testid="composer-input"]').value`);
  t.assert(completed === "/help ", `Tab completed the name: ${JSON.stringify(completed)}`);
  await press(t, "Return");
  await s.waitForTestId("slash-help");
  t.assert((await s.execute(`return document.querySelector('[data-testid="composer-input"]').value`)) === "", "/help was not sent");
  await press(t, "Escape");
  await s.waitFor("the help closed", async () => (await s.count('[data-testid="slash-panel"]')) === 0);

  t.step("Ctrl+Shift+P turns plan mode on (the toggle pressed, the composer says so) and off again");
  const planPressed = () => s.execute(`return document.querySelector('[data-testid="plan-toggle"]').getAttribute("aria-pressed")`);
  const planLine = () => s.execute(`return document.querySelector('[data-testid="plan-mode-line"]').textContent`);
  t.assert((await planPressed()) === "false", "plan mode starts off");
  await press(t, "ctrl+shift+p");
  await s.waitFor("plan mode on", async () => (await planPressed()) === "true");
  t.assert((await planLine()).startsWith("Plan mode: the model only reads"), `the composer says so: ${JSON.stringify(await planLine())}`);
  await press(t, "ctrl+shift+p");
  await s.waitFor("plan mode off", async () => (await planPressed()) === "false");
  t.assert((await planLine()) === "", "the line is gone");

  t.step("Ctrl+, opens Settings and closes them again");
  await press(t, "ctrl+comma");
  await s.waitForTestId("settings-panel");
  await press(t, "ctrl+comma");
  await s.waitFor("Settings closed", async () => (await s.count('[data-testid="settings-panel"]')) === 0);
  await s.waitFor("the caret back in the message field", async () => (await focused(s)) === "composer-input");
}
