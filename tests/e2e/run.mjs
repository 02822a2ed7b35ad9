// Runs every spec in tests/e2e/specs against a fresh app window (one WebDriver session each).
// A spec is `export default async function (t) { … }` with `t` from `context()` below.

import { execFile } from "node:child_process";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

import { Session } from "./lib/webdriver.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const run = promisify(execFile);
const env = (name) => {
  const v = process.env[name];
  if (!v) throw new Error(`e2e: ${name} is not set (run tests/e2e/run.sh)`);
  return v;
};

function context(session, specName) {
  return {
    s: session,
    env,
    run,
    /** Screenshot of the whole (virtual) screen after the DOM change has been painted. */
    async shot(name) {
      await session.afterPaint();
      const file = path.join(here, "screenshots", `${specName}-${name}.png`);
      await run("import", ["-window", "root", file]);
      console.log(`    screenshot ${path.relative(process.cwd(), file)}`);
    },
    step(what) {
      console.log(`  - ${what}`);
    },
    assert(cond, message) {
      if (!cond) throw new Error(`assertion failed: ${message}`);
    },
  };
}

const filter = process.env.E2E_SPECS ?? "";
const specs = (await readdir(path.join(here, "specs"))).filter((f) => f.endsWith(".spec.mjs") && f.includes(filter)).sort();
let failed = 0;
for (const file of specs) {
  const name = file.replace(/\.spec\.mjs$/, "");
  console.log(`e2e: ${name}`);
  const started = Date.now();
  let session;
  try {
    session = await Session.create(env("E2E_DRIVER_URL"), env("APP"));
    const spec = (await import(path.join(here, "specs", file))).default;
    await spec(context(session, name));
    console.log(`e2e: ${name} passed (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  } catch (err) {
    failed++;
    console.error(`e2e: ${name} FAILED: ${err.stack ?? err}`);
    if (session) {
      try {
        await context(session, name).shot("failure");
      } catch {
        // no window to capture
      }
    }
  } finally {
    await session?.delete();
  }
}
console.log(`e2e: ${specs.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : specs.length ? 0 : 1);
