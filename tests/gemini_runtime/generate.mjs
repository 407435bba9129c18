// Writes what agent-lsp's Gemini dialect takes from the installed Gemini CLI release, as Rust
// data (src/analysis/gemini/):
//
// - settings_schema.rs: what settings.json may hold, as the release validates it, in agent-lsp's
//   shape types (src/analysis/shape.rs). Gemini CLI builds a zod validator from its settings
//   schema (packages/cli/src/config/settingsSchema.ts, built by settings-validation.ts); this
//   script reads both from the bundle and follows the same construction: sections keep unknown
//   keys without a word (passthrough), an MCP server refuses them (strict), a number or boolean
//   may also be written as a string that reads as one (zod preprocess).
// - tool_names.rs: the built-in tool names and their legacy aliases, which an agent's `tools`
//   may name (packages/core/src/tools/tool-names.ts).
//
//   node tests/gemini_runtime/generate.mjs           writes both files
//   node tests/gemini_runtime/generate.mjs --check   fails when a committed file differs
//
// The Gemini judge (tests/gemini_runtime) runs it with --check.
import { existsSync, readFileSync, readdirSync, writeFileSync, unlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const pkgDir = join(here, "node_modules/@google/gemini-cli");
const bundle = join(pkgDir, "bundle");
const version = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")).version;

// The chunk of the bundle that defines `marker`, imported through a copy beside it that also
// exports `names` (the bundle exports few of them).
async function importChunk(marker, names) {
  const chunk = readdirSync(bundle)
    .filter((f) => f.startsWith("chunk-") && f.endsWith(".js"))
    .sort()
    .find((f) => readFileSync(join(bundle, f), "utf8").includes(marker));
  if (!chunk) throw new Error(`no chunk of the bundle holds ${JSON.stringify(marker)}`);
  // A name of its own per import: a module is imported once per URL.
  const copy = join(bundle, `agent-lsp-generate-${process.pid}-${names.length}-${chunk}`);
  writeFileSync(copy, readFileSync(join(bundle, chunk), "utf8") + `\nexport { ${names.join(", ")} };\n`);
  try {
    return await import(pathToFileURL(copy).href);
  } finally {
    unlinkSync(copy);
  }
}
const mod = await importChunk("\nvar SETTINGS_SCHEMA_DEFINITIONS = {", [
  "SETTINGS_SCHEMA_DEFINITIONS as __agentLspDefinitions",
]);
const tools = await importChunk("\nvar ALL_BUILTIN_TOOL_NAMES = [", [
  "ALL_BUILTIN_TOOL_NAMES as __agentLspTools",
  "TOOL_LEGACY_ALIASES as __agentLspAliases",
  "DISCOVERED_TOOL_PREFIX as __agentLspDiscovered",
  "MCP_TOOL_PREFIX as __agentLspMcp",
]);
const SCHEMA = mod.getSettingsSchema();
const DEFS = mod.__agentLspDefinitions;

// ---- Rust text ----------------------------------------------------------------------------
const rustStr = (s) =>
  '"' +
  [...String(s)]
    .map((c) => {
      if (c === "\\") return "\\\\";
      if (c === '"') return '\\"';
      if (c === "\n") return "\\n";
      if (c === "\r") return "\\r";
      if (c === "\t") return "\\t";
      const code = c.codePointAt(0);
      if (code < 0x20 || code === 0x7f) return `\\u{${code.toString(16)}}`;
      return c;
    })
    .join("") +
  '"';
const defConst = (name) =>
  "DEF_" + name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").replace(/MCP/g, "MCP_").replace(/__/g, "_").toUpperCase();

const LOOSE_BOOL = "LOOSE_BOOL";
const LOOSE_NUM = "LOOSE_NUM";
const ANY = "Shape::Any";

function lits(values, where) {
  if (!values.every((v) => typeof v === "string")) {
    throw new Error(`${where}: an enum of other values than strings (${JSON.stringify(values)})`);
  }
  return `Shape::Lit(&[${values.map((v) => `Lit::Str(${rustStr(v)})`).join(", ")}])`;
}

function doc(def) {
  let d = (def.description ?? "").trim();
  const dflt = def.default;
  if (dflt !== undefined && (typeof dflt !== "object" || dflt === null || Array.isArray(dflt))) {
    const shown = JSON.stringify(dflt);
    if (shown !== undefined && shown.length <= 80 && shown !== "[]") d += `${d ? " " : ""}Default: \`${shown}\`.`;
  }
  return d;
}

function object(what, fields, rest) {
  return `Shape::Object(&Object {\n what: ${rustStr(what)},\n fields: &[\n${fields.join(",\n")}\n ],\n rest: ${rest},\n })`;
}

function field(name, shape, required, docText) {
  return `Field::${required ? "req" : "opt"}(${rustStr(name)}, ${shape}, ${rustStr(docText)})`;
}

// buildZodSchemaFromDefinition: a setting of the schema (always optional).
function fromDefinition(def, path) {
  if (def.ref === "TelemetrySettings" && DEFS.TelemetrySettings) {
    return `Shape::Union(&[${LOOSE_BOOL}, ${defConst("TelemetrySettings")}])`;
  }
  if (def.ref && def.ref in DEFS) return defConst(def.ref);
  switch (def.type) {
    case "string":
      return "Shape::Str";
    case "number":
      return LOOSE_NUM;
    case "boolean":
      return LOOSE_BOOL;
    case "enum":
      return lits(def.options.map((o) => o.value), path);
    case "array":
      return def.items ? `Shape::Array(&${fromCollection(def.items, path + "[]")})` : `Shape::Array(&${ANY})`;
    case "object":
      if (def.properties) {
        const fields = Object.entries(def.properties).map(([k, d]) =>
          field(k, fromDefinition(d, `${path}.${k}`), false, doc(d)),
        );
        const rest = def.additionalProperties
          ? `Rest::Keep(&${fromCollection(def.additionalProperties, path + ".*")})`
          : "Rest::Drop";
        return object(`the \`${path}\` settings`, fields, rest);
      }
      if (def.additionalProperties) return `Shape::Record(&${fromCollection(def.additionalProperties, path + ".*")})`;
      return `Shape::Record(&${ANY})`;
    default:
      return ANY;
  }
}

// buildZodSchemaFromCollection: the items or extra values of a setting.
function fromCollection(c, path) {
  if (c.ref && c.ref in DEFS) return defConst(c.ref);
  switch (c.type) {
    case "string":
      return "Shape::Str";
    case "number":
      return LOOSE_NUM;
    case "boolean":
      return LOOSE_BOOL;
    case "enum":
      return lits(c.options.map((o) => o.value), path);
    case "array":
      if (c.properties) {
        const fields = Object.entries(c.properties).map(([k, d]) =>
          field(k, fromDefinition(d, `${path}.${k}`), false, doc(d)),
        );
        return `Shape::Array(&${object(`an item of \`${path}\``, fields, "Rest::Drop")})`;
      }
      return `Shape::Array(&${ANY})`;
    case "object":
      if (c.properties) {
        const fields = Object.entries(c.properties).map(([k, d]) =>
          field(k, fromDefinition(d, `${path}.${k}`), false, doc(d)),
        );
        return object(`a \`${path}\` entry`, fields, "Rest::Drop");
      }
      return `Shape::Record(&${ANY})`;
    default:
      return ANY;
  }
}

