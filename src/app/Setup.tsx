import { useEffect, useRef } from "react";
import type { ProviderId } from "../shared/ipc";
import { TID } from "../shared/testids";
import { SetupModelStep } from "./SetupModelStep";
import { SetupProjectStep } from "./SetupProjectStep";

/**
 * The first-run screen: a model to talk to, then the project folder, then on to the chat. It
 * scrolls in its own box (the window does not), so a small window reaches every step.
 */
export function Setup({
  ollamaReachable,
  notReady,
  chosen,
  projectDir,
  onUseOllama,
  onKeySaved,
  onOpenSettings,
  onProjectChosen,
  onDone,
  busy,
  error,
}: {
  ollamaReachable: boolean;
  /** Why the provider Warden is set to use cannot answer, in words a person understands; null when there is nothing to say. */
  notReady: string | null;
  /** The provider chosen on this screen (the first step is done), if any. */
  chosen: ProviderId | null;
  /** The project folder already chosen, if any. */
  projectDir: string | null;
  onUseOllama: () => void;
  /** A key was saved here for `provider` (in the keychain): make it the active provider. */
  onKeySaved: (provider: "anthropic" | "openai") => void;
  onOpenSettings: () => void;
  /** A folder was picked here: save it as the project. */
  onProjectChosen: (dir: string) => void;
  /** On to the chat: "Start" once a model is chosen, "Skip for now" before. */
  onDone: () => void;
  busy: boolean;
  error: string | null;
}) {
  const pickRef = useRef<HTMLButtonElement>(null);
  const startRef = useRef<HTMLButtonElement>(null);
  // A step done leads to the next: the folder, then Start. (The control that had the focus, "Save
  // key" or "Use Ollama", is gone.)
  useEffect(() => {
    if (chosen) (projectDir ? startRef : pickRef).current?.focus();
  }, [chosen, projectDir]);

  return (
    <div className="setup-page" data-testid={TID.setupPage}>
      <main className="setup" data-testid={TID.setupScreen} aria-labelledby="setup-title">
        <h1 id="setup-title">Welcome to Warden</h1>
        <p>Warden works in one project folder and asks before it changes anything. It needs two things from you.</p>

        <SetupModelStep
          ollamaReachable={ollamaReachable}
          notReady={notReady}
          chosen={chosen}
          busy={busy}
          onUseOllama={onUseOllama}
          onKeySaved={onKeySaved}
          onOpenSettings={onOpenSettings}
        />

        <SetupProjectStep projectDir={projectDir} busy={busy} onProjectChosen={onProjectChosen} pickRef={pickRef} />

        <div className="setup-actions">
          {chosen ? (
            <button ref={startRef} type="button" className="primary" data-testid={TID.setupStart} disabled={busy} onClick={onDone}>
              {projectDir ? "Start" : "Start without a folder"}
            </button>
          ) : (
            <button type="button" className="link" data-testid={TID.setupSkip} onClick={onDone}>
              Skip for now
            </button>
          )}
        </div>
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
      </main>
    </div>
  );
}
