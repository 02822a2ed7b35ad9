// The official Anthropic SDK building the final assistant message(s) from the benchmark's stream,
// the SDK side of bench/stream/run.sh. Two ways a user builds the final message:
//
//   helper: messages.stream(params).finalMessage() — the SDK's MessageStream accumulates a
//           snapshot of the message on every event.
//   raw:    messages.create({ ...params, stream: true }) and the raw events iterated by hand: text
//           deltas appended, tool input fragments concatenated and JSON.parse'd once at the
//           block's end (what the SDK's docs suggest when the helper's snapshots are not needed).
//
// Usage: node sdk_anthropic.mjs <base-url> <helper|raw> [turn-request.json]
//
// Without a request file: one request ("go"), its final message — the parsers row. With one (the
// first request body `warden exec` sent, recorded by serve.mjs): the same turn `warden exec` runs —
// that request, its final message, then, because the message asks for a tool, a second request
// carrying the message and the same refused tool result Warden sends back, and that final message.
// Prints a summary of the (first) final message, in the format stream_drain prints, and on stderr
// the time from the first request to the last message built (in_process_ms, start-up left out).
import Anthropic from "@anthropic-ai/sdk";
import { readFileSync } from "node:fs";

const [baseURL, mode = "raw", requestFile] = process.argv.slice(2);
const client = new Anthropic({ apiKey: "bench-key", baseURL, maxRetries: 0 });

async function viaHelper(params) {
  return client.messages.stream(params).finalMessage();
}

async function viaRawEvents(params) {
  const stream = await client.messages.create({ ...params, stream: true });
  let message;
  const json = [];
  for await (const event of stream) {
    switch (event.type) {
      case "message_start":
        message = { ...event.message, content: [] };
        break;
      case "content_block_start":
        message.content[event.index] = { ...event.content_block };
        if (event.content_block.type === "tool_use") json[event.index] = "";
        break;
      case "content_block_delta": {
        const block = message.content[event.index];
        if (event.delta.type === "text_delta") block.text += event.delta.text;
        else if (event.delta.type === "input_json_delta") json[event.index] += event.delta.partial_json;
        break;
      }
      case "content_block_stop": {
        const block = message.content[event.index];
        if (block.type === "tool_use") block.input = json[event.index] ? JSON.parse(json[event.index]) : {};
        break;
      }
      case "message_delta":
        message.stop_reason = event.delta.stop_reason;
        message.stop_sequence = event.delta.stop_sequence ?? null;
        message.usage = { ...message.usage, ...event.usage };
        break;
      default:
        break;
    }
  }
  return message;
}

const build = mode === "helper" ? viaHelper : mode === "raw" ? viaRawEvents : null;
if (!build) {
  console.error("usage: node sdk_anthropic.mjs <base-url> <helper|raw> [turn-request.json]");
  process.exit(2);
}

// Warden's answer to the tool call: the same refusal it sends (file_write is not allowed there).
const REFUSAL = "`file_write` is not allowed in this project (see the tool permissions in Settings).";

const params = requestFile
  ? (({ stream: _stream, ...rest }) => rest)(JSON.parse(readFileSync(requestFile, "utf8")))
  : { model: "bench", max_tokens: 1024, messages: [{ role: "user", content: "go" }] };
const started = performance.now();
const first = await build(params);
let requests = 1;
let last = first;
if (requestFile) {
  const calls = first.content.filter((b) => b.type === "tool_use");
  if (calls.length > 0) {
    const results = calls.map((c) => ({ type: "tool_result", tool_use_id: c.id, content: REFUSAL, is_error: true }));
    const messages = [...params.messages, { role: "assistant", content: first.content }, { role: "user", content: results }];
    last = await build({ ...params, messages });
    requests += 1;
  }
}
// The time after start-up (Node, the SDK's import): the requests and the messages built.
console.error(`in_process_ms=${(performance.now() - started).toFixed(1)}`);
const text = first.content.filter((b) => b.type === "text").map((b) => b.text).join("");
const tool = first.content.find((b) => b.type === "tool_use");
const summary =
  `text_bytes=${Buffer.byteLength(text)} tool=${tool?.name} ` +
  `input_keys=${Object.keys(tool?.input ?? {}).length} content_chars=${tool?.input?.content?.length}`;
const lastText = last.content.filter((b) => b.type === "text").map((b) => b.text).join("");
console.log(requestFile ? `${summary} requests=${requests} last_text=${JSON.stringify(lastText)}` : summary);
