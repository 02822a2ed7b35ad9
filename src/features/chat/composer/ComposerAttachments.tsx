import type { McpResourceText } from "../../../shared/ipc";
import { TID } from "../../../shared/testids";
import { AttachedImages } from "./AttachedImages";
import { AttachedResources } from "./AttachedResources";
import type { AttachedImage } from "./drafts";

/** What goes with the next message, above the field: its images and resources, and what is wrong with the images. */
export function ComposerAttachments({
  images,
  resources,
  imageError,
  takesImages,
  onRemoveImage,
  onRemoveResource,
}: {
  images: readonly AttachedImage[];
  resources: readonly McpResourceText[];
  /** Why images were not attached. */
  imageError: string | null;
  /** Whether the chosen model reads images (null: not known). */
  takesImages: boolean | null;
  onRemoveImage: (id: string) => void;
  onRemoveResource: (uri: string) => void;
}) {
  return (
    <>
      <AttachedImages images={images} onRemove={onRemoveImage} />
      <AttachedResources resources={resources} onRemove={onRemoveResource} />
      {imageError && (
        <p className="field-error small" role="alert" data-testid={TID.composerImageError}>
          {imageError}
        </p>
      )}
      {images.length > 0 && takesImages === false && (
        <p className="muted small" role="note" data-testid={TID.composerImageHint}>
          This model does not take images; it will be told an image was attached.
        </p>
      )}
    </>
  );
}
