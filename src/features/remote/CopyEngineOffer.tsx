// In the remote dialog, when the machine has no Warden where the link looks (or one of another
// version) and the link is ssh: the offer to copy this one there (docs/REMOTE.md). It first asks
// the machine what it is and says what the copy will do (the programs, their size, where they go,
// what the machine must run); only "Copy and connect" copies, then the dialog connects again. A
// machine this build cannot run on is refused in words, before anything is copied.
import { useState } from "react";
import { api } from "../../shared/ipc";
import { messageOf } from "../../shared/format";
import { TID } from "../../shared/testids";

type Step = { kind: "offer" } | { kind: "asking" } | { kind: "plan"; plan: string } | { kind: "copying" };

type Props = {
  /** `host:/path`, as connected to. */
  target: string;
  host: string;
  /** The copy is there: connect again. */
  onCopied: () => void;
};

export function CopyEngineOffer({ target, host, onCopied }: Props) {
  const [step, setStep] = useState<Step>({ kind: "offer" });
  const [problem, setProblem] = useState<string | null>(null);
  const run = async (work: () => Promise<void>, during: Step, failed: Step) => {
    setProblem(null);
    setStep(during);
    try {
      await work();
    } catch (e) {
      setProblem(messageOf(e));
      setStep(failed);
    }
  };
  const ask = () =>
    run(async () => setStep({ kind: "plan", plan: await api.remoteInstallPlan(target) }), { kind: "asking" }, { kind: "offer" });
  const copy = (plan: string) =>
    run(async () => {
      await api.remoteInstall(target);
      onCopied();
    }, { kind: "copying" }, { kind: "plan", plan });
  return (
    <div className="remote-copy" data-testid={TID.remoteCopyOffer}>
      <p>Warden can copy this version of itself to {host} over ssh, into your home there; nothing else is changed.</p>
      {step.kind === "offer" && (
        <button type="button" data-testid={TID.remoteCopyPlan} onClick={() => void ask()}>
          Copy Warden there…
        </button>
      )}
      {step.kind === "plan" && (
        <>
          <p data-testid={TID.remoteCopyPlan}>It will {step.plan}.</p>
          <button type="button" data-testid={TID.remoteCopyConfirm} onClick={() => void copy(step.plan)}>
            Copy and connect
          </button>
        </>
      )}
      {(step.kind === "asking" || step.kind === "copying") && (
        <p role="status" data-testid={TID.remoteCopyStatus}>
          {step.kind === "asking" ? `Asking ${host} what it runs…` : `Copying Warden to ${host}…`}
        </p>
      )}
      {problem && (
        <p className="field-error" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