// buildZodSchemaFromJsonSchema: a shared definition (JSON Schema).
function fromJsonSchema(def, what) {
  if (def.anyOf) return `Shape::Union(&[${def.anyOf.map((d) => fromJsonSchema(d, what)).join(", ")}])`;
  switch (def.type) {
    case "string":
      return def.enum ? lits(def.enum, what) : "Shape::Str";
    case "number":
      return LOOSE_NUM;
    case "boolean":
      return LOOSE_BOOL;
    case "array":
      return def.items ? `Shape::Array(&${fromJsonSchema(def.items, what)})` : `Shape::Array(&${ANY})`;
    case "object": {
      const required = Array.isArray(def.required) ? def.required : [];
      const extra = typeof def.additionalProperties === "object" ? fromJsonSchema(def.additionalProperties, what) : null;
      if (!def.properties) {
        // z.object({}).passthrough(), made strict or given a catchall.
        if (def.additionalProperties === false) return object(what, [], "Rest::Refuse");
        return `Shape::Record(&${extra ?? ANY})`;
      }
      const fields = Object.entries(def.properties).map(([k, d]) =>
        field(k, fromJsonSchema(d, `\`${k}\` of ${what}`), required.includes(k), doc(d)),
      );
      let rest = "Rest::Drop";
      if (def.additionalProperties === false) rest = "Rest::Refuse";
      else if (extra) rest = `Rest::Keep(&${extra})`;
      return object(what, fields, rest);
    }
    default:
      return ANY;
  }
}

