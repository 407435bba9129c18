//! The flat (v1) settings of Gemini CLI and where each lives in the nested form.
//!
//! Gemini CLI once moved a flat `settings.json` to the nested form on its own; the migration was
//! removed (google-gemini/gemini-cli#16252), and 0.61.0 ignores a flat key without a word (a key
//! that is also a section, such as `model`, gets a type warning). The map is the one that
//! migration used, kept where 0.61.0 still has the setting (a test holds each target to the
//! generated schema); [`RETIRED`] are flat keys whose setting is gone.

use crate::analysis::diagnostic::Edit;
use crate::analysis::edit::Doc;
use crate::analysis::syntax::Node;

/// Each flat key and its nested path.
pub const MOVED: &[(&str, &str)] = &[
    ("accessibility", "ui.accessibility"),
    ("allowedTools", "tools.allowed"),
    ("allowMCPServers", "mcp.allowed"),
    ("autoConfigureMaxOldSpaceSize", "advanced.autoConfigureMemory"),
    ("bugCommand", "advanced.bugCommand"),
    ("chatCompression", "model.compressionThreshold"),
    ("checkpointing", "general.checkpointing"),
    ("coreTools", "tools.core"),
    ("contextFileName", "context.fileName"),
    ("customThemes", "ui.customThemes"),
    ("customWittyPhrases", "ui.customWittyPhrases"),
    ("debugKeystrokeLogging", "general.debugKeystrokeLogging"),
    ("dnsResolutionOrder", "advanced.dnsResolutionOrder"),
    ("enforcedAuthType", "security.auth.enforcedType"),
    ("excludeTools", "tools.exclude"),
    ("excludeMCPServers", "mcp.excluded"),
    ("excludedProjectEnvVars", "advanced.excludedEnvVars"),
    ("extensionManagement", "experimental.extensionManagement"),
    ("fileFiltering", "context.fileFiltering"),
    ("folderTrust", "security.folderTrust.enabled"),
    ("hasSeenIdeIntegrationNudge", "ide.hasSeenNudge"),
    ("hideWindowTitle", "ui.hideWindowTitle"),
    ("showStatusInTitle", "ui.showStatusInTitle"),
    ("hideTips", "ui.hideTips"),
    ("hideBanner", "ui.hideBanner"),
    ("hideFooter", "ui.hideFooter"),
    ("hideCWD", "ui.footer.hideCWD"),
    ("hideSandboxStatus", "ui.footer.hideSandboxStatus"),
    ("hideModelInfo", "ui.footer.hideModelInfo"),
    ("hideContextSummary", "ui.hideContextSummary"),
    ("showMemoryUsage", "ui.showMemoryUsage"),
    ("showLineNumbers", "ui.showLineNumbers"),
    ("showCitations", "ui.showCitations"),
    ("ideMode", "ide.enabled"),
    ("includeDirectories", "context.includeDirectories"),
    ("maxSessionTurns", "model.maxSessionTurns"),
    ("mcpServerCommand", "mcp.serverCommand"),
    ("memoryImportFormat", "context.importFormat"),
    ("memoryDiscoveryMaxDirs", "context.discoveryMaxDirs"),
    ("model", "model.name"),
    ("preferredEditor", "general.preferredEditor"),
    ("retryFetchErrors", "general.retryFetchErrors"),
    ("sandbox", "tools.sandbox"),
    ("selectedAuthType", "security.auth.selectedType"),
    ("enableInteractiveShell", "tools.shell.enableInteractiveShell"),
    ("shellPager", "tools.shell.pager"),
    ("shellShowColor", "tools.shell.showColor"),
    ("shellInactivityTimeout", "tools.shell.inactivityTimeout"),
    ("skipNextSpeakerCheck", "model.skipNextSpeakerCheck"),
    ("summarizeToolOutput", "model.summarizeToolOutput"),
    ("theme", "ui.theme"),
    ("toolDiscoveryCommand", "tools.discoveryCommand"),
    ("toolCallCommand", "tools.callCommand"),
    ("usageStatisticsEnabled", "privacy.usageStatisticsEnabled"),
    ("useExternalAuth", "security.auth.useExternal"),
    ("useRipgrep", "tools.useRipgrep"),
    ("vimMode", "general.vimMode"),
];

/// Flat keys whose setting Gemini CLI 0.61.0 no longer has anywhere.
pub const RETIRED: &[&str] = &[
    "autoAccept",
    "disableAutoUpdate",
    "disableUpdateNag",
    "enableHooks",
    "enablePromptCompletion",
    "experimentalSkills",
    "folderTrustFeature",
    "loadMemoryFromIncludeDirectories",
];

