// VS Code client for agent-lsp: starts `agent-lsp serve` for opencode agent files,
// opencode.json(c), Claude Code agent files, Zuno agent files and zuno.json(c), Codex's
// .codex/config.toml and agents, Gemini CLI's .gemini/settings.json, agents, commands,
// GEMINI.md and gemini-extension.json, GitHub Copilot's
// custom agents, prompt files, instructions and `.vscode/mcp.json`, command files and `SKILL.md`
// files, and keeps the server's `agentLsp` settings in sync.

import * as childProcess from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as vscode from "vscode";
import {
  DocumentSelector,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  TransportKind,
} from "vscode-languageclient/node";

const SECTION = "agentLsp";

/**
 * Only agent files, never every Markdown or JSON file. The server decides per file too.
 * Claude Code plugin agents (the `.md` files under `<plugin>/agents/`) are added per plugin by
 * {@link documentSelector}, since a glob cannot see the plugin's manifest.
 */
const GLOBS = [
  // opencode
  "**/.opencode/{agent,agents}/**/*.md",
  "**/.opencode/{mode,modes}/*.md",
  "**/opencode.json",
  "**/opencode.jsonc",
  // opencode's terminal settings, wherever opencode reads them (a project, `.opencode/`, the
  // global configuration directory).
  "**/tui.json",
  "**/tui.jsonc",
  // The global configuration directory (`~/.config/opencode/agents/*.md`) and directories laid
  // out like it.
  "**/opencode/{agent,agents}/**/*.md",
  // Claude Code: project agents (`<project>/.claude/agents/`, sub-folders included) and user
  // agents (`~/.claude/agents/`).
  "**/.claude/agents/**/*.md",
  // Claude Code's project settings (their permission rules).
  "**/.claude/settings.json",
  "**/.claude/settings.local.json",
  // Claude Code's memory files (their `@path` imports): `CLAUDE.md` of any folder,
  // `CLAUDE.local.md`, `.claude/CLAUDE.md` and the rules of `.claude/rules/`.
  "**/CLAUDE.md",
  "**/CLAUDE.local.md",
  "**/.claude/rules/**/*.md",
  // The instruction files several runtimes read, each in its own way (the hover on the first
  // line says which): `AGENTS.md`, `CONTEXT.md`, and Codex's `AGENTS.override.md`, which the
  // budget Codex shares between them may cut.
  "**/AGENTS.md",
  "**/AGENTS.override.md",
  "**/CONTEXT.md",
  // Zuno: `zuno.json(c)` anywhere in a project (and in `.zuno/`), the Markdown agents of
  // `.zuno/{agent,agents}/` (sub-folders included), the `.zuno/{mode,modes}/*.md` Zuno rejects
  // (the server says so), and the global directory (`~/.config/zuno/agents/**/*.md`).
  "**/zuno.json",
  "**/zuno.jsonc",
  "**/.zuno/{agent,agents}/**/*.md",
  "**/.zuno/{mode,modes}/*.md",
  "**/zuno/{agent,agents}/**/*.md",
  // agent-lsp's own project file.
  "**/agent-lsp.toml",
  "**/.agent-lsp.toml",
  // Commands: opencode's and Zuno's `{command,commands}/**/*.md` of their config folders
  // (global ones included), Claude Code's `.claude/commands/**/*.md`.
  "**/.opencode/{command,commands}/**/*.md",
  "**/opencode/{command,commands}/**/*.md",
  "**/.claude/commands/**/*.md",
  "**/.zuno/{command,commands}/**/*.md",
  // Skills: every `SKILL.md` in an agent folder (a misplaced one is reported), and
  // `.agents/skills/`.
  "**/.opencode/**/SKILL.md",
  "**/.claude/**/SKILL.md",
  "**/.zuno/**/SKILL.md",
  "**/.codex/**/SKILL.md",
  "**/.gemini/**/SKILL.md",
  "**/.agents/skills/**/SKILL.md",
  // GitHub Copilot: custom agents (`.github/agents/*.agent.md`, a plain `*.md` there, and the
  // legacy chat modes of `.github/chatmodes/`), prompt files, instructions (at any depth of
  // `.github/instructions/`), the repository's instructions, and the MCP servers of
  // `.vscode/mcp.json`. VS Code gives these files its own language ids (`chatagent`, `prompt`,
  // `instructions`); the selector names no language, so they are matched all the same.
  "**/.github/agents/*.md",
  "**/.github/chatmodes/*.chatmode.md",
  "**/.github/prompts/*.prompt.md",
  "**/.github/instructions/**/*.instructions.md",
  "**/.github/copilot-instructions.md",
  "**/.vscode/mcp.json",
  // Codex: `config.toml` of a project's `.codex/` (and of `~/.codex/`), and its custom agents
  // (`.codex/agents/**/*.toml`).
  "**/.codex/config.toml",
  "**/.codex/agents/**/*.toml",
  // Gemini CLI: `settings.json` of a project's `.gemini/` (and of `~/.gemini/`), its subagents
  // (`.gemini/agents/*.md`), its custom commands (`.gemini/commands/**/*.toml`), `GEMINI.md`
  // and an extension's `gemini-extension.json`.
  "**/.gemini/settings.json",
  "**/.gemini/agents/*.md",
  "**/.gemini/commands/**/*.toml",
  "**/GEMINI.md",
  "**/gemini-extension.json",
];

