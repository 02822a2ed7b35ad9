// The official Anthropic SDK's stream helper, end to end: messages.stream().finalMessage().
import Anthropic from "@anthropic-ai/sdk";

const client = new Anthropic({ apiKey: "bench-key", baseURL: process.argv[2], maxRetries: 0 });
const message = await client.messages
  .stream({ model: "bench", max_tokens: 1024, messages: [{ role: "user", content: "go" }] })
  .finalMessage();
const text = message.content.filter((b) => b.type === "text").map((b) => b.text).join("");
const tool = message.content.find((b) => b.type === "tool_use");
console.log(`text_bytes=${Buffer.byteLength(text)} tool_input_keys=${Object.keys(tool.input).length}`);
