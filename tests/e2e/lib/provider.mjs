// A loopback stand-in for the Anthropic Messages API, scripted by what the user asked.
// It streams SSE shaped like src-tauri/crates/warden-testkit/wire/anthropic/*.sse (message_start, content blocks,
// text_delta / input_json_delta, message_delta, message_stop) and records every request body.
//
// Script (by the last user turn):
//   tool_result blocks            -> a short text answer ("Done.")
//   text containing "please write" -> a file_write tool_use (path/content from PROVIDER_WRITE_*;
//                                     "please write the file <path>" names the path)
//   text containing "please read"  -> a file_read tool_use of README.md
//   text "please call <tool> <json>" -> a tool_use of <tool> with <json> as its input (MCP tools)
//   text "bench <deltas> <tools>"  -> <deltas> text deltas then <tools> file_read tool_uses
//   text containing "talk slowly"  -> a long answer, 100 ms a word (time to press Stop or Esc)
//   text containing "rate limit once <tag>" -> 429 (retry-after 1) the first time, then the answer
//   text containing "drop once <tag>"       -> the first stream breaks off mid-answer, then the answer
//   text containing "drop early once <tag>" -> the first stream breaks off before any text, then the answer
//   text containing "always drop early"     -> every stream breaks off before any text
//   text containing "show a wide table"      -> a markdown heading and a table of 8 columns of long words
//   text "write a long file <path>"  -> a file_write tool_use of <path> with LONG_FILE_LINES numbered lines
//                                     (say it without "please write", which is matched first)
//   text "please plan <path>" (plan mode) -> a bash call writing <path>, then (with its result) a
//                                     propose_plan call of PLAN_STEPS; matched before tool results
//   anything else                  -> a streamed text answer
// A key starting with "sk-wrong" is refused (401) whatever the message.
//
// Usage as a process: `node provider.mjs` prints `PORT <n>` and serves until killed.
// GET /__requests returns the recorded request bodies (for asserts).

import http from "node:http";

const DELTA_DELAY_MS = Number(process.env.PROVIDER_DELTA_DELAY_MS ?? 15);
const WRITE_PATH = process.env.PROVIDER_WRITE_PATH ?? "notes/hello.txt";
const WRITE_CONTENT = process.env.PROVIDER_WRITE_CONTENT ?? "Hello from Warden.\nA second line.\n";

export const ANSWER = "Hello! I am Warden's test model. I can read files and, with your approval, change them.";

let counter = 0;
const nextId = (p) => `${p}_${Date.now().toString(36)}${(counter++).toString(36).padStart(4, "0")}`;
const sleep = (ms) => (ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve());

function lastUser(body) {
  const msgs = body?.messages ?? [];
  for (let i = msgs.length - 1; i >= 0; i--) if (msgs[i].role === "user") return msgs[i];
  return null;
}

function userText(msg) {
  if (!msg) return "";
  if (typeof msg.content === "string") return msg.content;
  return msg.content.filter((b) => b.type === "text").map((b) => b.text).join("\n");
}

function hasToolResult(msg) {
  return Array.isArray(msg?.content) && msg.content.some((b) => b.type === "tool_result");
}