/** Where a Claude Code plugin keeps its manifest; its `agents/` folder holds agent files. */
const PLUGIN_MANIFEST = "**/.claude-plugin/plugin.json";

/** The most plugin manifests looked for in the workspace. */
const MAX_PLUGINS = 200;

/** Characters with a meaning in a glob: a plugin path holding one is not added. */
const GLOB_SPECIAL = /[*?[\]{}]/;

/**
 * The document selector: {@link GLOBS}, plus the `.md` files under `agents/` of every Claude Code
 * plugin in the workspace folders (a directory with `.claude-plugin/plugin.json`). A plugin's
 * pattern starts at its workspace folder's name: `<folder>/<path to the plugin>/agents/`, at any
 * depth below `**`.
 */
async function documentSelector(): Promise<DocumentSelector> {
  const patterns = [...GLOBS];
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length > 0) {
    let manifests: vscode.Uri[] = [];
    try {
      manifests = await vscode.workspace.findFiles(PLUGIN_MANIFEST, "**/node_modules/**", MAX_PLUGINS);
    } catch (err) {
      outputChannel?.appendLine(`cannot look for Claude Code plugins: ${String(err)}`);
    }
    for (const manifest of manifests) {
      const folder = vscode.workspace.getWorkspaceFolder(manifest);
      if (!folder || manifest.scheme !== "file") {
        continue;
      }
      const pluginRoot = path.dirname(path.dirname(manifest.fsPath));
      const rel = path.relative(folder.uri.fsPath, pluginRoot);
      const segments = [path.basename(folder.uri.fsPath), ...rel.split(path.sep).filter((s) => s.length > 0)];
      if (segments.some((s) => GLOB_SPECIAL.test(s) || s === "..")) {
        outputChannel?.appendLine(`Claude Code plugin not attached (its path cannot be written as a glob): ${pluginRoot}`);
        continue;
      }
      const pattern = `**/${segments.join("/")}/agents/**/*.md`;
      if (!patterns.includes(pattern)) {
        patterns.push(pattern);
      }
    }
  }
  return patterns.map((pattern) => ({ scheme: "file", pattern }));
}

let client: LanguageClient | undefined;
let outputChannel: vscode.OutputChannel | undefined;
let traceChannel: vscode.OutputChannel | undefined;
/** The last `agentLsp.severity` sent, to reset the codes a settings change removes. */
let lastSeverity: Record<string, unknown> = {};

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  outputChannel = vscode.window.createOutputChannel("agent-lsp");
  traceChannel = vscode.window.createOutputChannel("agent-lsp trace");
  context.subscriptions.push(outputChannel, traceChannel);

  context.subscriptions.push(
    vscode.commands.registerCommand("agentLsp.restartServer", () => restart(context)),
    vscode.commands.registerCommand("agentLsp.showOutput", () => outputChannel?.show(true)),
    // A Claude Code plugin created or removed: its agents join or leave the document selector.
    pluginWatcher(() => restart(context)),
    // Trusting the workspace allows the project's own install (node_modules/.bin/agent-lsp).
    vscode.workspace.onDidGrantWorkspaceTrust(() => restart(context)),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (e.affectsConfiguration(`${SECTION}.server.path`)) {
        // A new executable needs a new process.
        await restart(context);
      } else if (e.affectsConfiguration(`${SECTION}.severity`)) {
        resetRemovedSeverities();
      }
    }),
  );

  await restart(context);
}

