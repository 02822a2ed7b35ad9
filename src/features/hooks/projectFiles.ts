// Where a project's own files that wait for an answer (its hooks, its `.mcp.json`) are read and
// answered: the project open here, or a linked remote project, read on its machine and answered
// here (the answer kept under its `host:/path`, taken up there before the next message).
import { api, type ProjectHooksOffer, type ProjectMcpOffer } from "../../shared/ipc";

export interface ProjectFiles {
  /** Which project: a folder here, or `host:/path` (an answer's "don't ask again" is kept by it). */
  key: string;
  /** The machine the files are on, when it is not this one (said beside them). */
  there: string | null;
  hooks(): Promise<ProjectHooksOffer | null>;
  chooseHooks(digest: string, approve: boolean): Promise<unknown>;
  mcp(): Promise<ProjectMcpOffer | null>;
  chooseMcp(digest: string, approved: boolean): Promise<unknown>;
}

/** The project open here (the settings' folder). */
export function localProjectFiles(projectDir: string): ProjectFiles {
  return {
    key: projectDir,
    there: null,
    hooks: () => api.hooksProjectOffer(),
    chooseHooks: (digest, approve) => api.hooksProjectChoose(digest, approve),
    mcp: () => api.mcpProjectOffer(),
    chooseMcp: (digest, approved) => api.mcpProjectChoose(digest, approved),
  };
}

/** The linked remote project of conversation `conversationId`, `target` on `host`. */
export function remoteProjectFiles(conversationId: string, target: string, host: string): ProjectFiles {
  return {
    key: target,
    there: host,
    hooks: () => api.remoteProjectOffers(conversationId).then((offers) => offers.hooks),
    chooseHooks: (digest, approve) => api.remoteHooksChoose(conversationId, digest, approve),
    mcp: () => api.remoteProjectOffers(conversationId).then((offers) => offers.mcp),
    chooseMcp: (digest, approved) => api.remoteMcpChoose(conversationId, digest, approved),
  };
}
