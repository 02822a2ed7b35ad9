// The installed app's desktop checks (tests/install/run.sh): its window, a second start, updates
// refused and installed, the new version after the restart, Quit, and the window's size kept. Prints "ok"/"FAIL" lines and
// writes "checks: PASSED FAILED" to $WORK/desktop-checks.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";

import { Session, sleep } from "../e2e/lib/webdriver.mjs";

const env = process.env;
const APP = "/usr/bin/warden-desktop";
let passed = 0;
let failed = 0;
const ok = (what) => (passed++, console.log(`  \x1b[32mok\x1b[0m   ${what}`));
const bad = (what, why = "") => (failed++, console.log(`  \x1b[31mFAIL\x1b[0m ${what}${why ? `: ${why}` : ""}`));
const check = (what, cond, why) => (cond ? ok(what) : bad(what, why));

const sh = (cmd, args) => {
  try {
    return execFileSync(cmd, args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return "";
  }
};
const appPids = () => sh("pgrep", ["-x", "warden-desktop"]).split("\n").filter(Boolean).map(Number);
const focusedName = () => sh("xdotool", ["getwindowfocus", "getwindowname"]);
const installedVersion = () => sh("dpkg-query", ["-W", "-f=${Version}", "warden"]);
const installedState = () => sh("dpkg-query", ["-W", "-f=${Version} ${Status}", "warden"]);
async function until(what, fn, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const v = await fn();
    if (v) return v;
    await sleep(200);
  }
  throw new Error(`timed out waiting for ${what}`);
}
/** Clicks `[data-testid=id]` once it exists, centred first (Settings' footer sticks to the bottom). */
async function click(id, timeoutMs = 15_000) {
  await session.waitForTestId(id, { timeoutMs });
  await session.execute(`document.querySelector('[data-testid="${id}"]').scrollIntoView({ block: "center" }); return true;`);
  await (await session.byTestId(id)).click();
}

/** Ctrl+Q in the window (File → Quit): the app ends. */
async function quit() {
  const wid = sh("xdotool", ["search", "--onlyvisible", "--name", "^Warden$"]).split("\n")[0];
  sh("xdotool", ["windowfocus", "--sync", wid]);
  sh("xdotool", ["key", "--clearmodifiers", "ctrl+q"]);
  const gone = await until("Quit to end the app", () => appPids().length === 0, 15_000).catch(() => false);
  check("Ctrl+Q (File → Quit) ends the app", gone, JSON.stringify(appPids()));
}
const logText = () => {
  const dir = path.join(env.XDG_STATE_HOME, "warden", "logs");
  try {
    return readdirSync(dir)
      .map((f) => readFileSync(path.join(dir, f), "utf8"))
      .join("");
  } catch {
    return "";
  }
};

// The loopback update server: latest.json names the newer package; the signature is what `sig()` says.
let signature = "";
const newDeb = readFileSync(env.NEW_DEB);
const server = http.createServer((req, res) => {
  const base = `http://127.0.0.1:${env.UPDATE_PORT}`;
  if (req.url === "/latest.json") {
    res.setHeader("content-type", "application/json");
    res.end(
      JSON.stringify({
        version: env.NEXT,
        notes: `Warden ${env.NEXT}: the test's update.`,
        pub_date: "2026-11-23T12:00:00Z",
        platforms: { "linux-x86_64-deb": { url: `${base}/warden.deb`, signature } },
      }),
    );
  } else if (req.url === "/warden.deb") {
    res.setHeader("content-type", "application/octet-stream");
    res.end(newDeb);
  } else {
    res.statusCode = 404;
    res.end();
  }
});
await new Promise((r) => server.listen(Number(env.UPDATE_PORT), "127.0.0.1", r));