/** Calls `onChange` (debounced) when a Claude Code plugin manifest appears or disappears. */
function pluginWatcher(onChange: () => unknown): vscode.Disposable {
  const watcher = vscode.workspace.createFileSystemWatcher(PLUGIN_MANIFEST, false, true, false);
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    if (timer) {
      clearTimeout(timer);
    }
    timer = setTimeout(() => {
      timer = undefined;
      void onChange();
    }, 500);
  };
  const subscriptions = [watcher, watcher.onDidCreate(schedule), watcher.onDidDelete(schedule)];
  return new vscode.Disposable(() => {
    if (timer) {
      clearTimeout(timer);
    }
    subscriptions.forEach((d) => d.dispose());
  });
}

/** Stop the running client (if any) and start a new one; calls run one after the other. */
let lifecycle: Promise<void> = Promise.resolve();
function restart(context: vscode.ExtensionContext): Promise<void> {
  lifecycle = lifecycle
    .catch(() => undefined)
    .then(stopClient)
    .then(() => startClient(context));
  return lifecycle;
}

export async function deactivate(): Promise<void> {
  await lifecycle.catch(() => undefined);
  await stopClient();
}

/** The settings the server understands (README: `severity`, `globalConfig`, `logLevel`). */
function serverSettings(): { severity: Record<string, unknown>; globalConfig: unknown; logLevel: unknown } {
  const config = vscode.workspace.getConfiguration(SECTION);
  return {
    severity: { ...(config.get<Record<string, unknown>>("severity") ?? {}) },
    globalConfig: config.get("globalConfig", true),
    logLevel: config.get("logLevel", "info"),
  };
}

/**
 * The server merges pushed settings key by key, so a code removed from `agentLsp.severity`
 * would keep its old level. Tell the server to go back to the default for those codes; the
 * full section is sent by the client's own configuration sync.
 */
function resetRemovedSeverities(): void {
  const current = serverSettings().severity;
  const removed: Record<string, string> = {};
  for (const code of Object.keys(lastSeverity)) {
    if (!(code in current)) {
      removed[code] = "default";
    }
  }
  lastSeverity = current;
  if (client?.isRunning() && Object.keys(removed).length > 0) {
    void client.sendNotification("workspace/didChangeConfiguration", {
      settings: { [SECTION]: { severity: removed } },
    });
  }
}

async function startClient(context: vscode.ExtensionContext): Promise<void> {
  const { command, source, searched, notes } = await resolveServer(context);
  for (const note of notes) {
    outputChannel?.appendLine(note);
  }
  if (!command) {
    for (const line of notFoundReport(searched)) {
      outputChannel?.appendLine(line);
    }
    // Not awaited: activation must not wait for the user to dismiss the message.
    void vscode.window
      .showErrorMessage(
        `agent-lsp: the \`agent-lsp\` executable was not found. Searched: ${searched.join(", ")}. ` +
          `Set \`${SECTION}.server.path\` to its full path, install it in the project (\`npm i -D agent-lsp\`) ` +
          "or with `cargo install`, or install the platform package of the extension, which bundles it.",
        "Open Setting",
        "Show Output",
      )
      .then((choice) => {
        if (choice === "Open Setting") {
          void vscode.commands.executeCommand("workbench.action.openSettings", `${SECTION}.server.path`);
        } else if (choice === "Show Output") {
          outputChannel?.show(true);
        }
      });
    return;
  }
  outputChannel?.appendLine(`server: ${command} (found: ${source})`);
  outputChannel?.appendLine(`server version: ${await serverVersion(command)}`);
  outputChannel?.appendLine(`starting ${command} serve`);

  // npm's Windows shim `agent-lsp.cmd` is a batch file: Node runs those only through a shell.
  const shell = isBatchFile(command);
  const executable = shell ? `"${command}"` : command;
  const serverOptions: ServerOptions = {
    run: { command: executable, args: ["serve"], transport: TransportKind.stdio, options: { shell } },
    debug: { command: executable, args: ["serve"], transport: TransportKind.stdio, options: { shell } },
  };
  const settings = serverSettings();
  lastSeverity = settings.severity;
  const clientOptions: LanguageClientOptions = {
    documentSelector: await documentSelector(),
    initializationOptions: { [SECTION]: settings },
    synchronize: { configurationSection: SECTION },
    outputChannel,
    traceOutputChannel: traceChannel,
  };

  // The id `agentLsp` makes the client read `agentLsp.trace.server`.
  client = new LanguageClient(SECTION, "agent-lsp", serverOptions, clientOptions);
  try {
    await client.start();
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    void vscode.window.showErrorMessage(`agent-lsp: the server failed to start: ${message}`);
  }
}

