import type { BoxRefusal } from "../../shared/ipc";
import { runMenuShortcut } from "../../shared/keyboard";
import { TID } from "../../shared/testids";

/** What each refusal of the box means for the person reading the block, and how to allow it. */
const SAID: Record<BoxRefusal, { what: string; allow: string; settings: boolean }> = {
  writeOutside: {
    what: "Warden's sandbox kept this command from writing outside the project.",
    allow: "To let this project's commands write in another folder, add it in Settings → Sandbox.",
    settings: true,
  },
  noNetwork: {
    what: "This command ran without network: Warden's sandbox gives commands none unless the call asks for it.",
    allow: "Ask for it with the network, and Warden will ask you about each new host it reaches.",
    settings: false,
  },
  pastTheProxy: {
    what: "This command tried to reach the network directly; the sandbox reaches it only through Warden's proxy.",
    allow: "Programs that use HTTP_PROXY or HTTPS_PROXY get through, and you are asked about each new host.",
    settings: false,
  },
};

/** Under a failed command: what the sandbox refused it, in words, with the way to allow it. */
export function BoxRefused({ refused = [] }: { refused: readonly BoxRefusal[] | undefined }) {
  if (refused.length === 0) return null;
  return (
    <ul className="tool-offers small" data-testid={TID.toolBoxRefused}>
      {refused.map((refusal) => {
        const said = SAID[refusal];
        return (
          <li key={refusal} data-refusal={refusal}>
            <span aria-hidden>⊘ </span>
            {said.what} {said.allow}
            {said.settings && (
              <>
                {" "}
                <button type="button" className="link" onClick={() => runMenuShortcut("settings")}>
                  Open Settings
                </button>
              </>
            )}
          </li>
        );
      })}
    </ul>
  );
}
