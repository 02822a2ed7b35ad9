import type { LearnedModel, ProviderId } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { formatTokens } from "../../shared/format";
import { learnedAt } from "./settingsModel";

const DECIDED_BY: Record<NonNullable<LearnedModel["tools"]>["decidedBy"], string> = {
  probe: "Warden asked the model to call a tool once",
  textBlocks: "the model wrote its calls as text",
  refusal: "the server refused the tools",
  user: "your choice",
};

/**
 * What Warden found out about this server's models, which the server does not say: whether tools
 * reach a model natively or are described in its prompt, and a context window learned when a
 * request overflowed it. Each can be changed or forgotten (Warden then finds out again).
 */
export function LearnedModels({
  provider,
  baseUrl,
  all,
  onChange,
}: {
  provider: ProviderId;
  baseUrl: string | null | undefined;
  all: LearnedModel[];
  onChange: (next: LearnedModel[]) => void;
}) {
  const mine = learnedAt(all, provider, baseUrl);
  if (mine.length === 0) return null;
  const replace = (entry: LearnedModel, next: LearnedModel | null) =>
    onChange(next ? all.map((e) => (e === entry ? next : e)) : all.filter((e) => e !== entry));
  return (
    <div className="learned-models">
      <span className="learned-title">Found out about this server's models</span>
      <ul>
        {mine.map((entry) => (
          <li key={`${entry.baseUrl} ${entry.model}`} data-testid={TID.learnedModel} data-model={entry.model}>
            <strong>{entry.model}</strong>
            {entry.tools && (
              <span className="learned-tools" data-testid={TID.learnedTools}>
                {entry.tools.native ? "Native tool calls" : "Tools described in the prompt"} ({DECIDED_BY[entry.tools.decidedBy]}
                {entry.tools.decidedBy === "user" ? "" : `: ${entry.tools.reason}`})
              </span>
            )}
            {entry.contextWindow !== null && entry.contextWindow !== undefined && (
              <span className="learned-window">Context window {formatTokens(entry.contextWindow)} tokens (the server's answer when a request overflowed it)</span>
            )}
            <span className="learned-actions">
              <button
                type="button"
                data-testid={TID.learnedToolsSwitch}
                onClick={() => {
                  const native = !(entry.tools?.native ?? true);
                  replace(entry, { ...entry, tools: { native, decidedBy: "user", reason: "chosen in Settings" } });
                }}
              >
                {entry.tools?.native === false ? "Use native tool calls" : "Describe tools in the prompt"}
              </button>
              <button type="button" data-testid={TID.learnedForget} onClick={() => replace(entry, null)}>
                Forget
              </button>
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