/** The blocks to stream: [{type:"text", chunks:[…]}, {type:"tool_use", name, input}] and the stop reason. */
export function script(body) {
  const planned = planScript(body);
  if (planned) return planned;
  const msg = lastUser(body);
  if (hasToolResult(msg)) return { blocks: [{ type: "text", chunks: ["Done", "."] }], stop: "end_turn" };
  const text = userText(msg);
  const bench = /bench (\d+) (\d+)/.exec(text);
  if (bench) {
    const deltas = Number(bench[1]);
    const tools = Number(bench[2]);
    const blocks = [{ type: "text", chunks: Array.from({ length: deltas }, (_, i) => `w${i} `), fast: true }];
    for (let i = 0; i < tools; i++) blocks.push({ type: "tool_use", name: "file_read", input: { path: "README.md" } });
    return { blocks, stop: tools > 0 ? "tool_use" : "end_turn" };
  }
  if (/please write/i.test(text)) {
    const path = /please write the file (\S+)/i.exec(text)?.[1] ?? WRITE_PATH;
    return {
      blocks: [
        { type: "text", chunks: ["I'll write ", "the file."] },
        { type: "tool_use", name: "file_write", input: { path, content: WRITE_CONTENT } },
      ],
      stop: "tool_use",
    };
  }
  const call = /please call (\S+) (\{.*\})/i.exec(text);
  if (call) {
    return {
      blocks: [
        { type: "text", chunks: ["Calling ", call[1]] },
        { type: "tool_use", name: call[1], input: JSON.parse(call[2]) },
      ],
      stop: "tool_use",
    };
  }
  if (/please read/i.test(text)) {
    return {
      blocks: [
        { type: "text", chunks: ["Let me ", "read it."] },
        { type: "tool_use", name: "file_read", input: { path: "README.md" } },
      ],
      stop: "tool_use",
    };
  }
  if (/talk slowly/i.test(text)) {
    const chunks = Array.from({ length: 300 }, (_, i) => `slow${i} `);
    return { blocks: [{ type: "text", chunks, delayMs: 100 }], stop: "end_turn" };
  }
  if (/show a wide table/i.test(text)) {
    return { blocks: [{ type: "text", chunks: WIDE_TABLE.split(/(?<=\n)/) }], stop: "end_turn" };
  }
  const long = /write a long file (\S+)/i.exec(text);
  if (long) {
    return {
      blocks: [
        { type: "text", chunks: ["A long ", "file."] },
        { type: "tool_use", name: "file_write", input: { path: long[1], content: LONG_FILE } },
      ],
      stop: "tool_use",
    };
  }
  const words = ANSWER.split(/(?<= )/);
  return { blocks: [{ type: "text", chunks: words }], stop: "end_turn" };
}

/** The steps of the plan "please plan <path>" proposes. */
export const PLAN_STEPS = ["Read README.md", "Write the file", "Check the file"];

/**
 * "please plan <path>", the last message the user wrote: first a bash call that tries to write
 * <path> (plan mode's box is read-only), then, once its result is in, the plan. Null for any other
 * conversation, and once the plan's turn is over (the approval's message is another one).
 */
function planScript(body) {
  const msgs = body?.messages ?? [];
  let written = -1;
  for (let i = msgs.length - 1; i >= 0 && written < 0; i--) if (msgs[i].role === "user" && userText(msgs[i]).trim()) written = i;
  const path = /please plan (\S+)/i.exec(written >= 0 ? userText(msgs[written]) : "")?.[1];
  if (!path) return null;
  const answers = msgs.slice(written + 1).filter((m) => m.role === "assistant").length;
  if (answers === 0) {
    return {
      blocks: [
        { type: "text", chunks: ["Let me ", "look first."] },
        { type: "tool_use", name: "bash", input: { command: `echo x > ${path}` } },
      ],
      stop: "tool_use",
    };
  }
  if (answers === 1) {
    const plan = `## Plan\n\nThe project is read-only while planning, so **${path}** is written after approval.`;
    return {
      blocks: [
        { type: "text", chunks: ["Here is ", "my plan."] },
        { type: "tool_use", name: "propose_plan", input: { plan, steps: PLAN_STEPS } },
      ],
      stop: "tool_use",
    };
  }
  return null;
}

/** Words too long to fit 8 to a line of a narrow window: the table has to scroll sideways. */
const WIDE_WORDS = [
  "internationalization",
  "telecommunications",
  "incomprehensibilities",
  "electroencephalograph",
  "counterrevolutionary",
  "uncharacteristically",
  "compartmentalization",
  "interdisciplinarity",
];

/** A heading and emphasis (markdown a search snippet must not show raw), then the wide table. */
export const WIDE_TABLE = [
  "## The **quokka** table of `long` words",
  "",
  `| ${WIDE_WORDS.map((_, i) => `Column ${i + 1}`).join(" | ")} |`,
  `| ${WIDE_WORDS.map(() => "---").join(" | ")} |`,
  ...[0, 1, 2].map((r) => `| ${WIDE_WORDS.map((_, i) => WIDE_WORDS[(i + r) % WIDE_WORDS.length]).join(" | ")} |`),
  "",
  "Each cell keeps its words whole.",
].join("\n");

/** Lines of the long file: more than any approval card shows at once. */
export const LONG_FILE_LINES = 200;
const LONG_FILE = Array.from({ length: LONG_FILE_LINES }, (_, i) => `line ${i + 1} of the long file`).join("\n") + "\n";

