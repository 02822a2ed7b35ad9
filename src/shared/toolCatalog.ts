// The engine's list of tools (`tools_catalog`): labels for the permissions list, and the category
// of a tool block whose tool-start did not say (a conversation loaded from history). Loaded once.
import { useSyncExternalStore } from "react";
import { api, type McpOrigin, type ToolCategory, type ToolInfo } from "./ipc";

let catalog: ToolInfo[] | null = null;
let loading: Promise<void> | null = null;
const listeners = new Set<() => void>();

function load(): void {
  if (catalog || loading) return;
  loading = api.toolsCatalog().then(
    (tools) => {
      catalog = tools;
      listeners.forEach((l) => l());
    },
    (e: unknown) => {
      console.warn("tools_catalog failed", e);
      loading = null;
    },
  );
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  load();
  return () => listeners.delete(listener);
}

const idle = () => () => {};

/** The catalog, or null until it has loaded. Loads it on first use; `needed: false` leaves it. */
export function useToolCatalog(needed = true): ToolInfo[] | null {
  return useSyncExternalStore(needed ? subscribe : idle, () => catalog);
}

/** The category of `name` in `tools`, null when it is not there. */
export function categoryIn(tools: ToolInfo[] | null, name: string): ToolCategory | null {
  return tools?.find((t) => t.name === name)?.category ?? null;
}

/** Which MCP server `name` comes from, as `tools` says; null for Warden's own tools and unknown names. */
export function mcpIn(tools: ToolInfo[] | null, name: string): McpOrigin | null {
  return tools?.find((t) => t.name === name)?.mcp ?? null;
}

/** For tests: forget the loaded catalog. */
export function resetToolCatalog(): void {
  catalog = null;
  loading = null;
}