let session = null;
try {
  // 1. The installed app opens its window.
  session = await Session.create(env.DRIVER_URL, APP);
  await session.waitForTestId("app-root", { timeoutMs: 60_000 });
  const wid = await until("the window", () => sh("xdotool", ["search", "--onlyvisible", "--name", "^Warden$"]).split("\n")[0]);
  ok(`the installed app opens its window (X id ${wid})`);
  await sleep(1500);
  const shot = path.join(env.WORK, "window.png");
  sh("import", ["-window", "root", shot]);
  const spread = Number(sh("convert", [shot, "-format", "%[fx:standard_deviation]", "info:"]));
  check(`its window is drawn (screenshot ${shot}, spread ${spread.toFixed(3)})`, spread > 0.02);
  const [first] = appPids();

  // 2. A second start focuses the first window and goes.
  const other = spawn("display", ["-title", "another-window", "-geometry", "320x200+900+560", shot], { stdio: "ignore" });
  const otherWid = await until("another window", () => sh("xdotool", ["search", "--onlyvisible", "--name", "^another-window$"]).split("\n")[0]);
  sh("xdotool", ["windowfocus", "--sync", otherWid]);
  check("another window has the focus before the second start", focusedName() === "another-window", focusedName());
  const second = spawnSync(APP, [], { timeout: 30_000, stdio: "ignore" });
  check("a second start ends by itself", second.status === 0, `status ${second.status} ${second.error ?? ""}`);
  await until("the focus back on Warden", () => focusedName() === "Warden", 10_000).catch(() => null);
  check("…and the first window has the focus", focusedName() === "Warden", `focused: ${focusedName()}`);
  check("…and only the first process runs", JSON.stringify(appPids()) === JSON.stringify([first]), JSON.stringify(appPids()));
  other.kill();

  // 3. An update whose signature does not match is refused.
  signature = readFileSync(`${env.OLD_DEB}.sig`, "utf8").trim(); // a real signature, of other bytes
  await click("settings-open");
  await click("updates-check-now");
  const notice = async (state) =>
    session.waitFor(`the update notice (${state})`, async () => {
      const el = await session.byTestId("update-notice");
      return (await el.attr("data-state")) === state && el;
    }, { timeoutMs: 60_000 });
  await notice("available");
  const offered = await (await session.byTestId("update-version")).text();
  check(`the check finds ${env.NEXT}`, offered.includes(env.NEXT), offered);
  await click("update-install");
  await notice("failed");
  const refused = await (await session.byTestId("update-error")).text();
  check("a package with a signature that does not match is refused, in words", refused.includes("not signed with Warden's key"), refused);
  check(`…and ${env.VERSION} stays installed`, installedVersion() === env.VERSION, installedVersion());

  // 4. The signed update installs, and the app restarts into it.
  signature = readFileSync(`${env.NEW_DEB}.sig`, "utf8").trim();
  await click("update-check-again");
  await notice("available");
  await click("update-install");
  // dpkg's database is rewritten while it installs, and a query in that moment answers nothing: the
  // check keeps the last answer it read, and waits for dpkg to have finished (configured).
  let dpkgSays = "";
  await until(`${env.NEXT} installed`, () => {
    dpkgSays = installedState() || dpkgSays;
    return dpkgSays === `${env.NEXT} install ok installed`;
  }, 180_000).catch(() => null);
  check(`the signed update is installed (dpkg says ${dpkgSays || "nothing"})`, dpkgSays === `${env.NEXT} install ok installed`);
  // The new process starts before the old one has gone: wait for both (the old one lingering fails).
  const restarted = await until("the app restarted", () => {
    const pids = appPids();
    return !pids.includes(first) && pids.find((p) => p !== first);
  }, 60_000).catch(() => null);
  check("the app restarted into it (a new process)", Boolean(restarted), JSON.stringify(appPids()));
  await until("the restarted app's log", () => logText().includes(`version=${env.NEXT}`), 30_000).catch(() => null);
  check(`the restarted app reports ${env.NEXT} (its log: "Warden started version=${env.NEXT}")`, logText().includes(`version=${env.NEXT}`));
  check(`warden --version says ${env.NEXT}`, sh("/usr/bin/warden", ["--version"]) === `warden ${env.NEXT}`);
  check("no key reaches the log", !logText().includes(env.TEST_KEY_MARK ?? "sk-ant-install-test"));
  await session.delete();
  session = null;
  for (const p of appPids()) process.kill(p, "SIGTERM");
  await until("the restarted app to go", () => appPids().length === 0, 15_000).catch(() => null);

  // 5. The About box of the updated app says its version; Quit (Ctrl+Q, the menu's) ends it.
  session = await Session.create(env.DRIVER_URL, APP);
  await click("settings-open", 60_000);
  await click("about-open");
  const about = await (await session.waitForTestId("about-version")).text();
  check(`About Warden says ${env.NEXT}`, about.trim() === `Warden ${env.NEXT}`, about);
  const aboutText = await (await session.byTestId("about-dialog")).text();
  check("…and where the data lives", aboutText.includes("Conversations") && aboutText.includes(path.join(env.XDG_STATE_HOME, "warden", "logs")), aboutText);
  const wid2 = sh("xdotool", ["search", "--onlyvisible", "--name", "^Warden$"]).split("\n")[0];
  sh("xdotool", ["windowsize", "--sync", wid2, "1000", "700"]);
  await sleep(500);
  await quit();
  await session.delete();
  session = null;

  // 6. The window comes back at the size it had.
  const stateFile = path.join(env.XDG_CONFIG_HOME, "dev.warden.app", "window-state.json");
  let saved = {};
  try {
    saved = JSON.parse(readFileSync(stateFile, "utf8")).main ?? {};
  } catch {}
  check(`the window's size is kept (${stateFile}: ${saved.width}×${saved.height})`, saved.width === 1000 && saved.height === 700);
  const again = spawn(APP, [], { stdio: "ignore" });
  const wid3 = await until("the window again", () => sh("xdotool", ["search", "--onlyvisible", "--name", "^Warden$"]).split("\n")[0], 60_000);
  await sleep(1000);
  const geometry = sh("xdotool", ["getwindowgeometry", "--shell", wid3]);
  check("…and it opens at that size", /WIDTH=1000\b/.test(geometry) && /HEIGHT=700\b/.test(geometry), geometry.replace(/\n/g, " "));
  await quit();
  again.kill();
} catch (e) {
  bad("the desktop checks ran to the end", e.message);
} finally {
  await session?.delete();
  server.close();
  writeFileSync(path.join(env.WORK, "desktop-checks"), `checks: ${passed} ${failed}\n`);
}
process.exit(failed ? 1 : 0);
