// The project's instruction files in use, root first; each opens in the user's own app for it
// (only a file the engine lists as in use can be opened: see `instructions_open`).
import { useState } from "react";
import { api, type InstructionFile } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { messageOf } from "../../shared/format";
import "./instructions.css";

/** `bytes` in words: "900 bytes", "16 KB". */
export function sizeOf(bytes: number): string {
  return bytes < 1024 ? `${bytes} bytes` : `${Math.round(bytes / 1024)} KB`;
}

/** `there`: the files are on another machine (a remote project's), named, not opened from here. */
export function InstructionFileList({ files, there = null }: { files: InstructionFile[]; there?: string | null }) {
  const [error, setError] = useState<string | null>(null);
  const open = (file: InstructionFile) => {
    setError(null);
    Promise.resolve()
      .then(() => api.instructionsOpen(file.path))
      .catch((e: unknown) => setError(messageOf(e)));
  };
  return (
    <>
      <ul className="instruction-files" data-testid={TID.instructionFiles}>
        {files.map((file) => (
          <li key={file.path}>
            {there === null ? (
              <button
                type="button"
                className="link"
                data-testid={TID.instructionFileOpen}
                data-path={file.path}
                title={`Open ${file.path}`}
                onClick={() => open(file)}
              >
                {file.relativePath}
              </button>
            ) : (
              <code data-testid={TID.instructionFileThere} data-path={file.path} title={`${file.path} on ${there}`}>
                {file.relativePath}
              </code>
            )}
            {file.truncated && (
              <span className="muted small" data-testid={TID.instructionFileCut}>
                {" "}
                — too long: only the first {sizeOf(file.bytes)} reach the model
              </span>
            )}
          </li>
        ))}
      </ul>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}
