import { useState } from "react";
import { api, type ProviderId } from "../shared/ipc";
import { PROVIDER_LABELS } from "../features/settings/settingsModel";
import { TID } from "../shared/testids";
import { ExternalLink } from "../shared/ui/ExternalLink";
import { messageOf } from "../shared/format";

/** Where each hosted provider hands out keys. */
const KEY_PAGES = [
  { provider: "Anthropic", url: "https://console.anthropic.com/settings/keys" },
  { provider: "OpenAI", url: "https://platform.openai.com/api-keys" },
] as const;

/** Setup's first step: a model to talk to (the local Ollama, or a key for a hosted provider, or Settings). */
export function SetupModelStep({
  ollamaReachable,
  notReady,
  chosen,
  busy,
  onUseOllama,
  onKeySaved,
  onOpenSettings,
}: {
  ollamaReachable: boolean;
  /** Why the provider Warden is set to use cannot answer, in words a person understands; null when there is nothing to say. */
  notReady: string | null;
  /** The provider chosen on this screen: the step is done. */
  chosen: ProviderId | null;
  busy: boolean;
  onUseOllama: () => void;
  /** A key was saved here for `provider` (in the keychain): make it the active provider. */
  onKeySaved: (provider: "anthropic" | "openai") => void;
  onOpenSettings: () => void;
}) {
  if (chosen) {
    return (
      <>
        <h2 className="setup-step">1. A model to talk to</h2>
        <p className="setup-done" data-testid={TID.setupModelDone} role="status">
          ✓ Warden will use {PROVIDER_LABELS[chosen]}
          {chosen === "ollama" ? ", on this computer." : ". The key is in your system keychain."}
        </p>
      </>
    );
  }
  return (
    <>
      <h2 className="setup-step">1. A model to talk to</h2>
      {notReady && (
        <p className="muted" data-testid={TID.setupWhy}>
          {notReady}
        </p>
      )}
      {ollamaReachable ? (
        <div className="setup-choice">
          <p>Ollama is running on this computer — models there stay on your machine and need no key.</p>
          <button
            type="button"
            className="primary"
            data-testid={TID.setupUseOllama}
            disabled={busy}
            autoFocus
            onClick={onUseOllama}
          >
            Use Ollama
          </button>
        </div>
      ) : (
        <p className="muted">
          No local Ollama answered on localhost. Add an API key for Anthropic or OpenAI, or point Warden at an
          OpenAI-compatible server. Keys stay in your system keychain.
        </p>
      )}
      <KeyHere busy={busy} first={!ollamaReachable} onSaved={onKeySaved} />
      <p className="setup-keys" data-testid={TID.setupKeyLinks}>
        Need a key?{" "}
        {KEY_PAGES.map(({ provider, url }, i) => (
          <span key={provider}>
            {i > 0 && " · "}
            <ExternalLink href={url}>Get an {provider} key</ExternalLink>
          </span>
        ))}
      </p>
      <button
        type="button"
        className="link"
        data-testid={TID.setupOpenSettings}
        onClick={onOpenSettings}
      >
        {ollamaReachable ? "Use a cloud provider instead" : "Other providers and servers: Settings"}
      </button>
    </>
  );
}

/** Paste an Anthropic or OpenAI key here: it goes straight to the keychain, never shown again. */
function KeyHere({
  busy,
  first,
  onSaved,
}: {
  busy: boolean;
  /** The first thing to do here (no local Ollama): it takes the focus. */
  first: boolean;
  onSaved: (provider: "anthropic" | "openai") => void;
}) {
  const [provider, setProvider] = useState<"anthropic" | "openai">("anthropic");
  const [value, setValue] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const save = () => {
    setSaving(true);
    setError(null);
    api.keysSet(provider, value.trim()).then(
      () => {
        setValue("");
        setSaving(false);
        onSaved(provider);
      },
      (e: unknown) => {
        setSaving(false);
        setError(messageOf(e));
      },
    );
  };
  return (
    <form
      className="setup-key"
      onSubmit={(e) => {
        e.preventDefault();
        if (value.trim()) save();
      }}
    >
      <label>
        Provider
        <select data-testid={TID.setupKeyProvider} value={provider} onChange={(e) => setProvider(e.target.value as "anthropic" | "openai")}>
          <option value="anthropic">Anthropic</option>
          <option value="openai">OpenAI</option>
        </select>
      </label>
      <label>
        API key
        <input
          type="password"
          autoComplete="off"
          data-testid={TID.setupKeyInput}
          autoFocus={first}
          value={value}
          placeholder={provider === "anthropic" ? "sk-ant-…" : "sk-…"}
          onChange={(e) => setValue(e.target.value)}
        />
      </label>
      <button type="submit" className="primary" data-testid={TID.setupKeySave} disabled={busy || saving || !value.trim()}>
        Save key
      </button>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
