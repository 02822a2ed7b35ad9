// Launch → first contentful paint of an app's page, through WebDriver (the same path for every
// app measured). The launch is the app process's start time (/proc, clock-tick resolution); the
// paint is the page's `first-contentful-paint` entry on the epoch clock (timeOrigin + startTime).
// Usage: node paint.mjs <app binary> <runs>  → prints the median in ms (NaN when never painted).
// Env: DRIVER_URL.

import { readFileSync, readdirSync } from "node:fs";
import { execFileSync } from "node:child_process";

import { Session, sleep } from "../../tests/e2e/lib/webdriver.mjs";

const [app, runsArg] = process.argv.slice(2);
const runs = Number(runsArg ?? 5);
const ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
const bootEpochMs = Number(/^btime (\d+)$/m.exec(readFileSync("/proc/stat", "utf8"))?.[1] ?? NaN) * 1000;

/** Epoch ms at which the newest process running `app` started. */
function appStartMs() {
  let newest = -1;
  for (const p of readdirSync("/proc")) {
    if (!/^\d+$/.test(p)) continue;
    try {
      if (readFileSync(`/proc/${p}/cmdline`, "utf8").split("\0")[0] !== app) continue;
      const stat = readFileSync(`/proc/${p}/stat`, "utf8");
      const start = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
      newest = Math.max(newest, start);
    } catch {
      // gone
    }
  }
  return newest < 0 ? NaN : bootEpochMs + (newest / ticksPerSecond) * 1000;
}

const times = [];
// Where the time goes, per launch: launch → the page's time origin (process, webview, load
// start), then inside the page: the document's response, its scripts run (DOMContentLoaded),
// the paint.
const parts = { page: [], response: [], scripts: [], paint: [] };
for (let i = 0; i < runs; i++) {
  const s = await Session.create(process.env.DRIVER_URL, app);
  try {
    const started = appStartMs();
    let at = null;
    for (let tries = 0; tries < 200 && at === null; tries++) {
      at = await s.execute(
        `const p = performance.getEntriesByType("paint").find((e) => e.name === "first-contentful-paint");
         const n = performance.getEntriesByType("navigation")[0];
         return p ? { origin: performance.timeOrigin, paint: p.startTime,
                      response: n ? n.responseEnd : NaN, scripts: n ? n.domContentLoadedEventEnd : NaN } : null;`,
      );
      if (at === null) await sleep(50);
    }
    if (at === null) {
      times.push(NaN);
    } else {
      times.push(at.origin + at.paint - started);
      parts.page.push(at.origin - started);
      parts.response.push(at.response);
      parts.scripts.push(at.scripts);
      parts.paint.push(at.paint);
    }
  } finally {
    await s.delete();
  }
  await sleep(300);
}
const medianOf = (list) => {
  const sorted = list.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  return sorted.length ? Math.round(sorted[Math.floor((sorted.length - 1) / 2)]) : NaN;
};
const name = app.split("/").pop();
console.error(`bench: ${name} first paint ${[...times].sort((a, b) => a - b).map((t) => t.toFixed(0)).join(", ")} ms`);
console.error(
  `bench: ${name} page starts ${medianOf(parts.page)} ms after launch; then (medians, ms from the page's start) ` +
    `response ${medianOf(parts.response)}, scripts run ${medianOf(parts.scripts)}, first paint ${medianOf(parts.paint)}`,
);
console.log(medianOf(times));
