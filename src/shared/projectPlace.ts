// Where the window reads what a project says for itself — its own files that wait for an answer
// (its hooks, its `.mcp.json`), the box's notice, its skills and commands — and answers it: the project open here, or a
// linked remote project, read on its machine and answered here (an approval kept under its
// `host:/path`, taken up there before the next message).
import {
  api,
  type BoxHomeNotice,
  type ConventionsInUse,
  type McpResourceText,
  type McpServerStatus,
  type ProjectHooksOffer,
  type ProjectMcpOffer,
} from "./ipc";

export interface ProjectPlace {
  /** Which project: a folder here, or `host:/path` (an answer's "don't ask again" is kept by it). */
  key: string;
  /** The machine the files are on, when it is not this one (said beside them). */
  there: string | null;
  hooks(): Promise<ProjectHooksOffer | null>;
  chooseHooks(digest: string, approve: boolean): Promise<unknown>;
  mcp(): Promise<ProjectMcpOffer | null>;
  chooseMcp(digest: string, approved: boolean): Promise<unknown>;
  boxNotice(): Promise<BoxHomeNotice | null>;
  dismissBoxNotice(): Promise<unknown>;
  /** The skills and custom commands a conversation there gets (the composer's `/`). */
  conventions(): Promise<ConventionsInUse>;
  /** The MCP servers a conversation there has, with their resources (the composer's "Attach a resource"). */
  mcpServers(): Promise<McpServerStatus[]>;
  readResource(server: string, uri: string): Promise<McpResourceText>;
}

/** The project open here (the settings' folder). */
export function localPlace(projectDir: string): ProjectPlace {
  return {
    key: projectDir,
    there: null,
    hooks: () => api.hooksProjectOffer(),
    chooseHooks: (digest, approve) => api.hooksProjectChoose(digest, approve),
    mcp: () => api.mcpProjectOffer(),
    chooseMcp: (digest, approved) => api.mcpProjectChoose(digest, approved),
    boxNotice: () => api.boxHomeNotice(),
    dismissBoxNotice: () => api.boxHomeNoticeDismiss(),
    conventions: () => api.conventionsList(),
    mcpServers: () => api.mcpStatus(),
    readResource: (server, uri) => api.mcpReadResource(server, uri),
  };
}

/** The linked remote project of conversation `conversationId`, `target` on `host`. */
export function remotePlace(conversationId: string, target: string, host: string): ProjectPlace {
  return {
    key: target,
    there: host,
    hooks: () => api.remoteProjectOffers(conversationId).then((offers) => offers.hooks),
    chooseHooks: (digest, approve) => api.remoteHooksChoose(conversationId, digest, approve),
    mcp: () => api.remoteProjectOffers(conversationId).then((offers) => offers.mcp),
    chooseMcp: (digest, approved) => api.remoteMcpChoose(conversationId, digest, approved),
    boxNotice: () => api.remoteBoxNotice(conversationId),
    dismissBoxNotice: () => api.remoteBoxNoticeDismiss(conversationId),
    conventions: () => api.remoteConventions(conversationId),
    mcpServers: () => api.remoteMcpStatus(conversationId),
    readResource: (server, uri) => api.remoteMcpReadResource(conversationId, server, uri),
  };
}
