// Drives Warden through WebDriver for bench/app: PSS after a long conversation and the page's
// frame times while a large answer streams in. Prints one JSON object on stdout.
// Env: WARDEN_APP, WARDEN_HOME, PROJECT, PROVIDER_URL, DRIVER_URL, BENCH_MESSAGES, BENCH_DELTAS, BENCH_TOOLS.

import { readdirSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";

import { Session, sleep } from "../../tests/e2e/lib/webdriver.mjs";

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

function treePssKiB(pid) {
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
  let total = 0;
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop();
    try {
      total += Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${p}/smaps_rollup`, "utf8"))?.[1] ?? 0);
    } catch {
      // gone
    }
    stack.push(...(children.get(p) ?? []));
  }
  return total;
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

const result = {};
const s = await Session.create(env.DRIVER_URL, env.WARDEN_APP);
try {
  // A key in the keychain, so the UI skips its first-run screen; then boot the UI again.
  await s.waitForTestId("app-root", { timeoutMs: 30_000 });
  await s.executeAsync(
    `const done = arguments[arguments.length - 1];
     window.__TAURI_INTERNALS__.invoke("keys_set", { name: "anthropic", value: "bench-not-a-real-key" }).then(done, done);`,
  );
  await s.execute("location.reload()");
  await s.waitForTestId("composer-input", { timeoutMs: 30_000 });
  const pid = appPid();
  await sleep(3000);
  result.pssStartKiB = treePssKiB(pid);

  // Frame times while a big answer streams: a rAF loop in the page, read back afterwards.
  await s.execute(`
    window.__bench = { frames: [], stop: false };
    let last = performance.now();
    const tick = (t) => { window.__bench.frames.push(t - last); last = t; if (!window.__bench.stop) requestAnimationFrame(tick); };
    requestAnimationFrame(tick);`);
  const before = await assistantCount(s);
  const t0 = Date.now();
  await send(s, `bench ${env.BENCH_DELTAS} ${env.BENCH_TOOLS}`);
  await s.waitFor("the streamed answer", async () => (await assistantCount(s)) > before, { timeoutMs: 60_000 });
  await s.waitFor(
    "all tool blocks",
    async () => (await s.count('[data-testid="tool-block"]')) >= Number(env.BENCH_TOOLS),
    { timeoutMs: 300_000, intervalMs: 200 },
  );
  await idle(s);
  result.streamSeconds = (Date.now() - t0) / 1000;
  const frames = await s.execute("window.__bench.stop = true; return window.__bench.frames.slice(1);");
  frames.sort((a, b) => a - b);
  result.frames = frames.length;
  result.frameMaxMs = frames.at(-1);
  result.frameP95Ms = frames[Math.floor(frames.length * 0.95)];
  result.framesOver50ms = frames.filter((f) => f > 50).length;
  log(`stream: ${result.frames} frames, max ${result.frameMaxMs?.toFixed(1)} ms, p95 ${result.frameP95Ms?.toFixed(1)} ms`);

  // A long conversation: user + assistant messages until BENCH_MESSAGES.
  const turns = Math.ceil(Number(env.BENCH_MESSAGES) / 2);
  const c0 = Date.now();
  for (let i = 0; i < turns; i++) {
    await send(s, `message ${i}`);
    await idle(s);
    if (i % 100 === 99) log(`conversation: ${i + 1}/${turns} turns`);
  }
  result.conversationSeconds = (Date.now() - c0) / 1000;
  // The conversation's own count: the view mounts only the newest messages.
  result.messages = Number(
    await s.execute(`return document.querySelector('[data-testid="conversation-view"]').dataset.messageCount;`),
  );
  await sleep(3000);
  result.pssAfterKiB = treePssKiB(pid);
} catch (err) {
  result.error = String(err?.message ?? err);
} finally {
  await s.delete();
}
console.log(JSON.stringify(result));