// What each shared definition is, for messages ("`advanced.bugCommand` has no `urlTemplate`,
// which a bug report command needs").
const WHAT = {
  MCPServerConfig: "an MCP server",
  RequiredMcpServerConfig: "a required MCP server",
  TelemetrySettings: "the telemetry settings",
  BugCommandSettings: "a bug report command",
  SummarizeToolOutputSettings: "a tool output summary",
  AgentOverride: "an agent override",
  CustomTheme: "a custom theme",
  HookDefinitionArray: "a hook definition",
  ModelDefinition: "a model definition",
  ModelResolution: "a model resolution",
  ModelPolicy: "a model policy",
  BooleanOrStringOrObject: "a sandbox setting",
};

let out = `//! \`settings.json\` as Gemini CLI ${version} validates it, as data (see [\`crate::analysis::shape\`]).
//!
//! GENERATED by \`node tests/gemini_runtime/generate.mjs\` from the installed release
//! (its settings schema and the zod validator it builds from it): do not edit; the Gemini judge
//! fails when this file differs from what the release says. What the shapes mean here:
//! \`Rest::Drop\` is a section that keeps an unknown key without a word (nothing reads it),
//! \`Rest::Refuse\` a strict object (an MCP server), \`LOOSE_BOOL\`/\`LOOSE_NUM\` a value zod
//! also takes as a string that reads as one (\`"true"\`, \`"5"\`).

#![allow(clippy::all)]

use super::loose::{LOOSE_BOOL, LOOSE_NUM};
use crate::analysis::shape::{Field, Lit, Object, Rest, Shape};

`;
for (const [name, def] of Object.entries(DEFS)) {
  out += `/// \`${name}\`: ${(def.description ?? "").replace(/\n/g, " ")}\npub const ${defConst(name)}: Shape = ${fromJsonSchema(def, WHAT[name] ?? `a \`${name}\` value`)};\n\n`;
}
const top = Object.entries(SCHEMA).map(([k, d]) => field(k, fromDefinition(d, k), false, doc(d)));
out += `/// The whole file: every top-level setting. Unknown top-level keys are kept without a word.\npub static SETTINGS: Shape = ${object("Gemini CLI's settings", top, "Rest::Drop")};\n`;

let names = `//! The tool names Gemini CLI ${version} knows, as data: what an agent's \`tools\` may name.
//!
//! GENERATED by \`node tests/gemini_runtime/generate.mjs\` from the installed release
//! (\`ALL_BUILTIN_TOOL_NAMES\`, \`TOOL_LEGACY_ALIASES\`): do not edit; the Gemini judge fails when
//! this file differs from what the release says.

/// The built-in tools, in the release's order.
pub const BUILT_IN: &[&str] = &[${tools.__agentLspTools.map(rustStr).join(", ")}];

/// Old names still taken, each with the tool it now names.
pub const LEGACY: &[(&str, &str)] = &[${Object.entries(tools.__agentLspAliases)
  .map(([a, b]) => `(${rustStr(a)}, ${rustStr(b)})`)
  .join(", ")}];

/// The prefix of a tool found by \`tools.discoveryCommand\`.
pub const DISCOVERED_PREFIX: &str = ${rustStr(tools.__agentLspDiscovered)};

/// The prefix of an MCP server's tool (\`mcp_<server>_<tool>\`).
pub const MCP_PREFIX: &str = ${rustStr(tools.__agentLspMcp)};
`;

const root = join(here, "../..");
const outputs = [
  ["src/analysis/gemini/settings_schema.rs", out],
  ["src/analysis/gemini/tool_names.rs", names],
];
if (process.argv.includes("--check")) {
  const stale = outputs.filter(([p, text]) => !existsSync(join(root, p)) || readFileSync(join(root, p), "utf8") !== text);
  for (const [p] of stale) console.error(`${p} is not what Gemini CLI ${version} generates: run node tests/gemini_runtime/generate.mjs`);
  process.exit(stale.length ? 1 : 0);
} else {
  for (const [p, text] of outputs) writeFileSync(join(root, p), text);
}
