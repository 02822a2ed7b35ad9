// How often Warden asks over a replayed development session (session.mjs): ten conversations,
// each a separate `warden exec --json` in one project and one Warden home, with a scripted model
// (an Anthropic Messages server on loopback that makes the session's calls one by one) and a
// scripted user who, the first time each kind of call asks, answers yes and "remember" as well as
// this build lets them, and answers no to every dangerous call.
//
//   bash bench/prompts/run.sh             with a keychain of its own (what keeps rules: below)
//   node bench/prompts/run.mjs            the build in src-tauri/target (release, else debug)
//   WARDEN=path/to/warden node bench/prompts/run.mjs
//
// Rules and host answers are kept in the sealed settings, whose seal key lives in the keychain:
// without a session bus and an unlocked keyring nothing is kept past a conversation, and the
// script says so. run.sh starts both (dbus-run-session, gnome-keyring) for the run.
//
// Runs are named by what the user's "remember" is: "session" (the baseline: the same build with
// nothing about a tool call kept past its conversation, as every build before permission rules)
// and "always" (the rule each confirmation offers, "Always allow…", kept for the project; where
// none is offered, "session"). RUNS="session,always" is the default: both in the same run.
// Network questions are answered "project" in both (a host's allow rule, kept since the box issue).
//
// Printed: per conversation, the non-dangerous confirmations and the dangerous calls (asked,
// refused, or silent); the totals; and, with two runs, the cut. The goal the rules issue sets:
// at least 80 % fewer non-dangerous confirmations over the ten conversations, and no dangerous
// call silent in any run. The script exits 1 when a dangerous call ran unasked, or, with two runs,
// when the last cuts the first's non-dangerous confirmations by less than 80 %.

import { spawn, execFileSync } from "node:child_process";
import { createServer } from "node:http";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { conversations, HOSTS } from "./session.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, "..", "..");
const target = process.env.CARGO_TARGET_DIR ?? join(repo, "src-tauri", "target");
const warden =
  process.env.WARDEN ?? [join(target, "release", "warden"), join(target, "debug", "warden")].find((p) => existsSync(p));
if (!warden) {
  console.error("no warden build: cargo build -p warden-cli (or set WARDEN)");
  process.exit(2);
}
const everything = join(repo, "tests", "mcp", "node_modules", ".bin", "mcp-server-everything");
if (!existsSync(everything)) {
  console.error("missing tests/mcp's npm packages: bash scripts/setup.sh installs them");
  process.exit(2);
}

const session = conversations();

