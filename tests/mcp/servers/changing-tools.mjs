#!/usr/bin/env node
// An MCP server (stdio, the official TypeScript SDK) whose tool list changes while it runs, as a
// server does when a user signs in or a plugin loads: `unlock` adds the tool `unlocked`, `lock`
// takes it away, each followed by `notifications/tools/list_changed`; `hang` announces a change and
// then never answers `tools/list` again, as a broken server. Used by Warden's tests
// (src-tauri/crates/warden-core/tests/mcp/engine.rs, transports.rs).
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const noInput = { type: "object", properties: {} };
const always = [
  { name: "unlock", description: "Adds the tool `unlocked`.", inputSchema: noInput },
  { name: "lock", description: "Removes the tool `unlocked`.", inputSchema: noInput },
  { name: "hang", description: "Announces a change, then never lists its tools again.", inputSchema: noInput },
];
const unlocked = {
  name: "unlocked",
  description: "Echoes its message; offered only after `unlock`.",
  inputSchema: { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
};

let isUnlocked = false;
let hanging = false;
const server = new Server({ name: "changing-tools", version: "1.0.0" }, { capabilities: { tools: { listChanged: true } } });

server.setRequestHandler(ListToolsRequestSchema, async () => {
  if (hanging) await new Promise(() => {});
  return { tools: isUnlocked ? [...always, unlocked] : always };
});

server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: args } = request.params;
  const text = (t) => ({ content: [{ type: "text", text: t }] });
  if (name === "unlock" || name === "lock") {
    isUnlocked = name === "unlock";
    await server.sendToolListChanged();
    // The notice goes out ahead of the answer; a moment between them, as between two writes of a
    // busy server.
    await new Promise((resolve) => setTimeout(resolve, 100));
    return text(isUnlocked ? "`unlocked` is offered now" : "`unlocked` is gone");
  }
  if (name === "hang") {
    hanging = true;
    await server.sendToolListChanged();
    return text("hanging");
  }
  if (name === "unlocked" && isUnlocked) return text(`unlocked: ${args?.message ?? ""}`);
  return { content: [{ type: "text", text: `no tool ${name}` }], isError: true };
});

await server.connect(new StdioServerTransport());
