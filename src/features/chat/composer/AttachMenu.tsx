import { useRef } from "react";
import type { McpResourceText } from "../../../shared/ipc";
import { TID } from "../../../shared/testids";
import { ACCEPT } from "./imageFiles";
import { ResourceAttach } from "./ResourceAttach";
import type { ProjectPlace } from "../../../shared/projectPlace";

/** The composer's attach buttons: images from files (a file picker), and a resource from an MCP server. */
export function AttachMenu({
  disabled,
  imagesFull,
  onFiles,
  onResource,
  place,
}: {
  disabled: boolean;
  /** Over a remote project's conversation: where its MCP servers run. */
  place?: ProjectPlace | null;
  /** As many images are attached as one message takes. */
  imagesFull: boolean;
  onFiles: (files: File[]) => void;
  onResource: (resource: McpResourceText) => void;
}) {
  const filePicker = useRef<HTMLInputElement>(null);
  return (
    <>
      <button
        type="button"
        className="composer-attach"
        data-testid={TID.composerAttach}
        aria-label="Attach images"
        title="Attach images (PNG, JPEG, GIF or WebP; you can also paste or drop them)"
        disabled={disabled || imagesFull}
        onClick={() => filePicker.current?.click()}
      >
        <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
          <path
            d="M21 11.5l-8.6 8.6a5.5 5.5 0 01-7.8-7.8l8.6-8.6a3.7 3.7 0 015.2 5.2l-8.6 8.6a1.8 1.8 0 01-2.6-2.6l7.9-7.9"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.8"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
      </button>
      <ResourceAttach disabled={disabled} onAttach={onResource} place={place} />
      <input
        ref={filePicker}
        type="file"
        accept={ACCEPT}
        multiple
        hidden
        data-testid={TID.composerFileInput}
        onChange={(e) => {
          const files = Array.from(e.target.files ?? []);
          // The same file can be chosen again next time.
          e.target.value = "";
          onFiles(files);
        }}
      />
    </>
  );
}
