// Loopback server for the benchmark: POST /v1/messages → anthropic.sse, POST …/chat/completions →
// openai.sse, from the directory given. Prints its port on stdout once listening.
//
// A request that already carries a tool result (the second request of a `warden exec` turn, after
// the big message's tool call got its result) is answered with a short final message, so the
// turn ends as a user's would: one big streamed message, its tool call, a short answer, exit 0.
import { createServer } from "node:http";
import { readFileSync } from "node:fs";

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
const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const anthropic = req.url.includes("/messages");
    const body = anthropic ? bodies.anthropic : req.url.includes("/chat/completions") ? bodies.openai : null;
    if (!body) { res.writeHead(404).end(); return; }
    const followUp = anthropic && Buffer.concat(chunks).includes("tool_result");
    res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8" });
    res.end(followUp ? finalAnthropic : body);
  });
});
server.listen(0, "127.0.0.1", () => console.log(server.address().port));
