// What ssh asks while it connects to a remote project (docs/REMOTE.md), in ssh's own words: a host
// key it does not know yet, with its fingerprint (ssh writes it to known_hosts only once accepted
// here); a key's passphrase or a password (typed hidden, passed to ssh and kept nowhere); another
// yes-or-no question. Close or Esc refuses; ssh then ends the connection as it does on "no".
import { useState, type FormEvent } from "react";
import { TID } from "../../shared/testids";
import { Dialog } from "../../shared/ui/Dialog";
import type { SshQuestion as Question } from "./useSshQuestions";

type Props = {
  question: Question;
  /** `null` refuses. */
  onAnswer: (id: string, answer: string | null) => void;
};

const TITLES: Record<string, string> = {
  hostKey: "A host key ssh does not know",
  confirm: "ssh asks",
  secret: "ssh asks for a secret",
};

export function SshQuestionDialog({ question, onAnswer }: Props) {
  const [secret, setSecret] = useState("");
  const refuse = () => onAnswer(question.id, null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onAnswer(question.id, question.kind === "secret" ? secret : "yes");
  };
  const title = TITLES[question.kind] ?? "ssh asks";
  return (
    <Dialog
      label={title}
      testId={TID.sshQuestion}
      className="ssh-question"
      onClose={refuse}
      focusClose={question.kind === "hostKey"}
    >
      <h2>{title}</h2>
      <p className="muted small">While connecting to {question.host}.</p>
      {question.kind === "hostKey" && (
        <p>
          ssh has not seen this machine&apos;s key before. Accept it only if the fingerprint below is the one the machine
          shows (<code>ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub</code> there); ssh remembers it in your{" "}
          <code>known_hosts</code>.
        </p>
      )}
      <pre className="ssh-question-prompt" data-testid={TID.sshQuestionPrompt}>
        {question.prompt.trim()}
      </pre>
      <form onSubmit={submit} data-kind={question.kind}>
        {question.kind === "secret" && (
          <input
            type="password"
            aria-label={question.prompt.trim()}
            data-testid={TID.sshQuestionSecret}
            autoComplete="off"
            autoFocus
            value={secret}
            onChange={(e) => setSecret(e.target.value)}
          />
        )}
        <div className="ssh-question-actions">
          <button type="submit" data-testid={TID.sshQuestionAccept}>
            {question.kind === "hostKey" ? "Accept the key and connect" : question.kind === "secret" ? "Send" : "Yes"}
          </button>
          <button type="button" data-testid={TID.sshQuestionRefuse} onClick={refuse}>
            {question.kind === "hostKey" ? "Refuse" : question.kind === "secret" ? "Cancel" : "No"}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
