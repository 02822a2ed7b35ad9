// Image files the user attaches to a message: read as base64 and checked by their first bytes the
// way the engine checks them (it checks again), so a wrong file is refused before anything is sent.
import { api, MAX_IMAGE_BYTES, type ClipboardImage } from "../../../shared/ipc";
import type { AttachedImage } from "./drafts";

/** What the engine takes with one message (it refuses more): its own limits, generated. */
export { MAX_IMAGE_BYTES, MAX_IMAGES } from "../../../shared/ipc";
/** The kinds the engine sends to models; it checks the bytes again. */
export const ACCEPT = "image/png,image/jpeg,image/gif,image/webp";

/** The media type of an image by its first bytes (as the engine decides it); null when none of the four. */
export function sniffImage(base64: string): string | null {
  let head: string;
  try {
    head = atob(base64.slice(0, 24));
  } catch {
    return null;
  }
  if (head.startsWith("\x89PNG\r\n\x1a\n")) return "image/png";
  if (head.startsWith("\xff\xd8\xff")) return "image/jpeg";
  if (head.startsWith("GIF87a") || head.startsWith("GIF89a")) return "image/gif";
  if (head.startsWith("RIFF") && head.slice(8, 12) === "WEBP") return "image/webp";
  return null;
}

function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = typeof reader.result === "string" ? reader.result : "";
      const comma = url.indexOf(",");
      resolve(comma >= 0 ? url.slice(comma + 1) : "");
    };
    reader.onerror = () => reject(reader.error ?? new Error("unreadable"));
    reader.readAsDataURL(file);
  });
}

let serial = 0;

/** A fresh id for an attached image. */
export function nextImageId(): string {
  serial += 1;
  return `image-${serial}`;
}

/** Each file as an image to attach, or why it cannot be one. */
export async function toImage(file: File): Promise<AttachedImage | string> {
  const name = file.name || "pasted image";
  if (file.size > MAX_IMAGE_BYTES) return `“${name}” is larger than ${MAX_IMAGE_BYTES / (1024 * 1024)} MB.`;
  let data: string;
  try {
    data = await readBase64(file);
  } catch {
    return `“${name}” could not be read.`;
  }
  const mediaType = sniffImage(data);
  if (!mediaType) return `“${name}” is not a PNG, JPEG, GIF or WebP image.`;
  return { id: nextImageId(), name, mediaType, data };
}

/** The clipboard's image as a file, checked by `toImage` as any other. */
function clipboardFile(image: ClipboardImage): File {
  const bytes = Uint8Array.from(atob(image.data), (c) => c.charCodeAt(0));
  const extension = image.mediaType.slice("image/".length);
  return new File([bytes], `pasted image.${extension}`, { type: image.mediaType });
}

/**
 * The image on the system clipboard, read by the app (WebKitGTK gives a paste event none): the
 * files to attach, or why it could not be read.
 */
export async function systemClipboardImage(): Promise<{ files: File[]; refusals: string[] }> {
  try {
    const image = await api.clipboardImage();
    return { files: image ? [clipboardFile(image)] : [], refusals: [] };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { files: [], refusals: [`The clipboard's image could not be pasted: ${why}`] };
  }
}
