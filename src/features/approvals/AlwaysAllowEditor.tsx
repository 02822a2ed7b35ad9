// "Always allow…": the allow rule the answer would save, shown in the card before anything is
// saved. The pattern can be narrowed or widened (unless only the exact command may be kept), and
// the rule kept for this project or for all projects. A command that only reads is offered the
// class `@read-only`, with one click to keep only its own program instead. Esc here closes the
// editor, never the card.
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import type { AlwaysRule, SuggestedRule } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { READ_ONLY_PATTERN, READ_ONLY_WORDS } from "../settings/rulesModel";
import { AlwaysPattern, AlwaysScope, type Scope } from "./AlwaysRuleFields";

/** Tools whose rules have a pattern (a command, a path glob, a host); any other covers every call. */
const PATTERNED = new Set(["bash", "read", "write", "network"]);

export function AlwaysAllowEditor({
  suggested,
  disabled,
  onSave,
  onCancel,
}: {
  suggested: SuggestedRule;
  disabled: boolean;
  onSave: (rule: AlwaysRule) => void;
  onCancel: () => void;
}) {
  const [pattern, setPattern] = useState(suggested.pattern ?? "");
  const [scope, setScope] = useState<Scope>("project");
  const patternRef = useRef<HTMLInputElement>(null);
  const editorRef = useRef<HTMLDivElement>(null);
  const scopeName = useId();
  const exactOnly = !!suggested.exactOnly;
  const patterned = PATTERNED.has(suggested.tool) || !!suggested.pattern;

  useEffect(() => {
    // Focus moves into the editor (never onto the save button, where Enter would save).
    (patternRef.current ?? editorRef.current)?.focus();
  }, []);

  const onKeyDown = (e: KeyboardEvent) => {
    // The card's keys (Esc rejects) stay out of the editor: Esc here only closes it.
    if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      onCancel();
    }
  };

  const save = () => onSave({ tool: suggested.tool, pattern: pattern.trim() || null, scope });

  return (
    <div
      ref={editorRef}
      tabIndex={-1}
      className="always-editor"
      data-testid={TID.alwaysEditor}
      role="group"
      aria-label="Rule to save"
      onKeyDown={onKeyDown}
    >
      <p className="always-line">
        Allow from now on:{" "}
        <code data-testid={TID.alwaysTool}>{suggested.tool}</code>
        {!patterned && <span className="muted"> (every call of this tool)</span>}
      </p>
      {patterned && (
        <AlwaysPattern
          tool={suggested.tool}
          pattern={pattern}
          exactOnly={exactOnly}
          disabled={disabled}
          inputRef={patternRef}
          onChange={setPattern}
        />
      )}
      {suggested.narrower && (
        <ReadOnlyChoice pattern={pattern} narrower={suggested.narrower} disabled={disabled} onChange={setPattern} />
      )}
      {exactOnly && (
        <p className="muted" data-testid={TID.alwaysExactNote}>
          Only this exact command can be kept: what this program does depends on its arguments.
        </p>
      )}
      <AlwaysScope name={scopeName} scope={scope} disabled={disabled} onChange={setScope} />
      <div className="approval-actions">
        <button type="button" data-testid={TID.alwaysCancel} onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="primary" data-testid={TID.alwaysSave} disabled={disabled} onClick={save}>
          Save rule and approve
        </button>
      </div>
    </div>
  );
}

/** What `@read-only` covers, and the switch between it and the command's own program. */
function ReadOnlyChoice({
  pattern,
  narrower,
  disabled,
  onChange,
}: {
  pattern: string;
  narrower: string;
  disabled: boolean;
  onChange: (pattern: string) => void;
}) {
  const isClass = pattern.trim() === READ_ONLY_PATTERN;
  return (
    <div className="always-read-only" data-testid={TID.alwaysReadOnly}>
      {isClass && <p className="muted">{READ_ONLY_WORDS}.</p>}
      <button
        type="button"
        className="link"
        data-testid={TID.alwaysNarrower}
        disabled={disabled}
        onClick={() => onChange(isClass ? narrower : READ_ONLY_PATTERN)}
      >
        {isClass ? `Only ${narrower}` : "Every command that only reads"}
      </button>
    </div>
  );
}
