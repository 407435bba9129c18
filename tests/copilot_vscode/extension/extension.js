// Test-only extension of tests/copilot_vscode/run.sh (packed into a .vsix there, never published).
//
// VS Code's prompt-file validator (the workbench's "prompts-diagnostics-provider") validates a file
// only while it is shown in a code editor, and removes the file's markers when the editor shows
// another file. So, one file at a time: open it in an editor, wait until the validator has
// validated its text (a prompt file: a sentinel link appended, its marker awaited, the link taken
// out, its marker's end awaited, see validatedText(); any other file: its markers settle, at least
// minWaitMs and unchanged for stableMs), read them, revert and close it. First a warm-up: an
// untitled agent whose markers need the validator running and its slow first lookups done (see
// run()). Two readings of the same markers:
//
//   - vscode.languages.getDiagnostics(uri): every marker VS Code holds for the file, hints included
//     (markers the workbench sets are mirrored to the extension host), with code, severity,
//     message and range, but without the owner;
//   - the Problems panel's own Copy action (problems.action.copy, read back from the clipboard):
//     the raw markers with their owner, but without hints (the panel shows errors, warnings and
//     infos only).
//
// Each marker of the output is the first reading, with the owner taken from the second (null for
// a hint: no public surface names it); a file's markers sorted by range, then message. Settings:
// copilotVscodeProbe.control, the path of a JSON file written by run.sh:
//
//   { "files": [relative paths], "out": path, "meta": path, "log": path, "normalize": bool,
//     "warmupMs": n, "minWaitMs": n, "stableMs": n, "maxWaitMs": n }
//
// or, for the MCP variables session, { "mcp": { "settleMs": n, "waitMs": n }, "out": path,
// "log": path } (see runMcp).
//
// Writes `out` ({ "<relative path>": [markers] }) and `meta` (per file: language id, timings,
// how the owners were read; VS Code's own completions for tool names, a prompt's agent, a model,
// a target and the keys of each kind; the tools visible to extensions; the active extensions) at
// the end, `log` as it goes. normalize: the workspace's absolute URI and path in messages become
// vscode-remote://SERVER/WORKSPACE, file:///WORKSPACE and /WORKSPACE.
"use strict";
const vscode = require("vscode");
const fs = require("fs");

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const SEVERITY = ["error", "warning", "info", "hint"];
const SENTINEL = "<copilot-vscode-probe: nothing copied>";

function snapshot(uri) {
  return JSON.stringify(
    vscode.languages.getDiagnostics(uri).map((d) => [
      d.severity,
      d.message,
      typeof d.code === "object" && d.code !== null ? d.code.value : d.code,
      d.range.start.line,
      d.range.start.character,
      d.range.end.line,
      d.range.end.character,
    ]),
  );
}

/**
 * The Problems panel's markers (raw, with owner) of `uri`, `count` of them expected: copied with
 * the file's row focused (all its markers), else with nothing focused (all markers), or a string
 * saying why not.
 */
async function problemsPanelMarkers(uri, count) {
  const read = async (focusFirst) => {
    await vscode.env.clipboard.writeText(SENTINEL);
    await vscode.commands.executeCommand("workbench.action.problems.focus");
    await sleep(200);
    if (focusFirst) {
      await vscode.commands.executeCommand("list.focusFirst");
      await sleep(50);
    }
    await vscode.commands.executeCommand("problems.action.copy");
    const text = await vscode.env.clipboard.readText();
    return text === SENTINEL ? [] : JSON.parse(text).filter((m) => m.resource === uri.path);
  };
  try {
    const focused = await read(true);
    if (focused.length === count) {
      return { markers: focused, how: "problems-panel" };
    }
    const all = await read(false);
    if (all.length === count) {
      return { markers: all, how: "problems-panel" };
    }
    return `mismatch: ${count} non-hint diagnostics, the Problems panel copied ${focused.length} / ${all.length}`;
  } catch (err) {
    return `the Problems panel copy failed: ${err && err.message ? err.message : err}`;
  }
}