/** A loopback server answering 200 to anything: the package registries' hosts lead here. */
function registry() {
  const server = createServer((_, res) => res.end("ok\n"));
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

/** One server-sent event of Anthropic's Messages stream. */
const sse = (event, data) => `event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`;

/** The scripted model: call `step` of conversation `c`, or the closing words once all are made. */
function model(port) {
  let ids = 0;
  const server = createServer((req, res) => {
    if (req.method !== "POST" || !req.url.endsWith("/messages")) {
      res.writeHead(404, { "content-type": "application/json" });
      return res.end(JSON.stringify({ type: "error", error: { type: "not_found_error", message: "not here" } }));
    }
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const request = JSON.parse(body);
      const first = JSON.stringify(request.messages[0]?.content ?? "");
      const c = Number(/bench conversation (\d+)/.exec(first)?.[1] ?? 0);
      const step = request.messages
        .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
        .filter((b) => b.type === "tool_result").length;
      const call = session[c][step];
      res.writeHead(200, { "content-type": "text/event-stream" });
      const usage = { input_tokens: 10, output_tokens: 5 };
      let out = sse("message_start", { message: { id: `m${ids++}`, type: "message", role: "assistant", model: "bench", content: [], stop_reason: null, usage } });
      if (call) {
        const input = JSON.stringify(call.input).replaceAll("PORT", String(port));
        out += sse("content_block_start", { index: 0, content_block: { type: "tool_use", id: `toolu_${c}_${step}`, name: call.tool, input: {} } });
        out += sse("content_block_delta", { index: 0, delta: { type: "input_json_delta", partial_json: input } });
        out += sse("content_block_stop", { index: 0 });
        out += sse("message_delta", { delta: { stop_reason: "tool_use" }, usage });
      } else {
        out += sse("content_block_start", { index: 0, content_block: { type: "text", text: "" } });
        out += sse("content_block_delta", { index: 0, delta: { type: "text_delta", text: "done" } });
        out += sse("content_block_stop", { index: 0 });
        out += sse("message_delta", { delta: { stop_reason: "end_turn" }, usage });
      }
      res.end(out + sse("message_stop", {}));
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

/** A project as a developer has it: a repository with a commit, a few files. */
function project(root) {
  const dir = join(root, "project");
  for (const d of ["src/a", "docs", "scripts", "build"]) mkdirSync(join(dir, d), { recursive: true });
  writeFileSync(join(dir, "README.md"), "# bench\nTODO: nothing\nlast line\n");
  writeFileSync(join(dir, "docs/words.txt"), "b\na\na\nc\n");
  writeFileSync(join(dir, "src/a/lib.rs"), "// TODO: more\npub fn f() {}\n");
  writeFileSync(join(dir, "scripts/run.sh"), "echo run\n");
  const git = (...args) => execFileSync("git", ["-c", "user.name=b", "-c", "user.email=b@b.test", ...args], { cwd: dir });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "-m", "start");
  return dir;
}

/** One conversation through `warden exec --json`; what was asked and how each call ended. */
function converse(c, { dir, home, modelPort, mcpConfig, remember }) {
  const args = [
    "exec", "--json", "--provider", "anthropic", "--model", "bench", "--base-url", `http://127.0.0.1:${modelPort}`,
    "--project", dir, "--allow", "all", "--approval-timeout", "0", "--mcp-config", mcpConfig, "--ephemeral",
    `bench conversation ${c}`,
  ];
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    WARDEN_HOME: home,
    ANTHROPIC_API_KEY: "bench-key",
    WARDEN_NET_RESOLVE: [...HOSTS, "new-domain.test"].map((h) => `${h}=127.0.0.1`).join(","),
  };
  // The keychain holds the settings' seal: without it nothing a user allows is kept past a run.
  if (process.env.DBUS_SESSION_BUS_ADDRESS) env.DBUS_SESSION_BUS_ADDRESS = process.env.DBUS_SESSION_BUS_ADDRESS;
  const child = spawn(warden, args, { env, stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const calls = session[c];
  const asked = new Map(); // toolId → confirmations
  const stillAsks = []; // what the non-dangerous confirmations were about
  const results = new Map(); // toolId → {status, code}
  const answer = (line) => child.stdin.write(JSON.stringify(line) + "\n");
  const lines = createInterface({ input: child.stdout });
  lines.on("line", (text) => {
    let line;
    try {
      line = JSON.parse(text);
    } catch {
      return;
    }
    const p = line.payload ?? {};
    if (line.event === "chat:tool-confirm") {
      asked.set(p.toolId, (asked.get(p.toolId) ?? 0) + 1);
      const call = calls[Number(/_(\d+)$/.exec(p.toolId ?? "")?.[1])];
      if (call?.danger) return answer({ confirmId: p.confirmId, approved: false, reason: "bench: dangerous" });
      const network = p.kind === "network";
      const kept = remember === "always" && !p.suggestedRule ? "session" : remember;
      answer({ confirmId: p.confirmId, approved: true, remember: network ? "project" : kept });
      if (!call?.danger) {
        const what = p.kind === "network" ? `network ${p.network?.host}` : `${p.toolName} ${p.input?.command ?? p.input?.path ?? ""}`;
        stillAsks.push(`${what.trim()} (${p.askedBecause ?? "?"}${p.suggestedRule ? "" : ", nothing offered"})`);
      }
    } else if (line.event === "chat:tool-result") {
      results.set(p.toolId, { status: p.status, code: p.code ?? p.metadata?.code ?? null });
    }
  });
  return new Promise((resolve) => {
    child.on("close", (code) => {
      const rows = calls.map((call, step) => {
        const id = `toolu_${c}_${step}`;
        return { call, asks: asked.get(id) ?? 0, result: results.get(id) ?? null };
      });
      resolve({ code, rows, stderr, stillAsks });
    });
  });
}

/** Refusals that stop a dangerous call without asking. */
const REFUSED = new Set(["BLOCKED_COMMAND", "PERMISSION_DENIED", "SANDBOX_VIOLATION", "USER_REJECTED", "VALIDATION_ERROR"]);

async function run(remember) {
  const root = mkdtempSync(join(repo, "bench", "out", "prompts-"));
  const reg = await registry();
  const llm = await model(reg.address().port);
  try {
    const dir = project(root);
    const home = join(root, "home");
    const mcpConfig = join(root, "mcp.json");
    const server = { command: everything, args: ["stdio"] };
    writeFileSync(mcpConfig, JSON.stringify({ mcpServers: { notes: server, calc: server } }));
    const out = { remember, conversations: [], confirmations: 0, asks: [], dangerous: { asked: 0, refused: 0, silent: [] } };
    for (let c = 0; c < session.length; c++) {
      const ctx = { dir, home, modelPort: llm.address().port, mcpConfig, remember };
      const { code, rows, stderr, stillAsks } = await converse(c, ctx);
      out.asks.push(...stillAsks);
      // A sandbox violation ends the conversation's turn with exit 1, as it should.
      const ended = rows.at(-1)?.result?.code === "SANDBOX_VIOLATION";
      if (code !== 0 && !ended) console.error(`conversation ${c}: exit ${code}\n${stderr.slice(-2000)}`);
      let confirmations = 0;
      for (const { call, asks, result } of rows) {
        if (!call.danger) {
          confirmations += asks;
        } else if (asks > 0) {
          out.dangerous.asked += 1;
        } else if (result && REFUSED.has(result.code)) {
          out.dangerous.refused += 1;
        } else {
          out.dangerous.silent.push(`${call.danger} (${result ? `${result.status} ${result.code ?? ""}` : "never ran"})`);
        }
      }
      out.conversations.push({ calls: rows.length, confirmations });
      out.confirmations += confirmations;
    }
    return out;
  } finally {
    reg.close();
    llm.close();
    rmSync(root, { recursive: true, force: true });
  }
}

mkdirSync(join(repo, "bench", "out"), { recursive: true });
if (!process.env.DBUS_SESSION_BUS_ADDRESS) {
  console.log("warning: no session bus: the settings cannot be sealed, so no answer is kept (use bench/prompts/run.sh)");
}
const calls = session.flat();
// A program and its subcommand, as Warden's session grants see a command.
const prefix = (command) => {
  const [program, sub] = command.split(" ");
  return /^[a-z][a-z-]*$/.test(sub ?? "") ? `${program} ${sub}` : program;
};
const prefixes = new Set(calls.filter((x) => x.tool === "bash" && !x.danger).map((x) => prefix(x.input.command)));
console.log(`warden: ${warden}`);
console.log(
  `session: ${session.length} conversations, ${calls.length} calls, ${calls.filter((x) => x.danger).length} dangerous, ` +
    `${new Set(calls.filter((x) => x.tool === "bash" && !x.danger).map((x) => x.input.command)).size} distinct commands ` +
    `(${prefixes.size} prefixes)`,
);
const runs = [];
for (const remember of (process.env.RUNS ?? "session,always").split(",")) {
  const result = await run(remember.trim());
  runs.push(result);
  console.log(`\nremember "${result.remember}": ${result.confirmations} non-dangerous confirmations`);
  console.log(`  per conversation: ${result.conversations.map((x) => x.confirmations).join(" ")}`);
  const d = result.dangerous;
  console.log(`  dangerous calls: ${d.asked} asked, ${d.refused} refused, ${d.silent.length} silent`);
  for (const s of d.silent) console.log(`    SILENT: ${s}`);
  if (process.env.SHOW_ASKS) for (const a of result.asks) console.log(`    asked: ${a}`);
}
if (runs.length >= 2) {
  const [base, last] = [runs[0], runs.at(-1)];
  const cut = 1 - last.confirmations / base.confirmations;
  console.log(`\ncut in non-dangerous confirmations: ${(cut * 100).toFixed(1)} % (goal >= 80 %)`);
  if (cut < 0.8) {
    console.log("verdict: FAILED: fewer than 80 % fewer confirmations than the first run");
    process.exitCode = 1;
  }
}
if (runs.some((r) => r.dangerous.silent.length > 0)) {
  console.log("verdict: FAILED: a dangerous call ran unasked");
  process.exitCode = 1;
}
