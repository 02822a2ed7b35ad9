// Drives Warden through WebDriver for bench/app: PSS after a long conversation, the page's frame
// times while a large answer streams in, and the longest frame of a 200 KB paste typed as Ctrl+V
// through XTEST from a real X clipboard (xclip), against the same paste into a plain textarea in
// the same run. Prints one JSON object on stdout.
// Env: WARDEN_APP, WARDEN_HOME, PROJECT, PROVIDER_URL, DRIVER_URL, BENCH_MESSAGES, BENCH_DELTAS, BENCH_TOOLS.

import { execFileSync, spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";

import { Session, sleep } from "../../tests/e2e/lib/webdriver.mjs";
import { LONGEST_FRAME, WATCH_FRAMES } from "../../tests/e2e/lib/frames.mjs";

const env = process.env;
const log = (...a) => console.error("bench:", ...a);

// Settings before launch: the loopback provider, the project; the key comes from the environment.
mkdirSync(env.WARDEN_HOME, { recursive: true });
writeFileSync(
  path.join(env.WARDEN_HOME, "settings.json"),
  JSON.stringify({
    trustLevel: "guided",
    activeProvider: "anthropic",
    providers: { anthropic: { baseUrl: env.PROVIDER_URL, model: "claude-test" } },
    projectDir: env.PROJECT,
  }),
);
process.env.ANTHROPIC_API_KEY = "bench-not-a-real-key";

function appPid() {
  for (const p of readdirSync("/proc")) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const argv0 = readFileSync(`/proc/${p}/cmdline`, "utf8").split("\0")[0];
      if (argv0 === env.WARDEN_APP) return Number(p);
    } catch {
      // gone
    }
  }
  return null;
}

/** PSS (KiB) of `pid` and each descendant, by program name: where memory goes. */
function treePssByProcess(pid) {
  const out = {};
  for (const p of treePids(pid)) {
    try {
      const name = readFileSync(`/proc/${p}/comm`, "utf8").trim();
      const kib = Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${p}/smaps_rollup`, "utf8"))?.[1] ?? 0);
      out[name] = (out[name] ?? 0) + kib;
    } catch {
      // gone
    }
  }
  return out;
}

/**
 * PSS (KiB) of the WebKit web process under `pid`, split by mapping: malloc's "[heap]" (brk),
 * anonymous maps (JavaScriptCore's heap, bmalloc/libpas, big mallocs), files, and the rest.
 */
function webPssByMapping(pid) {
  const web = treePids(pid).find((p) => {
    try {
      return readFileSync(`/proc/${p}/comm`, "utf8").trim() === "WebKitWebProces";
    } catch {
      return false;
    }
  });
  const out = { heap: 0, anon: 0, file: 0, other: 0 };
  if (web === undefined) return out;
  let kind = "other";
  try {
    for (const line of readFileSync(`/proc/${web}/smaps`, "utf8").split("\n")) {
      const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
      if (head) {
        const name = head[1].trim();
        kind = name === "" ? "anon" : name === "[heap]" ? "heap" : name.startsWith("/") ? "file" : "other";
      } else if (line.startsWith("Pss:")) {
        out[kind] += Number(line.split(/\s+/)[1]);
      }
    }
  } catch {
    // gone
  }
  return out;
}

/** What the page holds: elements in the document, mounted messages. (WebKit tells no JS heap size.) */
const PAGE_STATS = `return {
  elements: document.getElementsByTagName('*').length,
  messages: document.querySelectorAll('[data-testid="message"]').length,
};`;

/** Per-process PSS, the web process's split and the page's counts: where the memory is, for INFO rows. */
async function memorySnapshot(s, pid) {
  return { byProcess: treePssByProcess(pid), web: webPssByMapping(pid), page: await s.execute(PAGE_STATS) };
}

function treePssKiB(pid) {
  return Object.values(treePssByProcess(pid)).reduce((a, b) => a + b, 0);
}

/** `pid` and all its descendants. */
function treePids(pid) {
  const children = new Map();
  for (const p of readdirSync("/proc")) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const stat = readFileSync(`/proc/${p}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(p));
    } catch {
      // gone
    }
  }
  const all = [];
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop();
    all.push(p);
    stack.push(...(children.get(p) ?? []));
  }
  return all;
}

const assistantCount = (s) => s.count('[data-testid="message"][data-role="assistant"]');

async function send(s, text) {
  const input = await s.byTestId("composer-input");
  await input.type(text);
  await (await s.byTestId("composer-send")).click();
}

async function idle(s) {
  await s.waitFor("the turn to end", async () => (await s.count('[data-testid="composer-stop"]')) === 0, {
    timeoutMs: 120_000,
    intervalMs: 20,
  });
}

/** Count, max, p95, median and frames over 50 ms of a list of frame intervals (ms). */
function frameStats(frames) {
  const f = [...frames].sort((a, b) => a - b);
  const at = (q) => f[Math.min(f.length - 1, Math.floor(f.length * q))] ?? NaN;
  return { count: f.length, maxMs: f.at(-1) ?? NaN, p95Ms: at(0.95), medianMs: at(0.5), over50: f.filter((x) => x > 50).length };
}