const PROMPT_LANGUAGES = new Set(["prompt", "instructions", "chatagent", "skill"]);
const SENTINEL_LINK = "copilot-vscode-probe-sentinel.md";

async function until(predicate, limitMs) {
  const started = Date.now();
  for (;;) {
    if (predicate()) {
      return true;
    }
    if (Date.now() - started > limitMs) {
      return false;
    }
    await sleep(50);
  }
}

/**
 * Waits until VS Code's validator has validated the text of `editor` as it is on disk, and says
 * how it knows: "sentinel", or why not. A clean file and a file not validated yet look the same
 * (no marker), and a slow machine validates late (a fixed wait once read a marked file as clean).
 * So a positive signal: append a link to a missing file (checked in the body of every kind, §12 of
 * VALIDATOR.md), wait for its marker (the validator ran on the edited text), remove the link
 * (the text is the file's again), and wait until the marker is gone. The validator sets a file's
 * markers all at once, when all its checks are done (`changeOne` after `await validate`), so the
 * markers then are those of the file's own text.
 */
async function validatedText(editor, limitMs) {
  const doc = editor.document;
  const uri = doc.uri;
  const original = doc.getText();
  const marked = () => vscode.languages.getDiagnostics(uri).some((d) => d.message.includes(SENTINEL_LINK));
  const start = doc.lineAt(doc.lineCount - 1).range.end;
  const sep = doc.eol === vscode.EndOfLine.CRLF ? "\r\n" : "\n";
  const added = await editor.edit((b) => b.insert(start, `${sep}${sep}[probe](${SENTINEL_LINK})${sep}`));
  if (!added) {
    return "no sentinel: the edit failed";
  }
  const seen = await until(marked, limitMs);
  const end = doc.lineAt(doc.lineCount - 1).range.end;
  const removed = await editor.edit((b) => b.delete(new vscode.Range(start, end)));
  if (!removed || doc.getText() !== original) {
    throw new Error(`${uri.path}: the sentinel link could not be taken out again`);
  }
  if (!seen) {
    return "no sentinel: its marker never came";
  }
  return (await until(() => !marked(), limitMs)) ? "sentinel" : "no sentinel: its marker stayed";
}

async function completionLabels(language, content, line, character) {
  try {
    const doc = await vscode.workspace.openTextDocument({ language, content });
    const list = await vscode.commands.executeCommand("vscode.executeCompletionItemProvider", doc.uri, new vscode.Position(line, character));
    return list.items.map((i) => (typeof i.label === "string" ? i.label : i.label.label)).sort();
  } catch (err) {
    return `failed: ${err && err.message ? err.message : err}`;
  }
}

/**
 * The MCP variables session (control.mcp): start every server of the workspace's
 * .vscode/mcp.json as a user does (workbench.mcp.startServer, trusting them without the dialog),
 * give them control.mcp.waitMs to connect or fail, then open the notification center, where
 * probe.mjs reads the errors ("Error starting NAME: ..."). What the servers receive is written by
 * the recorder (mcp_record.py). Writes control.out when done.
 */
async function runMcp(control) {
  const log = (line) => fs.appendFileSync(control.log, line + "\n");
  log("probe: starting every MCP server of .vscode/mcp.json");
  await sleep(control.mcp.settleMs);
  await vscode.commands.executeCommand("workbench.mcp.startServer", "*", { autoTrustChanges: true });
  await sleep(control.mcp.waitMs);
  await vscode.commands.executeCommand("notifications.showList");
  await sleep(500);
  fs.writeFileSync(control.out + ".tmp", JSON.stringify({ started: true }) + "\n");
  fs.renameSync(control.out + ".tmp", control.out);
  log("probe: done");
}

