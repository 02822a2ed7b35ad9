// The files a turn changed when its calls do not name them (a conversation reopened from its
// history: the checkpoint list says which checkpoints came before which calls, not what changed),
// read from the store between the turn's checkpoints.
import { useEffect, useState } from "react";
import { api, type FileChange } from "../../shared/ipc";
import type { TurnCheckpoints } from "./turns";

export function useListedFiles(turn: TurnCheckpoints): FileChange[] | null {
  const needed = turn.files.length === 0 && turn.unlisted > 0 && turn.from !== null;
  const [files, setFiles] = useState<FileChange[] | null>(null);
  const { from, to } = turn;
  useEffect(() => {
    if (!needed || !from) return;
    let live = true;
    api.checkpointChanges(from, to).then(
      (found) => live && setFiles(found),
      () => live && setFiles(null),
    );
    return () => {
      live = false;
    };
  }, [needed, from, to]);
  return needed ? files : turn.files;
}
