// Approvals that find the user, in the real window: while another window has the focus, a tool call
// that waits for approval raises a desktop notification through the session's real notification
// daemon (dunst, owning org.freedesktop.Notifications on the test's own session bus; dbus-monitor
// records the call) with a critical urgency, and the window asks for attention (its X urgency
// hint). While the window has the focus, the card alone asks: no notification. Once the approval
// is answered the notification is withdrawn (dunst shows none); a click on one (dunstctl's default
// action) brings Warden up on that conversation with the focus on its card.

import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import path from "node:path";

import { send, turnOver } from "../lib/chat.mjs";
import { readyToChat } from "../lib/ready.mjs";

const SUMMARY = "Warden is waiting for your approval";
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A process of the test's, in its own group, ended with everything it started. */
function start(t, command, args, onOutput) {
  const child = spawn(command, args, { detached: true, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.setEncoding("utf8").on("data", (chunk) => onOutput?.(chunk));
  child.stderr.setEncoding("utf8").on("data", () => {});
  child.on("error", (error) => console.error(`    ${command}: ${error.message}`));
  return {
    stop() {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        // Already gone.
      }
    },
  };
}

/** The Notify calls dbus-monitor printed so far: app name, summary, body and urgency of each. */
function notifyCalls(log) {
  return log
    .split(/^(?=method call )/m)
    .filter((block) => /member=Notify\b/.test(block.split("\n")[0]))
    .map((block) => {
      const strings = [...block.matchAll(/^\s*string "((?:[^"\\]|\\.)*)"/gm)].map((m) => m[1]);
      const urgency = /string "urgency"\s*\n\s*variant\s+byte (\d+)/.exec(block);
      // app_name, app_icon, summary, body (the hints' keys come after).
      return { app: strings[0], summary: strings[2], body: strings[3], urgency: urgency ? Number(urgency[1]) : null };
    });
}