async function stopClient(): Promise<void> {
  const current = client;
  client = undefined;
  if (!current) {
    return;
  }
  try {
    await current.stop();
  } catch {
    // A server that already died cannot be stopped; dispose it anyway.
  }
  await current.dispose().catch(() => undefined);
}

/** Where {@link resolveServer} found the executable, as the output channel says it. */
type Source =
  | "the agentLsp.server.path setting"
  | "the project's node_modules/.bin"
  | "bundled with the extension"
  | "PATH"
  | "cargo's bin directory";

/**
 * What {@link resolveServer} found and where, every place it looked (in order), and notes for
 * the output channel (a project install skipped in an untrusted workspace).
 */
interface Resolution {
  command: string | undefined;
  source?: Source;
  searched: string[];
  notes: string[];
}

/**
 * The executable, looked up in this order: the `agentLsp.server.path` setting; the project's own
 * install, `<folder>/node_modules/.bin/agent-lsp` (`agent-lsp.cmd` on Windows) of each workspace
 * folder in order, in a trusted workspace only (it runs code from the project); the binary
 * bundled in a platform package (`<extension>/server/agent-lsp`); `agent-lsp` on `PATH`;
 * `$CARGO_HOME/bin/agent-lsp` and `~/.cargo/bin/agent-lsp` (`cargo install` puts it there, and the
 * PATH VS Code hands the extension host often lacks that directory).
 */
async function resolveServer(context: vscode.ExtensionContext): Promise<Resolution> {
  const exe = process.platform === "win32" ? "agent-lsp.exe" : "agent-lsp";
  const searched: string[] = [];
  const notes: string[] = [];
  const configured = vscode.workspace.getConfiguration(SECTION).get<string>("server.path", "").trim();
  if (configured) {
    const source = "the agentLsp.server.path setting";
    const expanded = expandHome(configured);
    if (path.isAbsolute(expanded)) {
      return { command: expanded, source, searched: [expanded], notes };
    }
    if (/[\\/]/.test(expanded)) {
      // A relative path: relative to the first workspace folder.
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
      const resolved = folder ? path.join(folder, expanded) : expanded;
      return { command: resolved, source, searched: [resolved], notes };
    }
    // A bare name: looked up on PATH.
    return { command: (await findOnPath(expanded, searched)) ?? expanded, source, searched, notes };
  }
  // The project's own install (`npm i -D agent-lsp`): the version the project pins, the one its
  // pre-commit hook and CI run.
  const projectBin = process.platform === "win32" ? "agent-lsp.cmd" : "agent-lsp";
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    if (folder.uri.scheme !== "file") {
      continue;
    }
    const candidate = path.join(folder.uri.fsPath, "node_modules", ".bin", projectBin);
    if (!vscode.workspace.isTrusted) {
      if (await isExecutable(candidate)) {
        notes.push(
          `the workspace is not trusted: not running the project's ${candidate} ` +
            "(it runs code from the project; trust the workspace to use it)",
        );
      }
      continue;
    }
    searched.push(candidate);
    if (await isExecutable(candidate)) {
      return { command: candidate, source: "the project's node_modules/.bin", searched, notes };
    }
  }
  const bundled = context.asAbsolutePath(path.join("server", exe));
  searched.push(bundled);
  if (await isExecutable(bundled)) {
    return { command: bundled, source: "bundled with the extension", searched, notes };
  }
  const onPath = await findOnPath(exe, searched);
  if (onPath) {
    return { command: onPath, source: "PATH", searched, notes };
  }
  for (const dir of cargoBinDirs()) {
    const candidate = path.join(dir, exe);
    if (searched.includes(candidate)) {
      continue;
    }
    searched.push(candidate);
    if (await isExecutable(candidate)) {
      return { command: candidate, source: "cargo's bin directory", searched, notes };
    }
  }
  return { command: undefined, searched, notes };
}

