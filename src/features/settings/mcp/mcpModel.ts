// Settings → MCP servers: the entries as the settings hold them (`mcpServers`, the format Claude
// Desktop, Cursor and codex use) and what the window says about them.
import type { McpServerConfig, McpServerStatus, McpToolChoice, Settings } from "../../../shared/ipc";

export type Servers = Record<string, McpServerConfig>;

export function serversOf(s: Settings): Servers {
  return (s.mcpServers ?? {}) as Servers;
}

export function withServers(s: Settings, servers: Servers): Settings {
  return { ...s, mcpServers: servers };
}

/** How the server is reached, in one line: the command line or the URL. */
/** How Warden signs in to a server whose entry names its OAuth client; null when it names none. */
export function oauthClientText(config: McpServerConfig): string | null {
  const client = config.url ? config.oauth : null;
  if (!client) return null;
  if (client.grant === "enterprise") {
    const provider = client.idp?.issuer ?? "(no idp)";
    return `Signs in by itself with your ID token from ${provider} (enterprise-managed: no browser), as the OAuth client ${client.clientId ?? "(no clientId)"}`;
  }
  if (client.grant === "client_credentials") {
    return `Signs in by itself as the OAuth client ${client.clientId ?? "(no clientId)"} (client credentials: no browser, no user)`;
  }
  if (client.clientId) return `Signs in as the OAuth client ${client.clientId} registered for Warden, in your browser`;
  if (client.clientMetadataUrl) {
    return `Signs in in your browser, known by the client metadata document ${client.clientMetadataUrl} where the server takes one`;
  }
  return null;
}

/**
 * Every field of an entry Warden uses, as `[field, value]` rows in a fixed order: what approving a
 * project's `.mcp.json` grants (the engine's `mcp::project::fields`, which `warden mcp show`
 * prints, in the same order). Lists are shown as JSON, so an argument with spaces is seen as one.
 */
export function configFields(config: McpServerConfig): [string, string][] {
  const rows: [string, string][] = [];
  const each = (prefix: string, map: Record<string, string> | undefined) => {
    for (const [name, value] of Object.entries(map ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      rows.push([`${prefix}.${name}`, value]);
    }
  };
  if (config.type) rows.push(["type", config.type]);
  if (config.command) rows.push(["command", config.command]);
  if (config.args?.length) rows.push(["args", JSON.stringify(config.args)]);
  each("env", config.env);
  if (config.cwd) rows.push(["cwd", config.cwd]);
  if (config.url) rows.push(["url", config.url]);
  each("headers", config.headers);
  if (config.disabled) rows.push(["disabled", "true"]);
  each("tools", config.tools as Record<string, string> | undefined);
  if (config.sampling) rows.push(["sampling", "true"]);
  if (config.network === "off") rows.push(["network", "off"]);
  if (config.readable?.length) rows.push(["readable", JSON.stringify(config.readable)]);
  if (config.outsideSandbox) rows.push(["outsideSandbox", "true"]);
  const oauth = config.oauth;
  if (oauth) {
    if (oauth.clientId) rows.push(["oauth.clientId", oauth.clientId]);
    if (oauth.clientMetadataUrl) rows.push(["oauth.clientMetadataUrl", oauth.clientMetadataUrl]);
    if (oauth.clientSecret) rows.push(["oauth.clientSecret", oauth.clientSecret]);
    if (oauth.privateKey) rows.push(["oauth.privateKey", oauth.privateKey]);
    if (oauth.signingAlgorithm) rows.push(["oauth.signingAlgorithm", oauth.signingAlgorithm]);
    rows.push(["oauth.grant", oauth.grant ?? "authorization_code"]);
    if (oauth.scopes?.length) rows.push(["oauth.scopes", JSON.stringify(oauth.scopes)]);
    if (oauth.idp) rows.push(["oauth.idp", JSON.stringify(oauth.idp)]);
  }
  return rows;
}

export function reachedBy(config: McpServerConfig): string {
  if (config.url) return config.url;
  return [config.command ?? "", ...(config.args ?? [])].map(quoteIfSpaced).join(" ");
}

function quoteIfSpaced(word: string): string {
  return /\s/.test(word) ? JSON.stringify(word) : word;
}

/** A command line typed in one field, split as a shell would for plain words and "quoted parts". */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  const pattern = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  for (const m of line.matchAll(pattern)) {
    words.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, "$1") : (m[2] ?? m[3] ?? ""));
  }
  return words;
}

/** Names a server may have: what the model sees inside every tool name. */
export const NAME_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;

/** The status line of a server, in words. */
export function statusText(status: McpServerStatus | undefined, disabled: boolean): string {
  if (disabled) return "Off";
  if (!status) return "Starting…";
  switch (status.state) {
    case "connected":
      return `Connected · ${status.tools.length} ${status.tools.length === 1 ? "tool" : "tools"}`;
    case "starting":
      return "Starting…";
    case "disabled":
      return "Off";
    case "failed":
      return `Failed: ${status.error}`;
    case "needsSignIn":
      return "Needs you to sign in";
  }
}

export type Dot = "ok" | "busy" | "failed" | "off" | "sign-in";

export function dotOf(status: McpServerStatus | undefined, disabled: boolean): Dot {
  if (disabled) return "off";
  if (!status || status.state === "starting") return "busy";
  if (status.state === "needsSignIn") return "sign-in";
  return status.state === "connected" ? "ok" : status.state === "failed" ? "failed" : "off";
}

/** The choice of one tool, set (or cleared back to "the trust level decides"). */
export function withChoice(config: McpServerConfig, tool: string, choice: McpToolChoice | null): McpServerConfig {
  const tools = { ...(config.tools ?? {}) };
  if (choice) tools[tool] = choice;
  else delete tools[tool];
  return { ...config, tools };
}
