// Holds the UI's functions to 80 lines. A long component or hook is hard to read and hard to
// review: what it does is spread over more than a screen, and a change to one part is read against
// all the rest. The Rust side has the same limit through clippy's `too_many_lines`.
//
// Walks every src/**/*.ts(x) git knows of except src/bindings.ts (generated) and the tests, finds
// every function (declarations, function expressions, arrows, methods, accessors) and counts its
// lines, from its first line to its last. One over 80 lines is an error, unless the line directly
// above it, or above the statement holding it (`const x = …`, `export …`), is a comment
// `// size: <a one-line reason>`, as a Rust function carries #[allow(clippy::too_many_lines)].
// Prints each error and each allowed one (a note), then a summary; exits 1 on any error.
// Run: npm run sizes
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const LIMIT = 80;
/** Near the limit: counted in the summary, so growth is seen before it fails. */
const NEAR = 60;
const REASON = /^\s*\/\/ size: (\S.*)$/;

process.chdir(fileURLToPath(new URL("..", import.meta.url)));

// The files git knows of: tracked, or new and not ignored (a new file is held too before it is added).
const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", "src"], {
  encoding: "utf8",
})
  .split("\0")
  .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))
  .filter((f) => f !== "src/bindings.ts" && !f.startsWith("src/test/") && existsSync(f))
  .sort();

// A function's name: its own, the variable or property it is assigned to, or the call it is given to.
function nameOf(node) {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) return parent.name.getText();
  if (ts.isCallExpression(parent)) return `(callback of ${parent.expression.getText()})`;
  return "(anonymous)";
}

// The `const x = …` (or `export default …`) statement a function is the value of, through a
// wrapping call (`memo(…)`); else the function itself.
function holderOf(node) {
  let value = node;
  while (ts.isCallExpression(value.parent) || ts.isParenthesizedExpression(value.parent)) value = value.parent;
  if (ts.isVariableDeclaration(value.parent)) return value.parent.parent.parent;
  if (ts.isExportAssignment(value.parent)) return value.parent;
  return node;
}

let counted = 0;
let near = 0;
let over = 0;
let allowed = 0;
for (const path of files) {
  const text = readFileSync(path, "utf8");
  const lines = text.split(/\r?\n/);
  const kind = path.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
  const lineOf = (pos) => source.getLineAndCharacterOfPosition(pos).line; // 0-based
  const reasonAbove = (node) => REASON.exec(lines[lineOf(node.getStart(source)) - 1] ?? "")?.[1];

  const visit = (node) => {
    if (ts.isFunctionLike(node) && node.body) {
      const start = lineOf(node.getStart(source));
      const count = lineOf(node.getEnd()) - start + 1;
      counted += 1;
      if (count > NEAR) near += 1;
      if (count > LIMIT) {
        over += 1;
        const what = `function ${nameOf(node)} has ${count} lines`;
        const reason = reasonAbove(node) ?? reasonAbove(holderOf(node));
        if (reason) {
          allowed += 1;
          console.log(`${path}:${start + 1}: note: ${what}, allowed: ${reason}`);
        } else {
          console.log(`${path}:${start + 1}: ${what} (over ${LIMIT})`);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

console.log(
  `ts-sizes: ${counted} functions in ${files.length} files, ${near} over ${NEAR} lines, ` +
    `${over} over ${LIMIT}, ${allowed} of them allowed`,
);
process.exit(over > allowed ? 1 : 0);