const describe = (st) =>
  `${st.count} frames, median ${st.medianMs.toFixed(1)} ms, p95 ${st.p95Ms.toFixed(1)} ms, max ${st.maxMs.toFixed(1)} ms, ${st.over50} over 50 ms`;

/**
 * 200 KB of text on the X clipboard, pasted with a real Ctrl+V into the message field (which takes
 * it as a chip) and into a plain textarea (what the field did before): the longest frame of each.
 */
async function pasteFrames(s) {
  const text = Array.from({ length: 4000 }, (_, i) => `line ${String(i).padStart(4, "0")}: ${"x".repeat(40)}`).join("\n");
  const file = path.join(env.RUN_DIR ?? "/tmp", "bench-paste.txt");
  writeFileSync(file, text);
  const owner = spawn("xclip", ["-quiet", "-selection", "clipboard", "-t", "UTF8_STRING", "-i", file], { stdio: "ignore" });
  const x = (...args) => execFileSync(args[0], args.slice(1), { encoding: "utf8" });
  try {
    await s.waitFor("the clipboard holding the text", async () => {
      try {
        return x("xclip", "-o", "-selection", "clipboard", "-t", "TARGETS").includes("UTF8_STRING");
      } catch {
        return false;
      }
    });
    const win = x("xdotool", "search", "--onlyvisible", "--name", "^Warden$").trim().split("\n")[0];
    x("xdotool", "windowfocus", "--sync", win);
    await s.execute(`document.querySelector('[data-testid="composer-input"]').focus(); return true;`);
    await s.execute(WATCH_FRAMES);
    x("xdotool", "key", "--clearmodifiers", "ctrl+v");
    await s.waitFor("the chip", async () => (await s.count('[data-testid="composer-pasted-item"]')) === 1, { timeoutMs: 20_000 });
    const chipMs = await s.executeAsync(LONGEST_FRAME);
    await s.execute(`document.querySelector('[data-testid="composer-pasted-item"] button').click(); return true;`);
    await s.execute(`const a = document.createElement("textarea"); a.id = "bench-paste";
      a.style.cssText = "position:fixed;left:0;top:0;width:300px;height:80px"; document.body.append(a); a.focus(); return true;`);
    await s.execute(WATCH_FRAMES);
    x("xdotool", "key", "--clearmodifiers", "ctrl+v");
    await s.waitFor("the textarea filled", async () =>
      (await s.execute(`return document.getElementById("bench-paste").value.length`)) >= text.length - 10,
      { timeoutMs: 20_000 },
    );
    const textareaMs = await s.executeAsync(LONGEST_FRAME);
    await s.execute(`document.getElementById("bench-paste").remove(); return true;`);
    return { bytes: text.length, chipMaxMs: chipMs, textareaMaxMs: textareaMs };
  } finally {
    owner.kill();
  }
}

