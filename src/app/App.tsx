// The window: boot, then first-run setup or the chat, with settings over it.
import { useEffect, useState } from "react";
import { ChatScreen } from "../features/chat/ChatScreen";
import { useConversations } from "../features/chat/list/useConversations";
import { SettingsPanel } from "../features/settings/SettingsPanel";
import type { KeyStatus, ProviderReadiness, Settings } from "../shared/ipc";
import { connectEvents } from "../shared/store/bridge";
import { useListener } from "../shared/useListener";
import { useChatStore } from "../shared/store/store";
import { TID } from "../shared/testids";
import { focusComposer } from "../shared/keyboard";
import { applyTheme } from "../shared/theme";
import { McpFormHost } from "../features/mcp/McpFormHost";
import { ShortcutsHelp } from "./ShortcutsHelp";
import { AboutDialog } from "./AboutDialog";
import { UpdateNotice } from "../features/updates/UpdateNotice";
import { BoxHomeNoticeBar } from "../features/settings/BoxHomeNoticeBar";
import { ProjectHooksBanner } from "../features/hooks/ProjectHooksBanner";
import { localPlace, remotePlace } from "../shared/projectPlace";
import { useUpdates } from "../features/updates/useUpdates";
import { useMenu } from "./useMenu";
import { useApprovalOpen } from "../features/approvals/useApprovalOpen";
import { RemoteLayer } from "../features/remote/RemoteLayer";
import { useRemoteProjects } from "../features/remote/useRemoteProjects";
import "../shared/ui/base.css";
import "./app.css";
import { useBoot } from "./useBoot";
import { modelChoiceOf } from "./modelChoice";
import { TopBar } from "./TopBar";
import { PricesProvider } from "../features/cost/PricesContext";
import { useRoute } from "./useRoute";
import { SetupRoute } from "./SetupRoute";

type LoadedProps = {
  settings: Settings;
  keys: KeyStatus[];
  readiness: ProviderReadiness;
  ollamaReachable: boolean;
};

// size: the window's screens, each handed what it needs of the settings and the route, a line each
function Loaded({ settings: initial, keys: initialKeys, readiness, ollamaReachable }: LoadedProps) {
  const [settings, setSettings] = useState(initial);
  const [keys, setKeys] = useState(initialKeys);
  const [help, setHelp] = useState(false);
  const [about, setAbout] = useState(false);
  const updates = useUpdates(settings.updates?.checkAtStart ?? true);
  useMenu({ onAbout: () => setAbout(true), onCheckForUpdates: updates.check });

  useEffect(() => applyTheme(settings.theme), [settings.theme]);

  // The conversation list and the one shown live here, not in the chat screen: Settings replace
  // the chat for a while, and a new conversation not sent yet (with its draft) must outlive them.
  const conversations = useConversations();
  const { route, setRoute, openSettings, toggleSettings, settingsFocus } = useRoute(readiness.ready, setSettings, setHelp, conversations.create);
  // A click on an approval's desktop notification shows its conversation, over Settings too.
  useApprovalOpen((conversationId) => {
    setRoute("chat");
    conversations.setActiveId(conversationId);
  });
  // Remote projects: the dialog that opens one, the one shown and its link.
  const remote = useRemoteProjects(conversations.activeId, conversations.openRemote, () => setRoute("chat"));
  // A dialog closed: the caret goes back to the message field.
  const closing = (setOpen: (open: boolean) => void) => () => {
    setOpen(false);
    focusComposer();
  };

  if (route === "setup") {
    return (
      <SetupRoute
        settings={settings}
        setSettings={setSettings}
        keys={keys}
        readiness={readiness}
        ollamaReachable={ollamaReachable}
        onOpenSettings={() => void openSettings()}
        onDone={() => setRoute("chat")}
      />
    );
  }

  const localChat = route === "chat" && remote.project === null;
  // The project the banners over the chat are about (its own hooks, the box's notice): the one open
  // here, or the remote one shown while it is linked (read on its machine).
  const shownRemote = remote.project && remote.linked.some((p) => p.conversationId === remote.project?.conversationId) ? remote.project : null;
  const projectPlace = shownRemote
    ? remotePlace(shownRemote.conversationId, shownRemote.target, shownRemote.host)
    : localChat && settings.projectDir
      ? localPlace(settings.projectDir)
      : null;
  const shell = (
    <div className="shell">
      <TopBar
        conversationId={route === "chat" ? conversations.activeId : null}
        projectDir={settings.projectDir ?? null}
        remote={route === "chat" ? remote.project : null}
        // Asked again after Settings closes: the folder or the global text may have changed.
        instructionsKey={`${settings.projectDir ?? ""}#${settings.globalInstructions ?? ""}#${route}`}
        settingsOpen={route === "settings"}
        onOpenSettings={() => void openSettings()}
        onToggleSettings={toggleSettings}
        onShortcuts={() => setHelp(true)}
        onOpenRemote={() => remote.openDialog()}
        onRemoteSaved={() => remote.project && remote.saved.show(remote.project)}
      />
      <UpdateNotice updates={updates} />
      {/* About the project shown: the one open here, or the linked remote one (asked there). */}
      {route === "chat" && <BoxHomeNoticeBar place={projectPlace} onOpenSettings={() => void openSettings()} />}
      {route === "chat" && <ProjectHooksBanner place={projectPlace} />}
      <RemoteLayer remote={remote} showBanner={route === "chat"} onDialogClosed={focusComposer} />
      {help && <ShortcutsHelp onClose={closing(setHelp)} />}
      {about && <AboutDialog onClose={closing(setAbout)} />}
      <McpFormHost />
      {route === "settings" ? (
        <SettingsPanel
          initial={settings}
          keys={keys}
          onSaved={setSettings}
          onKeysChanged={setKeys}
          onCheckForUpdates={updates.check}
          onAbout={() => setAbout(true)}
          onClose={() => setRoute("chat")}
          focusOnOpen={settingsFocus}
          remoteProjects={remote.linked}
        />
      ) : (
        <ChatScreen
          // What opens Settings from the chat is a refused or missing key's error: its field is next.
          onOpenSettings={() => void openSettings("providerKey")}
          onOpenSettingsAt={(section) => void openSettings(section)}
          projectDir={settings.projectDir ?? null}
          place={remote.project ? projectPlace : undefined}
          modelChoice={modelChoiceOf(settings, setSettings)}
          conversations={conversations}
          onOpenRemoteFound={remote.openFound}
        />
      )}
    </div>
  );
  // Every cost shown in the window is priced with the defaults and the user's prices over them.
  return <PricesProvider prices={settings.modelPrices}>{shell}</PricesProvider>;
}

export function App() {
  const boot = useBoot();
  const store = useChatStore();

  useListener(() => connectEvents(store), "engine events", [store]);

  return (
    <div className="app" data-testid={TID.appRoot}>
      {boot.state === "loading" && <p className="muted centered">Starting…</p>}
      {boot.state === "failed" && (
        <p className="field-error centered" role="alert">
          Warden could not read its settings: {boot.message}
        </p>
      )}
      {boot.state === "ready" && (
        <Loaded settings={boot.settings} keys={boot.keys} readiness={boot.readiness} ollamaReachable={boot.ollamaReachable} />
      )}
    </div>
  );
}
