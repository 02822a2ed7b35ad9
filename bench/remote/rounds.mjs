// Loopback model server for the approval round trips: each request is answered with one
// `file_write` call until the conversation holds ROUNDS tool results, then with "Done.".
// Usage: node rounds.mjs ROUNDS — prints its port once listening.
import { createServer } from "node:http";

const rounds = Number(process.argv[2] || 20);
const sse = (events) => events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join("");
const start = (id) => ["message_start", { type: "message_start", message: { id, type: "message", role: "assistant", model: "bench", content: [], stop_reason: null, usage: { input_tokens: 10, output_tokens: 1 } } }];
const end = (reason) => [
  ["message_delta", { type: "message_delta", delta: { stop_reason: reason }, usage: { output_tokens: 2 } }],
  ["message_stop", { type: "message_stop" }],
];
const toolCall = (n) => sse([
  start(`msg_${n}`),
  ["content_block_start", { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: `toolu_${n}`, name: "file_write", input: {} } }],
  ["content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: JSON.stringify({ path: "round.txt", content: `round ${n}\n` }) } }],
  ["content_block_stop", { type: "content_block_stop", index: 0 }],
  ...end("tool_use"),
]);
const done = sse([
  start("msg_done"),
  ["content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }],
  ["content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Done." } }],
  ["content_block_stop", { type: "content_block_stop", index: 0 }],
  ...end("end_turn"),
]);
const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const body = Buffer.concat(chunks).toString();
    const results = body.split('"tool_result"').length - 1;
    res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8" });
    res.end(results >= rounds ? done : toolCall(results + 1));
  });
});
server.listen(0, "127.0.0.1", () => console.log(server.address().port));