/// Where the flat key `key` lives in the nested form.
pub fn moved(key: &str) -> Option<&'static str> {
    MOVED.iter().find(|(k, _)| *k == key).map(|(_, to)| *to)
}

/// The edits that move the top-level entry `key` of `root` to the nested path `to`: into the
/// deepest section of `to` the file already has (an object), the sections it lacks written
/// around the value; `None` when a section on the way is not an object, when the setting is
/// already there, or when the key is written twice.
pub fn fix(top: &Node, key: &str, to: &str, doc: &Doc) -> Option<Vec<Edit>> {
    let root = top.as_map()?;
    if root.entries.iter().filter(|e| e.key.name == key).count() != 1 {
        return None;
    }
    let index = root.entries.iter().position(|e| e.key.name == key)?;
    let entry = &root.entries[index];
    let value = doc
        .text
        .get(entry.value.span.start as usize..entry.value.span.end as usize)?;
    let parts: Vec<&str> = to.split('.').collect();
    let (last, sections) = parts.split_last()?;
    // The deepest section the file has.
    let mut at: Option<&Node> = None;
    let mut map = root;
    let mut depth = 0;
    for s in sections {
        // `model` -> `model.name`: the flat key is the section's own name, to be rewritten.
        if depth == 0 && *s == key {
            break;
        }
        match map.value(s) {
            Some(n) => {
                map = n.as_map()?;
                at = Some(n);
                depth += 1;
            }
            None => break,
        }
    }
    let missing = &sections[depth..];
    if missing.is_empty() && map.contains(last) {
        return None;
    }
    // The value, wrapped in the sections the file lacks below `at`.
    let mut inner = value.to_string();
    let mut wrapped_key = (*last).to_string();
    for s in missing.iter().rev() {
        inner = format!("{{ {}: {inner} }}", doc.key(&wrapped_key));
        wrapped_key = (*s).to_string();
    }
    match at {
        // Into an existing section: out of the top level, into the section.
        Some(section) => {
            let delete = doc.delete_entry(top, index)?;
            let insert = doc.insert_last(section, &[(doc.key(&wrapped_key), inner)])?;
            Some(vec![delete, insert])
        }
        // No section of the path exists: the entry becomes the outermost one, in place.
        None => Some(vec![
            Edit::new(entry.key.span, doc.key(&wrapped_key)),
            Edit::new(entry.value.span, inner),
        ]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::shape::lookup;
    use crate::analysis::syntax::jsonc;

    #[test]
    fn every_nested_path_is_a_setting_of_the_release_and_no_retired_key_is() {
        for (flat, to) in MOVED {
            let path: Vec<&str> = to.split('.').collect();
            assert!(
                !lookup::field_at(&super::super::settings_schema::SETTINGS, &path).is_empty(),
                "{flat} -> {to}: no such setting in the generated schema"
            );
        }
        for flat in RETIRED {
            assert!(moved(flat).is_none(), "{flat}");
        }
    }

    fn fixed(text: &str, key: &str) -> Option<String> {
        let parsed = jsonc::parse(text);
        let root = parsed.root.as_ref()?;
        let doc = Doc { text, yaml: false };
        let edits = fix(root, key, moved(key)?, &doc)?;
        Some(crate::analysis::diagnostic::apply(text, &edits))
    }

    #[test]
    fn a_flat_key_moves_into_its_section() {
        // No section: the entry is rewritten in place.
        assert_eq!(
            fixed("{\n  \"contextFileName\": \"AGENTS.md\"\n}\n", "contextFileName").unwrap(),
            "{\n  \"context\": { \"fileName\": \"AGENTS.md\" }\n}\n"
        );
        // Two sections missing.
        assert_eq!(
            fixed("{\"hideCWD\": true}", "hideCWD").unwrap(),
            "{\"ui\": { \"footer\": { \"hideCWD\": true } }}"
        );
        // An existing section takes it.
        let out = fixed(
            "{\n  \"vimMode\": true,\n  \"general\": {\n    \"checkpointing\": {}\n  }\n}\n",
            "vimMode",
        )
        .unwrap();
        assert_eq!(
            out,
            "{\n  \"general\": {\n    \"checkpointing\": {},\n    \"vimMode\": true\n  }\n}\n"
        );
        assert!(jsonc::parse(&out).errors.is_empty());
        // Already set there, or a section that is no object: no fix.
        assert_eq!(
            fixed("{\"vimMode\": true, \"general\": {\"vimMode\": false}}", "vimMode"),
            None
        );
        assert_eq!(fixed("{\"vimMode\": true, \"general\": 3}", "vimMode"), None);
        assert_eq!(fixed("{\"vimMode\": true, \"vimMode\": false}", "vimMode"), None);
    }
}
