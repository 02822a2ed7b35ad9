import { TID } from "../shared/testids";

export function Setup({
  ollamaReachable,
  notReady,
  onUseOllama,
  onOpenSettings,
  onSkip,
  busy,
  error,
}: {
  ollamaReachable: boolean;
  /** Why the active provider cannot answer, in the engine's words. */
  notReady: string | null;
  onUseOllama: () => void;
  onOpenSettings: () => void;
  onSkip: () => void;
  busy: boolean;
  error: string | null;
}) {
  return (
    <main className="setup" data-testid={TID.setupScreen} aria-labelledby="setup-title">
      <h1 id="setup-title">Welcome to Warden</h1>
      <p>
        Warden works in one project folder and asks before it changes anything. First it needs a model to talk to.
      </p>
      {notReady && (
        <p className="muted" data-testid={TID.setupWhy}>
          {notReady}
        </p>
      )}
      {ollamaReachable ? (
        <div className="setup-choice">
          <p>Ollama is running on this computer — models there stay on your machine and need no key.</p>
          <button type="button" className="primary" data-testid={TID.setupUseOllama} disabled={busy} onClick={onUseOllama}>
            Use Ollama
          </button>
        </div>
      ) : (
        <p className="muted">No local Ollama answered on localhost. Add an API key for Anthropic or OpenAI, or point Warden at an OpenAI-compatible server.</p>
      )}
      <div className="setup-actions">
        <button
          type="button"
          className={ollamaReachable ? undefined : "primary"}
          data-testid={TID.setupOpenSettings}
          onClick={onOpenSettings}
        >
          {ollamaReachable ? "Use a cloud provider instead" : "Open settings"}
        </button>
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