export default async function (t) {
  const { s } = t;
  const sh = async (command, args) => (await t.run(command, args)).stdout.trim();
  const focusedName = () => sh("xdotool", ["getwindowfocus", "getwindowname"]).catch(() => "");
  /** How many notifications dunst shows now. */
  const displayed = async () => Number(await sh("dunstctl", ["count", "displayed"]).catch(() => "-1"));

  t.step("a conversation, and the session's notification daemon with a recorder on the bus");
  await readyToChat(t, "sk-ant-e2e-" + Math.random().toString(36).slice(2, 12));
  const runDir = t.env("RUN_DIR");
  const dunstrc = path.join(runDir, "dunstrc");
  await writeFile(dunstrc, "[global]\n    font = Monospace 10\n    width = 420\n");
  let monitored = "";
  const monitor = start(t, "dbus-monitor", ["--session", "type='method_call',interface='org.freedesktop.Notifications',member='Notify'"], (chunk) => {
    monitored += chunk;
  });
  const daemon = start(t, "dunst", ["-config", dunstrc]);
  const other = start(t, "display", ["-title", "another-window", "-size", "360x220", "-geometry", "+40+520", "xc:slategray"]);
  try {
    await s.waitFor("dunst owns org.freedesktop.Notifications", async () => {
      const reply = await sh("dbus-send", [
        "--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
        "org.freedesktop.DBus.NameHasOwner", "string:org.freedesktop.Notifications",
      ]).catch(() => "");
      return reply.includes("boolean true");
    }, { timeoutMs: 10_000 });
    const warden = (await sh("xdotool", ["search", "--onlyvisible", "--name", "^Warden$"])).split("\n")[0];
    const another = await s.waitFor("the other window", async () =>
      (await sh("xdotool", ["search", "--onlyvisible", "--name", "^another-window$"]).catch(() => "")).split("\n")[0] || null,
    );

    t.step("with the window focused, an approval asks on the card alone");
    await sh("xdotool", ["windowfocus", "--sync", warden]);
    t.assert((await focusedName()) === "Warden", `Warden has the focus: ${await focusedName()}`);
    await send(s, "Please write the file focused.txt");
    await s.waitForTestId("approval-dialog", { timeoutMs: 20_000 });
    await sleep(2_000);
    t.assert(notifyCalls(monitored).length === 0, `no notification while focused: ${JSON.stringify(notifyCalls(monitored))}`);
    await (await s.byTestId("approval-reject")).click();
    await turnOver(s);

    t.step("with another window focused, the approval raises a notification and asks for attention");
    await (await s.waitForTestId("composer-input")).type("Please write the file unfocused.txt");
    await sh("xdotool", ["windowfocus", "--sync", another]);
    t.assert((await focusedName()) === "another-window", `the other window has the focus: ${await focusedName()}`);
    // A script's click: it sends without giving the window the focus back.
    await s.execute(`document.querySelector('[data-testid="composer-send"]').click(); return true;`);
    await s.waitForTestId("approval-dialog", { timeoutMs: 20_000 });
    const [call] = await s.waitFor("the Notify call on the bus", async () => {
      const calls = notifyCalls(monitored);
      return calls.length ? calls : null;
    }, { timeoutMs: 10_000 });
    t.assert(call.app === "Warden" && call.summary === SUMMARY, `who and what: ${JSON.stringify(call)}`);
    t.assert(call.body.includes("unfocused.txt"), `the body names what waits: ${call.body}`);
    t.assert(call.urgency === 2, `critical urgency, so the daemon keeps it up: ${call.urgency}`);
    const hints = await sh("xprop", ["-id", warden, "WM_HINTS"]);
    t.assert(/urgency/i.test(hints), `the window asks for attention (urgency hint): ${hints}`);
    t.assert((await focusedName()) === "another-window", "the focus was not taken from the user");
    await t.shot("unfocused-approval-notified");

    t.step("answered in the window, the notification is withdrawn");
    await s.execute(`document.querySelector('[data-testid="approval-reject"]').click(); return true;`);
    await turnOver(s);
    await s.waitFor("dunst showing no notification", async () => (await displayed()) === 0, { timeoutMs: 10_000 });

    t.step("a click on the notification brings Warden up on that conversation's card");
    const asking = await s.execute(
      `return document.querySelector('[data-testid="conversation-item"][aria-current="page"]').getAttribute("data-conversation-id")`,
    );
    await (await s.waitForTestId("composer-input")).type("Please write the file clicked.txt");
    await sh("xdotool", ["windowfocus", "--sync", another]);
    await s.execute(`document.querySelector('[data-testid="composer-send"]').click(); return true;`);
    await s.waitForTestId("approval-dialog", { timeoutMs: 20_000 });
    await s.waitFor("dunst showing the notification", async () => (await displayed()) === 1, { timeoutMs: 10_000 });
    // The user has moved on to another conversation meanwhile (a script's click: no focus change).
    await s.execute(`document.querySelector('[data-testid="conversation-new"]').click(); return true;`);
    await s.waitFor("another conversation shown", async () =>
      (await s.execute(`return document.querySelector('[data-testid="conversation-item"][aria-current="page"]')?.getAttribute("data-conversation-id") ?? null`)) !== asking,
    );
    t.assert((await focusedName()) === "another-window", "still in the other window before the click");
    await sh("dunstctl", ["action", "0"]);
    await s.waitFor("Warden focused", async () => (await focusedName()) === "Warden", { timeoutMs: 10_000 });
    await s.waitFor("the asking conversation shown, the focus on its card", async () =>
      s.execute(
        `const shown = document.querySelector('[data-testid="conversation-item"][aria-current="page"]')?.getAttribute("data-conversation-id");
         return shown === arguments[0] && document.activeElement?.getAttribute("data-testid") === "approval-dialog";`,
        [asking],
      ),
    );
    await s.waitFor("the clicked notification gone", async () => (await displayed()) === 0, { timeoutMs: 10_000 });
    await t.shot("clicked-notification-card");
    await (await s.byTestId("approval-reject")).click();
    await turnOver(s);

    t.step("a bidi-spoofed command reads as it runs in its block and in the notification");
    await (await s.byTestId("settings-open")).click();
    await s.waitForTestId("settings-panel");
    const bashBox = '[data-testid="allowed-tool"][data-tool="bash"]';
    await s.waitFor("the project's tools", async () => (await s.count(bashBox)) === 1, { timeoutMs: 20_000 });
    await s.execute(`document.querySelector('${bashBox}').scrollIntoView({ block: "center" }); return true;`);
    const wasOn = await s.execute(`return document.querySelector('${bashBox}').checked`);
    if (!wasOn) {
      await (await s.find(bashBox)).click();
      await s.waitFor("saved", async () => (await (await s.byTestId("settings-saved")).text()).includes("Saved"));
    }
    await (await s.byTestId("settings-close")).click();
    // What runs: `echo 'safe listing' #` then a comment the override would draw reversed.
    await (await s.waitForTestId("composer-input")).type(
      'please call bash {"command":"echo \'safe listing\' # \\u202e; rm -rf ~ \\u202c&& ls"}',
    );
    const before = notifyCalls(monitored).length;
    await sh("xdotool", ["windowfocus", "--sync", another]);
    await s.execute(`document.querySelector('[data-testid="composer-send"]').click(); return true;`);
    await s.waitForTestId("approval-dialog", { timeoutMs: 20_000 });
    const spoofed = await s.waitFor("the Notify call for the command", async () => notifyCalls(monitored)[before] ?? null, {
      timeoutMs: 10_000,
    });
    t.assert(spoofed.body.includes("⟨U+202E⟩") && !spoofed.body.includes("\u202e"), `the notification shows the override: ${spoofed.body}`);
    const summary = await s.execute(
      `return [...document.querySelectorAll('[data-testid="tool-block"] .tool-summary')].pop()?.textContent ?? ""`,
    );
    t.assert(summary.includes("⟨U+202E⟩") && !summary.includes("\u202e"), `the block shows the override: ${summary}`);
    await s.waitFor("dunst showing it", async () => (await displayed()) >= 1, { timeoutMs: 10_000 });
    await t.shot("bidi-command-block-and-notification");
    await s.execute(`document.querySelector('[data-testid="approval-reject"]').click(); return true;`);
    await turnOver(s);
    if (!wasOn) {
      await (await s.byTestId("settings-open")).click();
      await s.waitForTestId("settings-panel");
      await s.execute(`document.querySelector('${bashBox}').scrollIntoView({ block: "center" }); return true;`);
      await (await s.find(bashBox)).click();
      await s.waitFor("saved", async () => (await (await s.byTestId("settings-saved")).text()).includes("Saved"));
      await (await s.byTestId("settings-close")).click();
    }
  } finally {
    other.stop();
    daemon.stop();
    monitor.stop();
  }
}
