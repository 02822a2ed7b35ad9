// The task list the model keeps (`todo_write`), pinned above the composer and updated as each
// call comes: what is done, what is under way, what is left. It folds to one line on request,
// and by itself once every task is done.
import { useState } from "react";
import type { TodoItem } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { VisibleText } from "../../shared/ui/VisibleText";
import "./todo.css";

const MARK: Record<TodoItem["state"], string> = { pending: "○", in_progress: "◐", done: "●" };
const SAID: Record<TodoItem["state"], string> = { pending: "to do", in_progress: "under way", done: "done" };

export function TodoPanel({ items }: { items: readonly TodoItem[] | null | undefined }) {
  const list = items ?? [];
  const done = list.filter((item) => item.state === "done").length;
  const allDone = list.length > 0 && done === list.length;
  // Folded by the user; `null`: as the list's state says (open while work is left).
  const [folded, setFolded] = useState<boolean | null>(null);
  if (list.length === 0) return null;
  const shut = folded ?? allDone;
  const current = list.find((item) => item.state === "in_progress");
  return (
    <section className="todo-panel" data-testid={TID.todoPanel} aria-label="Task list">
      <button type="button" className="todo-head" aria-expanded={!shut} onClick={() => setFolded(!shut)}>
        <span className="todo-count">
          Tasks · {done} of {list.length} done
        </span>
        {shut && current && (
          <span className="todo-current muted">
            {" — "}
            <VisibleText text={current.text} />
          </span>
        )}
      </button>
      {!shut && (
        <ol className="todo-items">
          {list.map((item) => (
            <li key={item.id} className={`todo-item todo-${item.state}`} data-testid={TID.todoItem} data-state={item.state}>
              <span className="todo-mark" role="img" aria-label={SAID[item.state]}>
                {MARK[item.state]}
              </span>
              <VisibleText text={item.text} />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
