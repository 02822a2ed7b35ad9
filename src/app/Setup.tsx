import { TID } from "../shared/testids";
import { SetupModelStep } from "./SetupModelStep";
import { SetupProjectStep } from "./SetupProjectStep";

export function Setup({
  ollamaReachable,
  notReady,
  projectDir,
  onUseOllama,
  onKeySaved,
  onOpenSettings,
  onProjectChosen,
  onSkip,
  busy,
  error,
}: {
  ollamaReachable: boolean;
  /** Why the active provider cannot answer, in the engine's words. */
  notReady: string | null;
  /** The project folder already chosen, if any. */
  projectDir: string | null;
  onUseOllama: () => void;
  /** A key was saved here for `provider` (in the keychain): make it the active provider. */
  onKeySaved: (provider: "anthropic" | "openai") => void;
  onOpenSettings: () => void;
  /** A folder was picked here: save it as the project. */
  onProjectChosen: (dir: string) => void;
  onSkip: () => void;
  busy: boolean;
  error: string | null;
}) {
  return (
    <main className="setup" data-testid={TID.setupScreen} aria-labelledby="setup-title">
      <h1 id="setup-title">Welcome to Warden</h1>
      <p>Warden works in one project folder and asks before it changes anything. It needs two things from you.</p>

      <SetupModelStep
        ollamaReachable={ollamaReachable}
        notReady={notReady}
        busy={busy}
        onUseOllama={onUseOllama}
        onKeySaved={onKeySaved}
        onOpenSettings={onOpenSettings}
      />

      <SetupProjectStep projectDir={projectDir} busy={busy} onProjectChosen={onProjectChosen} />

      <div className="setup-actions">
        <button type="button" className="link" data-testid={TID.setupSkip} onClick={onSkip}>
          Skip for now
        </button>
      </div>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </main>
  );
}