function isBatchFile(command: string): boolean {
  return process.platform === "win32" && /\.(cmd|bat)$/i.test(command);
}

/** The first line `<command> --version` prints (3 s at most), or why there is none. */
function serverVersion(command: string): Promise<string> {
  const shell = isBatchFile(command);
  return new Promise((resolve) => {
    childProcess.execFile(
      shell ? `"${command}"` : command,
      ["--version"],
      { timeout: 3000, shell, windowsHide: true },
      (err, stdout, stderr) => {
        const line = String(stdout).split(/\r?\n/).find((l) => l.trim().length > 0)?.trim();
        if (err) {
          const why = (err as NodeJS.ErrnoException & { killed?: boolean }).killed ? "timed out after 3 s" : err.message.split("\n")[0];
          resolve(`unknown (\`--version\` failed: ${why}${String(stderr).trim() ? `; ${String(stderr).trim().split(/\r?\n/)[0]}` : ""})`);
        } else {
          resolve(line ?? "unknown (`--version` printed nothing)");
        }
      },
    );
  });
}

/** `$CARGO_HOME/bin` (when set), then `~/.cargo/bin`. */
function cargoBinDirs(): string[] {
  const dirs: string[] = [];
  const cargoHome = process.env.CARGO_HOME?.trim();
  if (cargoHome) {
    dirs.push(path.join(expandHome(cargoHome), "bin"));
  }
  const home = os.homedir() || process.env.HOME || process.env.USERPROFILE;
  if (home) {
    const dir = path.join(home, ".cargo", "bin");
    if (!dirs.includes(dir)) {
      dirs.push(dir);
    }
  }
  return dirs;
}

/** The output channel's account of a failed lookup: every path tried and the setting to set. */
function notFoundReport(searched: string[]): string[] {
  return [
    "agent-lsp: the `agent-lsp` executable was not found. Searched, in this order:",
    ...searched.map((p) => `  ${p}`),
    `Set \`${SECTION}.server.path\` (Settings > Extensions > agent-lsp) to the full path of agent-lsp,`,
    "or install it in the project (`npm i -D agent-lsp`, used in a trusted workspace), or with `cargo install`",
    "(into ~/.cargo/bin), or install the platform .vsix that bundles it.",
  ];
}

function expandHome(p: string): string {
  const home = process.env.HOME ?? process.env.USERPROFILE;
  if (home && (p === "~" || p.startsWith("~/"))) {
    return path.join(home, p.slice(1));
  }
  return p;
}

/** `name` in the directories of PATH; every candidate tried is appended to `searched`. */
async function findOnPath(name: string, searched: string[]): Promise<string | undefined> {
  const dirs = (process.env.PATH ?? "").split(path.delimiter).filter((d) => d.length > 0);
  const exts =
    process.platform === "win32" && path.extname(name) === ""
      ? (process.env.PATHEXT ?? ".EXE;.CMD;.BAT").split(";")
      : [""];
  for (const dir of dirs) {
    for (const ext of exts) {
      const candidate = path.join(dir, name + ext);
      searched.push(candidate);
      if (await isExecutable(candidate)) {
        return candidate;
      }
    }
  }
  return undefined;
}

async function isExecutable(file: string): Promise<boolean> {
  try {
    const stat = await fs.promises.stat(file);
    if (!stat.isFile()) {
      return false;
    }
    if (process.platform !== "win32") {
      await fs.promises.access(file, fs.constants.X_OK);
    }
    return true;
  } catch {
    return false;
  }
}
