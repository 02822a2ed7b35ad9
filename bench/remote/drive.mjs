// Runs one `warden exec --json` turn (the command line after `--`), answers each confirmation the
// moment it is read, and prints JSON: the wall time, the events read, and each approval's round
// trip (the answer written → the call's result read), in milliseconds.
// Usage: node drive.mjs -- warden exec --json …
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

const argv = process.argv.slice(process.argv.indexOf("--") + 1);
const started = process.hrtime.bigint();
const ms = (from, to) => Number(to - from) / 1e6;
const child = spawn(argv[0], argv.slice(1), { stdio: ["pipe", "pipe", "inherit"] });
const answered = new Map();
const roundTrips = [];
let events = 0;
createInterface({ input: child.stdout }).on("line", (line) => {
  events += 1;
  const { event, payload } = JSON.parse(line);
  if (event === "chat:tool-confirm") {
    answered.set(payload.toolId, process.hrtime.bigint());
    child.stdin.write(JSON.stringify({ confirmId: payload.confirmId, approved: true }) + "\n");
  } else if (event === "chat:tool-result" && answered.has(payload.toolId)) {
    roundTrips.push(ms(answered.get(payload.toolId), process.hrtime.bigint()));
  }
});
child.on("exit", (code) => {
  const wall = ms(started, process.hrtime.bigint());
  console.log(JSON.stringify({ code, wallMs: wall, events, roundTrips }));
  process.exit(code === 0 ? 0 : 1);
});