/** What goes wrong once for a message, by its tag: "rate limit once a1" → 429 the first time. */
const failedOnce = new Set();
function failureFor(body) {
  const text = userText(lastUser(body));
  // Only the newest text asks: a failed turn's message merges with the next one into one user turn.
  const content = lastUser(body)?.content;
  const newest = typeof content === "string" ? content : (content ?? []).filter((b) => b.type === "text").pop()?.text ?? "";
  if (/always drop early/i.test(newest) && !hasToolResult(lastUser(body))) return "drop-early";
  for (const [kind, re] of [
    ["429", /rate limit once (\S+)/i],
    ["drop", /drop once (\S+)/i],
    ["drop-early", /drop early once (\S+)/i],
  ]) {
    const tag = re.exec(text)?.[1];
    if (tag && !hasToolResult(lastUser(body)) && !failedOnce.has(`${kind}:${tag}`)) {
      failedOnce.add(`${kind}:${tag}`);
      return kind;
    }
  }
  return null;
}

function sse(res, type, data) {
  return res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
}

async function stream(res, body, failure = null) {
  const { blocks, stop } = script(body);
  if (failure === "drop") for (const b of blocks) if (b.type === "text") b.dropAfter = 3;
  res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" });
  sse(res, "message_start", {
    message: {
      id: nextId("msg"),
      type: "message",
      role: "assistant",
      model: body?.model ?? "claude-test",
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 12, output_tokens: 1 },
    },
  });
  sse(res, "ping", {});
  if (failure === "drop-early") {
    // The connection breaks off after the message began and before any of its text.
    await sleep(DELTA_DELAY_MS);
    res.destroy();
    return;
  }
  let out = 0;
  for (const [index, block] of blocks.entries()) {
    if (block.type === "text") {
      sse(res, "content_block_start", { index, content_block: { type: "text", text: "" } });
      for (const chunk of block.chunks) {
        out++;
        const ok = sse(res, "content_block_delta", { index, delta: { type: "text_delta", text: chunk } });
        if (block.dropAfter !== undefined && out > block.dropAfter) {
          // The connection breaks off mid-answer, as a dropped network does.
          res.destroy();
          return;
        }
        if (!block.fast) await sleep(block.delayMs ?? DELTA_DELAY_MS);
        else if (!ok) await new Promise((r) => res.once("drain", r));
      }
    } else {
      const id = nextId("toolu");
      sse(res, "content_block_start", { index, content_block: { type: "tool_use", id, name: block.name, input: {} } });
      const json = JSON.stringify(block.input);
      const cut = Math.floor(json.length / 2);
      for (const part of ["", json.slice(0, cut), json.slice(cut)]) {
        sse(res, "content_block_delta", { index, delta: { type: "input_json_delta", partial_json: part } });
      }
      out += 10;
    }
    sse(res, "content_block_stop", { index });
  }
  sse(res, "message_delta", { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: out } });
  sse(res, "message_stop", {});
  res.end();
}

export function startProvider({ port = 0, host = "127.0.0.1" } = {}) {
  const requests = [];
  const server = http.createServer((req, res) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      if (req.method === "GET" && req.url === "/__requests") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(requests));
        return;
      }
      // As the real API: a wrong key is refused on every endpoint, the model list included.
      if (String(req.headers["x-api-key"] ?? "").startsWith("sk-wrong")) {
        res.writeHead(401, { "content-type": "application/json" });
        res.end(JSON.stringify({ type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } }));
        return;
      }
      if (req.method === "GET" && /\/models/.test(req.url)) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ data: [{ type: "model", id: "claude-test", display_name: "Claude Test" }], has_more: false }));
        return;
      }
      if (req.method === "POST" && /\/messages$/.test(req.url.split("?")[0])) {
        let body = {};
        try {
          body = JSON.parse(raw);
        } catch {
          res.writeHead(400).end();
          return;
        }
        requests.push({ url: req.url, headers: { ...req.headers, "x-api-key": req.headers["x-api-key"] ? "[set]" : undefined, authorization: req.headers.authorization ? "[set]" : undefined }, body });
        const failure = failureFor(body);
        if (failure === "429") {
          res.writeHead(429, { "content-type": "application/json", "retry-after": "1" });
          res.end(JSON.stringify({ type: "error", error: { type: "rate_limit_error", message: "Number of requests has exceeded your rate limit." } }));
          return;
        }
        stream(res, body, failure).catch(() => res.destroy());
        return;
      }
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ type: "error", error: { type: "not_found_error", message: req.url } }));
    });
  });
  return new Promise((resolve) => {
    server.listen(port, host, () => resolve({ server, port: server.address().port, requests }));
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { port } = await startProvider({ port: Number(process.env.PROVIDER_PORT ?? 0) });
  console.log(`PORT ${port}`);
}
