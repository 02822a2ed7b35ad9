// Loopback server for the benchmark: POST /v1/messages → anthropic.sse, POST …/chat/completions →
// openai.sse, from the directory given. Prints its port on stdout once listening.
//
// A request that already carries a tool result (the second request of a `warden exec` turn, after
// the big message's tool call got its result) is answered with a short final message, so the
// turn ends as a user's would: one big streamed message, its tool call, a short answer, exit 0.
//
// With RECORD_REQUEST=<file>, the first request that offers tools (the first request of a
// `warden exec` turn) is written to that file, for the SDK contestant to send the same request.
// GET /stats answers how many turn-opening requests (offering tools) and follow-ups (carrying a
// tool result) were served, so the run can check every turn made both of its requests.
import { createServer } from "node:http";
import { readFileSync, writeFileSync } from "node:fs";

const dir = process.argv[2];
const bodies = { anthropic: readFileSync(`${dir}/anthropic.sse`), openai: readFileSync(`${dir}/openai.sse`) };
const sse = (events) => events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join("");
const finalAnthropic = sse([
  ["message_start", { type: "message_start", message: { id: "msg_final", type: "message", role: "assistant", model: "bench", content: [], stop_reason: null, usage: { input_tokens: 10, output_tokens: 1 } } }],
  ["content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }],
  ["content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Done." } }],
  ["content_block_stop", { type: "content_block_stop", index: 0 }],
  ["message_delta", { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 2 } }],
  ["message_stop", { type: "message_stop" }],
]);
const stats = { turn_first: 0, follow_up: 0 };
let record = process.env.RECORD_REQUEST;
const server = createServer((req, res) => {
  if (req.method === "GET" && req.url === "/stats") {
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(stats));
    return;
  }
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const anthropic = req.url.includes("/messages");
    const body = anthropic ? bodies.anthropic : req.url.includes("/chat/completions") ? bodies.openai : null;
    if (!body) { res.writeHead(404).end(); return; }
    const request = Buffer.concat(chunks);
    const followUp = anthropic && request.includes("tool_result");
    if (followUp) stats.follow_up += 1;
    else if (anthropic && request.includes('"tools"')) {
      stats.turn_first += 1;
      if (record) writeFileSync(record, request);
      record = undefined;
    }
    res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8" });
    res.end(followUp ? finalAnthropic : body);
  });
});
server.listen(0, "127.0.0.1", () => console.log(server.address().port));
