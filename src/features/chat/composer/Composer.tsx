import { useRef } from "react";
import type { McpResourceText, ToolImage } from "../../../shared/ipc";
import { AttachMenu } from "./AttachMenu";
import { ComposerAttachments } from "./ComposerAttachments";
import { MAX_IMAGES } from "./imageFiles";
import { MessageField } from "./MessageField";
import { PlanModeLine, PlanToggle } from "../../plan/PlanToggle";
import { setPlanMode } from "../../plan/planMode";
import { PastedTexts } from "./PastedTexts";
import { usePastedTexts, withPasted } from "./pastedTexts";
import { withResources } from "./resources";
import { SendStop } from "./SendStop";
import { SlashAbove } from "./SlashAbove";
import { useSlash, type SlashSetup } from "./useSlash";
import { useComposerDraft } from "./useComposerDraft";
import { useImageDrop } from "./useImageDrop";

type ComposerProps = {
  /** Whose draft the field holds: what was typed and not sent stays with its conversation. */
  conversationId: string;
  running: boolean;
  disabled?: boolean;
  /** What the empty field says instead of the usual (why it is disabled). */
  placeholder?: string;
  onSend: (text: string, images: ToolImage[]) => void;
  onStop: () => void;
  /** Text (and images) to put in the composer (a message taken back by a rewind); each new object replaces them. */
  draft?: { text: string; images?: readonly ToolImage[] } | null;
  /** Whether the chosen model reads images (null: not known). */
  takesImages?: boolean | null;
  /** Told how many images are attached, as that changes. */
  onImages?: (count: number) => void;
  /** Slash commands: the project folder they are read for, what `/clear` and `/permissions` do. */
  slash?: SlashSetup;
};

/** Where a message is written: its text, the images and resources attached to it, and Send (Stop while a turn runs). */
// size: the composer's parts wired together (draft, images, pasted texts, resources, slash commands), a line or two each
export function Composer({
  conversationId,
  running,
  disabled = false,
  placeholder,
  onSend,
  onStop,
  draft = null,
  takesImages = null,
  onImages,
  slash: slashSetup,
}: ComposerProps) {
  const { text, setText, images, imageError, resources, setResources, reading, attach, removeImage, clear } =
    useComposerDraft(conversationId, draft, onImages);
  const { dragging, dropHandlers, onPaste } = useImageDrop(disabled, attach);
  const pasted = usePastedTexts(conversationId);
  const input = useRef<HTMLTextAreaElement>(null);
  const slash = useSlash({ ...slashSetup, text, setText, input, planModeOn: () => setPlanMode(conversationId, true) });
  const attachedSomething = images.length > 0 || resources.length > 0 || pasted.pasted.length > 0;
  const canSend = !running && !disabled && reading === 0 && (text.trim().length > 0 || attachedSomething);

  // What a control beside the field does, then the caret back in the field.
  const thenFocus =
    <T,>(act: (arg: T) => void) =>
    (arg: T) => {
      act(arg);
      input.current?.focus();
    };

  const send = () => {
    if (!disabled && slash.runTyped(text)) return; // a built-in slash command: run in the window, never sent
    if (!canSend) return;
    onSend(
      withResources(withPasted(text.trim(), pasted.pasted), resources),
      images.map(({ mediaType, data }) => ({ mediaType, data })),
    );
    clear();
    pasted.clear();
  };

  return (
    <div className={`composer-box${dragging ? " composer-dragging" : ""}`} {...dropHandlers}>
      <ComposerAttachments
        images={images}
        resources={resources}
        imageError={imageError}
        takesImages={takesImages}
        onRemoveImage={thenFocus(removeImage)}
        onRemoveResource={thenFocus((uri: string) => setResources(resources.filter((resource) => resource.uri !== uri)))}
      />
      <PastedTexts pasted={pasted.pasted} onRemove={thenFocus(pasted.remove)} />
      <SlashAbove slash={slash} conversationId={conversationId} />
      <PlanModeLine conversationId={conversationId} />
      <div className="composer">
        <AttachMenu
          disabled={disabled}
          imagesFull={images.length >= MAX_IMAGES}
          place={slashSetup?.place}
          onFiles={thenFocus((files: File[]) => void attach(files))}
          onResource={thenFocus((resource: McpResourceText) =>
            setResources([...resources.filter((r) => r.uri !== resource.uri), resource]),
          )}
        />
        <MessageField
          input={input}
          text={text}
          running={running}
          disabled={disabled}
          placeholder={placeholder}
          onText={setText}
          onEnter={send}
          onPaste={(e) => pasted.takePaste(e) || onPaste(e)}
          slash={slash.field}
        />
        <PlanToggle conversationId={conversationId} disabled={disabled} />
        <SendStop
          running={running}
          canSend={canSend}
          onSend={send}
          // The Stop button goes away with the turn: the caret goes back to the message field.
          onStop={thenFocus<void>(onStop)}
        />
      </div>
    </div>
  );
}