async function run(controlPath) {
  const control = JSON.parse(fs.readFileSync(controlPath, "utf8"));
  if (control.mcp) {
    return runMcp(control);
  }
  const logLines = [];
  const log = (line) => {
    logLines.push(line);
    fs.appendFileSync(control.log, line + "\n");
  };
  const folder = vscode.workspace.workspaceFolders && vscode.workspace.workspaceFolders[0];
  if (!folder) {
    log("FAIL: no workspace folder");
    fs.writeFileSync(control.meta, JSON.stringify({ error: "no workspace folder" }));
    return;
  }
  log(`probe: ${control.files.length} files`);
  // The validator is a workbench contribution of the "eventually" phase: it may start after this
  // extension. And its first lookups of the workspace's custom agents are slow (while nothing
  // else is marked yet: a file checked then would look clean). So first an untitled agent whose
  // markers need all of that: wait until VS Code has put them all, then warmupMs more.
  const readyStarted = Date.now();
  const sentinel = await vscode.workspace.openTextDocument({
    language: "chatagent",
    content: "---\nprobe-sentinel: x\nagents: ['probe-missing-agent']\nhandoffs:\n  - label: x\n    agent: probe-missing-agent\n    prompt: x\n---\n#tool:probe-missing-tool\n",
  });
  await vscode.window.showTextDocument(sentinel, { preview: false });
  const expected = ["'probe-sentinel'", "Unknown agent 'probe-missing-agent' will be ignored", "Unknown agent 'probe-missing-agent'. ", "'probe-missing-tool'"];
  for (;;) {
    const messages = vscode.languages.getDiagnostics(sentinel.uri).map((d) => d.message);
    if (expected.every((e) => messages.some((m) => m.includes(e)))) {
      break;
    }
    if (Date.now() - readyStarted > control.maxWaitMs * 4) {
      log(`FAIL: VS Code's prompt-file validator did not mark the sentinel agent as expected (got: ${JSON.stringify(messages)})`);
      return;
    }
    await sleep(100);
  }
  await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
  log(`probe: the validator runs (after ${Date.now() - readyStarted} ms)`);
  await sleep(control.warmupMs);
  // The workspace is a temporary copy: its absolute URI (file:, or vscode-remote://HOST:PORT as
  // the workbench of code-server names it) and path in messages made stable.
  const wsPath = folder.uri.path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const normalize = (message) =>
    message
      .replace(new RegExp(`vscode-remote://[^/\\s]+${wsPath}`, "g"), "vscode-remote://SERVER/WORKSPACE")
      .replace(new RegExp(`file://${wsPath}`, "g"), "file:///WORKSPACE")
      .split(folder.uri.fsPath)
      .join("/WORKSPACE");
  const out = {};
  const meta = { files: {}, vscodeVersion: vscode.version };
  for (const rel of control.files) {
    const uri = vscode.Uri.joinPath(folder.uri, ...rel.split("/"));
    const started = Date.now();
    const doc = await vscode.workspace.openTextDocument(uri);
    const editor = await vscode.window.showTextDocument(doc, { preview: false, preserveFocus: false });
    let timedOut = false;
    // A prompt file: read once VS Code has validated this very text (validatedBy: "sentinel").
    // Otherwise (no validator for the language, or no sentinel marker seen) wait until the
    // markers settle, as long as minWaitMs at least.
    let validatedBy = "settle";
    if (PROMPT_LANGUAGES.has(doc.languageId)) {
      validatedBy = await validatedText(editor, control.maxWaitMs);
    }
    if (validatedBy !== "sentinel") {
      const settleStarted = Date.now();
      let last = snapshot(uri);
      let lastChange = settleStarted;
      for (;;) {
        await sleep(100);
        const now = Date.now();
        const s = snapshot(uri);
        if (s !== last) {
          last = s;
          lastChange = now;
        }
        if (now - settleStarted >= control.minWaitMs && now - lastChange >= control.stableMs) {
          break;
        }
        if (now - settleStarted >= control.maxWaitMs) {
          timedOut = true;
          break;
        }
      }
    }
    const diagnostics = vscode.languages.getDiagnostics(uri);
    const nonHints = diagnostics.filter((d) => d.severity !== vscode.DiagnosticSeverity.Hint).length;
    let raw = [];
    let ownerSource = "problems-panel";
    if (nonHints > 0) {
      const panel = await problemsPanelMarkers(uri, nonHints);
      if (typeof panel === "string") {
        ownerSource = panel;
      } else {
        raw = panel.markers;
      }
    }
    const used = new Set();
    out[rel] = diagnostics.map((d) => {
      const code = typeof d.code === "object" && d.code !== null ? d.code.value : d.code;
      const r = d.range;
      const i = raw.findIndex(
        (m, j) =>
          !used.has(j) &&
          m.message === d.message &&
          m.startLineNumber === r.start.line + 1 &&
          m.startColumn === r.start.character + 1 &&
          m.endLineNumber === r.end.line + 1 &&
          m.endColumn === r.end.character + 1,
      );
      let owner = null;
      if (i !== -1) {
        used.add(i);
        owner = raw[i].owner;
      }
      const marker = {
        code: code === undefined ? null : String(code),
        severity: SEVERITY[d.severity],
        message: control.normalize ? normalize(d.message) : d.message,
        range: [r.start.line, r.start.character, r.end.line, r.end.character],
        owner,
      };
      if (d.tags && d.tags.length) {
        marker.tags = d.tags.map((t) => (t === vscode.DiagnosticTag.Unnecessary ? "unnecessary" : t === vscode.DiagnosticTag.Deprecated ? "deprecated" : String(t)));
      }
      if (d.source) {
        marker.source = d.source;
      }
      return marker;
    });
    // VS Code's own order is that of its (partly concurrent) checks, not stable from run to run
    // (two missing-file checks finish in either order): sorted by range, then message.
    out[rel].sort(
      (a, b) =>
        a.range[0] - b.range[0] || a.range[1] - b.range[1] || a.range[2] - b.range[2] || a.range[3] - b.range[3] || (a.message < b.message ? -1 : a.message > b.message ? 1 : 0),
    );
    meta.files[rel] = {
      languageId: doc.languageId,
      settleMs: Date.now() - started,
      timedOut,
      validatedBy,
      ownerSource,
    };
    log(`${rel}  [${doc.languageId}]  ${out[rel].length} marker(s)${timedOut ? " (did not settle)" : ""}  validated: ${validatedBy}  owners: ${ownerSource}`);
    // The sentinel's edit left the (restored) text dirty: revert it, so that no save dialog comes.
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
  }
  // What VS Code itself offers as completions (its own providers): every tool / tool set name it
  // knows (`#tool:` in an agent body), every agent name a prompt's `agent:` accepts, every model.
  meta.completions = {
    tools: await completionLabels("chatagent", "---\ndescription: probe\n---\n#tool:", 3, 6),
    promptAgent: await completionLabels("prompt", "---\nagent: \n---\n", 1, 7),
    agentModel: await completionLabels("chatagent", "---\nmodel: \n---\n", 1, 7),
    agentTarget: await completionLabels("chatagent", "---\ntarget: \n---\n", 1, 8),
    agentKeys: await completionLabels("chatagent", "---\n\n---\n", 1, 0),
    promptKeys: await completionLabels("prompt", "---\n\n---\n", 1, 0),
    instructionsKeys: await completionLabels("instructions", "---\n\n---\n", 1, 0),
  };
  meta.lmTools = vscode.lm && vscode.lm.tools ? vscode.lm.tools.map((t) => t.name).sort() : null;
  meta.activeExtensions = vscode.extensions.all.filter((e) => e.isActive).map((e) => e.id).sort();
  fs.writeFileSync(control.meta, JSON.stringify(meta, null, 2) + "\n");
  // `out` last: run.sh and probe.mjs wait for it.
  fs.writeFileSync(control.out + ".tmp", JSON.stringify(out, null, 2) + "\n");
  fs.renameSync(control.out + ".tmp", control.out);
  log("probe: done");
}

function activate() {
  const controlPath = vscode.workspace.getConfiguration("copilotVscodeProbe").get("control");
  if (!controlPath) {
    return;
  }
  run(controlPath).catch((err) => {
    try {
      const control = JSON.parse(fs.readFileSync(controlPath, "utf8"));
      fs.appendFileSync(control.log, `FAIL: ${err && err.stack ? err.stack : err}\n`);
    } catch {
      // Nothing to report to.
    }
  });
}

module.exports = { activate, deactivate() {} };
