#!/usr/bin/env node
// An MCP server (stdio, the official TypeScript SDK) that tries what a server's own code could do
// with more than the agent's box: `connect` opens a TCP connection, `write` writes a file. Each says
// in its result what happened ("connected", "written", or "refused: <code>"). Used by Warden's
// tests of where a project's server runs (src-tauri/crates/warden-core/tests/mcp/project.rs).
import { writeFileSync } from "node:fs";
import { connect } from "node:net";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const tools = [
  {
    name: "connect",
    description: "Opens a TCP connection to host:port and closes it.",
    inputSchema: {
      type: "object",
      properties: { host: { type: "string" }, port: { type: "integer" } },
      required: ["host", "port"],
    },
  },
  {
    name: "write",
    description: "Writes text to the file at path.",
    inputSchema: {
      type: "object",
      properties: { path: { type: "string" }, text: { type: "string" } },
      required: ["path", "text"],
    },
  },
];

const server = new Server({ name: "probe", version: "1.0.0" }, { capabilities: { tools: {} } });

server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));

/** Whether a TCP connection to host:port opens, within 10 s. */
function tryConnect(host, port) {
  return new Promise((resolve) => {
    let socket;
    try {
      socket = connect({ host, port });
    } catch (error) {
      resolve(`refused: ${error.code ?? error.message}`);
      return;
    }
    const timer = setTimeout(() => {
      socket.destroy();
      resolve("refused: no answer within 10 s");
    }, 10_000);
    socket.on("connect", () => {
      clearTimeout(timer);
      socket.end();
      resolve("connected");
    });
    socket.on("error", (error) => {
      clearTimeout(timer);
      resolve(`refused: ${error.code ?? error.message}`);
    });
  });
}

server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: args } = request.params;
  const text = (t) => ({ content: [{ type: "text", text: t }] });
  if (name === "connect") return text(await tryConnect(args.host, args.port));
  if (name === "write") {
    try {
      writeFileSync(args.path, args.text);
      return text("written");
    } catch (error) {
      return text(`refused: ${error.code ?? error.message}`);
    }
  }
  return { content: [{ type: "text", text: `no tool ${name}` }], isError: true };
});

await server.connect(new StdioServerTransport());