const result = {};
const s = await Session.create(env.DRIVER_URL, env.WARDEN_APP);
try {
  // A key in the keychain, so the UI skips its first-run screen; then boot the UI again.
  await s.waitForTestId("app-root", { timeoutMs: 30_000 });
  await s.executeAsync(
    `const done = arguments[arguments.length - 1];
     window.__TAURI_INTERNALS__.invoke("keys_set", { name: "anthropic", value: "bench-not-a-real-key" }).then(done, done);`,
  );
  // The settings file above was written by hand, not by Warden: until the user accepts it, Warden
  // uses the safe defaults (every call asks), and the stream's tool calls would wait on approvals
  // nobody gives. Accepted as a user would in Settings.
  await s.executeAsync(
    `const done = arguments[arguments.length - 1];
     window.__TAURI_INTERNALS__.invoke("settings_accept_file", {}).then(done, done);`,
  );
  await s.execute("location.reload()");
  await s.waitForTestId("composer-input", { timeoutMs: 30_000 });
  const pid = appPid();
  await sleep(3000);
  result.pssStartKiB = treePssKiB(pid);
  result.pssStartByProcess = treePssByProcess(pid);

  // Frame times: a rAF loop in the page, read back afterwards. First 2 s of the idle page (the
  // reference: what this display gives an idle WebKit page), then while a big answer streams. The
  // end of the stream is awaited inside the page, so WebDriver does not poll the page meanwhile.
  await s.cmd("POST", "/timeouts", { script: 300_000 });
  const startFrames = `
    window.__bench = { frames: [], stop: false };
    let last = performance.now();
    const tick = (t) => { window.__bench.frames.push(t - last); last = t; if (!window.__bench.stop) requestAnimationFrame(tick); };
    requestAnimationFrame(tick);`;
  const stopFrames = "window.__bench.stop = true; return window.__bench.frames.slice(1);";
  await s.execute(startFrames);
  await sleep(2000);
  result.idleFrames = frameStats(await s.execute(stopFrames));
  log(`idle: ${describe(result.idleFrames)}`);

  result.paste = await pasteFrames(s);
  log(`paste of ${result.paste.bytes} characters: longest frame ${result.paste.chipMaxMs.toFixed(0)} ms as a chip, ${result.paste.textareaMaxMs.toFixed(0)} ms in a plain textarea`);

  const before = await assistantCount(s);
  if (env.BENCH_PROBE) {
    await s.execute(`
      const P = (window.__probe = { raf: 0, lay: 0, log: [] });
      const sh = Object.getOwnPropertyDescriptor(Element.prototype, "scrollHeight");
      Object.defineProperty(Element.prototype, "scrollHeight", { configurable: true, get() { const a = performance.now(); const v = sh.get.call(this); P.lay += performance.now() - a; return v; } });
      const raf = window.requestAnimationFrame.bind(window);
      window.requestAnimationFrame = (cb) => raf((t) => { const s0 = performance.now(); cb(t); queueMicrotask(() => { P.raf += performance.now() - s0; }); });
      let last = performance.now();
      const tick = (t) => { P.log.push([Math.round(t - last), Math.round(P.raf), Math.round(P.lay)]); P.raf = 0; P.lay = 0; last = t; if (P.log.length < 2000) raf(tick); };
      raf(tick);`);
  }
  await s.execute(startFrames);
  const t0 = Date.now();
  await send(s, `bench ${env.BENCH_DELTAS} ${env.BENCH_TOOLS}`);
  await s.executeAsync(
    `const [tools, before, done] = arguments;
     const check = () => {
       const answers = document.querySelectorAll('[data-testid="message"][data-role="assistant"]').length;
       const blocks = document.querySelectorAll('[data-testid="tool-block"]').length;
       const busy = document.querySelector('[data-testid="composer-stop"]') !== null;
       if (answers > before && blocks >= tools && !busy) done(true); else setTimeout(check, 250);
     };
     check();`,
    [Number(env.BENCH_TOOLS), before],
  );
  result.streamSeconds = (Date.now() - t0) / 1000;
  result.streamFrames = frameStats(await s.execute(stopFrames));
  log(`stream: ${describe(result.streamFrames)} in ${result.streamSeconds} s`);
  if (env.BENCH_PROBE) log("probe [frame ms, rAF callbacks + their microtasks ms, of which layout forced by scrollHeight ms]:", JSON.stringify(await s.execute("return window.__probe.log;")));
  await sleep(2000);
  result.pssAfterStreamByProcess = treePssByProcess(pid);
  log(`PSS by process: start ${JSON.stringify(result.pssStartByProcess)}, after the stream ${JSON.stringify(result.pssAfterStreamByProcess)}`);

  // The page's requests to the app during the conversation, by command (an INFO row): the WebKit
  // web process keeps about 3 KiB for each message to or from the app (bench/app/ipc_retention.sh).
  await s.execute(`
    window.__calls = {};
    const count = (k) => { window.__calls[k] = (window.__calls[k] ?? 0) + 1; };
    const f = window.fetch.bind(window);
    window.fetch = (url, ...rest) => { count("fetch " + String(url).split("?")[0].slice(0, 60)); return f(url, ...rest); };
    if (window.ipc?.postMessage) { const pm = window.ipc.postMessage.bind(window.ipc); window.ipc.postMessage = (m) => { count("postMessage"); return pm(m); }; }
    return true;`);
  // A long conversation: user + assistant messages until BENCH_MESSAGES.
  const turns = Math.ceil(Number(env.BENCH_MESSAGES) / 2);
  const c0 = Date.now();
  for (let i = 0; i < turns; i++) {
    await send(s, `message ${i}`);
    await idle(s);
    if (i % 100 === 99) {
      const snap = await memorySnapshot(s, pid);
      (result.growth ??= []).push({ turns: i + 1, ...snap });
      log(`conversation: ${i + 1}/${turns} turns`, JSON.stringify(snap));
    }
  }
  result.conversationSeconds = (Date.now() - c0) / 1000;
  result.ipcCalls = await s.execute("return window.__calls");
  log("requests during the conversation:", JSON.stringify(result.ipcCalls));
  // The conversation's own count: the view mounts only the newest messages.
  result.messages = Number(
    await s.execute(`return document.querySelector('[data-testid="conversation-view"]').dataset.messageCount;`),
  );
  await sleep(3000);
  result.pssAfterByProcess = treePssByProcess(pid);
  result.pssAfterKiB = Object.values(result.pssAfterByProcess).reduce((a, b) => a + b, 0);
  log(`conversation: ${result.messages} messages, PSS +${((result.pssAfterKiB - result.pssStartKiB) / 1024).toFixed(1)} MiB`);
  // Diagnostics only (INFO rows), after the figure above: where the memory is, then whether it
  // goes after 30 s idle (WebKit's collector runs on its own timers). The growth samples above show
  // the web process's PSS every 100 turns: a drop there is a full collection.
  result.atEnd = await memorySnapshot(s, pid);
  log("at the end:", JSON.stringify(result.atEnd));
  await sleep(30_000);
  result.afterIdle = await memorySnapshot(s, pid);
  log("after 30 s idle:", JSON.stringify(result.afterIdle));
} catch (err) {
  result.error = String(err?.message ?? err);
} finally {
  await s.delete();
}
console.log(JSON.stringify(result));
