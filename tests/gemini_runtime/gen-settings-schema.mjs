// Writes src/analysis/gemini/settings_schema.rs: what Gemini CLI's settings.json may hold, as the
// installed release validates it, in agent-lsp's shape types (src/analysis/shape.rs).
//
// Gemini CLI builds a zod validator from its settings schema (packages/cli/src/config/
// settingsSchema.ts, built by settings-validation.ts). This script reads both from the installed
// bundle and follows the same construction, so the generated data says what the release takes:
// sections keep unknown keys without a word (passthrough), an MCP server refuses them (strict),
// a number or boolean may also be written as a string that reads as one (zod preprocess).
//
//   node tests/gemini_runtime/gen-settings-schema.mjs > src/analysis/gemini/settings_schema.rs
//
// The Gemini judge (tests/gemini_runtime) runs it and fails when the committed file differs.
import { readFileSync, readdirSync, writeFileSync, unlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const pkgDir = join(here, "node_modules/@google/gemini-cli");
const bundle = join(pkgDir, "bundle");
const version = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")).version;

// The chunk that defines the schema; a copy of it beside it that also exports the definitions
// (the bundle exports only getSettingsSchema).
const chunk = readdirSync(bundle)
  .filter((f) => f.startsWith("chunk-") && f.endsWith(".js"))
  .sort()
  .find((f) => readFileSync(join(bundle, f), "utf8").includes("\nvar SETTINGS_SCHEMA_DEFINITIONS = {"));
if (!chunk) throw new Error("no chunk of the bundle defines SETTINGS_SCHEMA_DEFINITIONS");
const copy = join(bundle, `agent-lsp-schema-${process.pid}.js`);
writeFileSync(
  copy,
  readFileSync(join(bundle, chunk), "utf8") +
    "\nexport { SETTINGS_SCHEMA_DEFINITIONS as __agentLspDefinitions };\n",
);
let mod;
try {
  mod = await import(pathToFileURL(copy).href);
} finally {
  unlinkSync(copy);
}
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
//! GENERATED by \`node tests/gemini_runtime/gen-settings-schema.mjs\` from the installed release
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
process.stdout.write(out);
