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
for (let i = 0; i < runs; i++) {
  const s = await Session.create(process.env.DRIVER_URL, app);
  try {
    const started = appStartMs();
    let paintAt = NaN;
    for (let tries = 0; tries < 200 && Number.isNaN(paintAt); tries++) {
      paintAt = await s.execute(
        `const p = performance.getEntriesByType("paint").find((e) => e.name === "first-contentful-paint");
         return p ? performance.timeOrigin + p.startTime : NaN;`,
      ).then((v) => (v === null ? NaN : Number(v)));
      if (Number.isNaN(paintAt)) await sleep(50);
    }
    times.push(paintAt - started);
  } finally {
    await s.delete();
  }
  await sleep(300);
}
times.sort((a, b) => a - b);
console.error(`bench: ${app.split("/").pop()} first paint ${times.map((t) => t.toFixed(0)).join(", ")} ms`);
const median = times[Math.floor((times.length - 1) / 2)];
console.log(median === undefined ? NaN : Math.round(median));
