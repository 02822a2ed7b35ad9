// Builders for tests: state objects as the reducer would make them.
import { emptyText, textFrom } from "../shared/store/textBuffer";
import type { ToolBlock } from "../shared/store/types";
import type { ToolConfirm } from "../shared/ipc";
import { newToolBlock } from "../shared/store/empty";

type ToolOverrides = Partial<Omit<ToolBlock, "output">> & { output?: ToolBlock["output"] | string };

export function makeTool(over: ToolOverrides = {}): ToolBlock {
  const { output, ...rest } = over;
  return {
    ...newToolBlock("t1", "c1", "m1"),
    toolName: "bash",
    category: "exec",
    input: { command: "ls" },
    output: typeof output === "string" ? textFrom(output) : (output ?? emptyText()),
    ...rest,
  };
}

export function makeConfirm(over: Partial<ToolConfirm> = {}): ToolConfirm {
  return {
    conversationId: "c1",
    // The engine's own id for the question; here derived from the call's for readable tests.
    confirmId: `q-${over.toolId ?? "t1"}`,
    messageId: "m1",
    toolId: "t1",
    toolName: "bash",
    input: { command: "rm -rf build" },
    dangerLevel: "dangerous",
    preview: { kind: "command", command: "rm -rf build", cwd: "/home/me/project" },
    timeoutSecs: 30,
    ...over,
  };
}
