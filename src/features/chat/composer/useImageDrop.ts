import { useState, type ClipboardEvent, type DragEvent } from "react";
import { systemClipboardImage } from "./imageFiles";

const carriesFiles = (e: DragEvent) => Array.from(e.dataTransfer?.types ?? []).includes("Files");

/**
 * Image files dropped on the composer or pasted into its field, handed to `attach`. `dragging` is
 * true while files are held over the composer (it shows where they would go).
 */
export function useImageDrop(disabled: boolean, attach: (files: File[], refusals?: string[]) => Promise<void>) {
  const [dragging, setDragging] = useState(false);

  const onDragOver = (e: DragEvent) => {
    if (!carriesFiles(e) || disabled) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = "copy";
    setDragging(true);
  };

  const onDragLeave = (e: DragEvent) => {
    if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
  };

  const onDrop = (e: DragEvent) => {
    setDragging(false);
    if (disabled) return;
    const files = Array.from(e.dataTransfer?.files ?? []);
    if (files.length === 0) return;
    e.preventDefault();
    void attach(files);
  };

  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const data = e.clipboardData;
    // Copied text comes with a picture of it from some apps (spreadsheet cells): text is pasted as text.
    if (!data || Array.from(data.types ?? []).includes("text/plain")) return;
    let files = Array.from(data.files ?? []);
    if (files.length === 0) {
      files = Array.from(data.items ?? [])
        .filter((item) => item.kind === "file")
        .map((item) => item.getAsFile())
        .filter((f): f is File => f !== null);
    }
    if (files.length > 0) {
      e.preventDefault();
      void attach(files);
    } else if ((data.types ?? []).length === 0) {
      // WebKitGTK hands a pasted image to the page as nothing at all (no types, no files): the
      // app reads the system clipboard instead.
      void systemClipboardImage().then(({ files: read, refusals }) => attach(read, refusals));
    }
  };

  return { dragging, dropHandlers: { onDragOver, onDragLeave, onDrop }, onPaste };
}
