//! `tui.json` / `tui.jsonc` as opencode 1.18.34 decodes it, as data (see
//! [`crate::analysis::shape`]): the settings of opencode's terminal interface (theme, keybinds,
//! plugins, attention sounds, prompt size, scrolling, diff style, cursor, mouse), their types,
//! bounds and values, and the 184 keybinds it knows with what each does.
//!
//! Facts: the TUI config schema and loader of the 1.18.34 release, confirmed by starting its
//! terminal interface on generated files (`tests/runtime/tui.rs`): every object is a plain
//! struct (keys it does not know are dropped without a word), the keybinds it does not know are
//! removed before decoding, and any value it refuses makes it skip the whole file.

use crate::analysis::shape::{Bound, Field, Lit, Num, Object, Rest, Shape};

const STR: Shape = Shape::Str;
const BOOL: Shape = Shape::Bool;
const POSITIVE_INT: Shape = Shape::Num(Num::POSITIVE_INT);

/// The root: `tui.json(c)`.
pub static TUI: Shape = Shape::Object(&Object {
    what: "the tui.json settings",
    fields: TOP,
    rest: Rest::Drop,
});

static TOP: &[Field] = &[
    Field::opt(
        "$schema",
        STR,
        "The JSON Schema of this file, for editors: `https://opencode.ai/tui.json`.",
    ),
    Field::opt("theme", STR, "The color theme of the terminal interface, by name."),
    Field::opt(
        "keybinds",
        Shape::Object(&KEYBINDS),
        "Key bindings by action. Each takes a key (`\"ctrl+x\"`), `\"none\"` or `false` to unbind it, a key object (`{\"name\": \"x\", \"ctrl\": true}`), a binding object (`{\"key\": ..., \"event\": \"release\"}`), or a list of keys and objects. A name opencode does not know is removed without a word.",
    )
    .aka(&["keybindings", "keymap", "keys"]),
    Field::opt(
        "plugin",
        Shape::Array(&PLUGIN),
        "Plugins of the terminal interface: an npm package name (`name@version`), a path or URL, or `[spec, options]`.",
    )
    .aka(&["plugins"]),
    Field::opt(
        "plugin_enabled",
        Shape::Record(&BOOL),
        "Turn plugins on (`true`) or off (`false`) by name.",
    ),
    Field::opt(
        "leader_timeout",
        POSITIVE_INT,
        "How long the leader key waits for the next key, in milliseconds.",
    ),
    Field::opt(
        "attention",
        Shape::Object(&ATTENTION),
        "Notifications and sounds when a session needs attention: `enabled`, `notifications`, `sound`, `volume`, `sound_pack`, `sounds`.",
    ),
    Field::opt(
        "prompt",
        Shape::Object(&PROMPT),
        "The size of the prompt: `max_height`, `max_width`.",
    ),
    Field::opt(
        "scroll_speed",
        Shape::Num(Num {
            int: false,
            min: Bound::Incl(0.001),
            max: None,
        }),
        "How fast the terminal interface scrolls.",
    ),
    Field::opt(
        "scroll_acceleration",
        Shape::Object(&SCROLL_ACCELERATION),
        "Scroll acceleration: `{\"enabled\": true}` or `false` (`enabled` is required).",
    ),
    Field::opt(
        "diff_style",
        Shape::Lit(&[Lit::Str("auto"), Lit::Str("stacked")]),
        "How diffs are drawn: `auto` adapts to the terminal's width, `stacked` always shows a single column.",
    ),
    Field::opt(
        "cursor",
        Shape::Object(&CURSOR),
        "The terminal cursor: `style`, `blinking`.",
    ),
    Field::opt(
        "mouse",
        BOOL,
        "Capture the mouse (default `true`); `false` leaves it to the terminal.",
    ),
];

static PLUGIN: Shape = Shape::Union(&[STR, Shape::Tuple(&[STR, Shape::Record(&Shape::Any)])]);

static ATTENTION: Object = Object {
    what: "attention settings",
    fields: &[
        Field::opt("enabled", BOOL, "Turn attention notifications and sounds on or off."),
        Field::opt("notifications", BOOL, "Show notifications."),
        Field::opt("sound", BOOL, "Play sounds."),
        Field::opt(
            "volume",
            Shape::Num(Num {
                int: false,
                min: Bound::Incl(0.0),
                max: Some(1.0),
            }),
            "The volume of the sounds, from 0 to 1.",
        ),
        Field::opt("sound_pack", STR, "The sound pack to play, by name."),
        Field::opt(
            "sounds",
            Shape::Object(&SOUNDS),
            "A sound file for each event (`default`, `question`, `permission`, `error`, `done`, `subagent_done`); a relative path is read from this file's folder, an empty one is left out.",
        ),
    ],
    rest: Rest::Drop,
};

static SOUNDS: Object = Object {
    what: "attention sounds",
    fields: &[
        Field::opt("default", STR, "The sound of an event that has none of its own."),
        Field::opt("question", STR, "The sound when an agent asks a question."),
        Field::opt("permission", STR, "The sound when a tool call waits for permission."),
        Field::opt("error", STR, "The sound when a session fails."),
        Field::opt("done", STR, "The sound when a session is done."),
        Field::opt("subagent_done", STR, "The sound when a subagent is done."),
    ],
    rest: Rest::Drop,
};

static PROMPT: Object = Object {
    what: "prompt settings",
    fields: &[
        Field::opt("max_height", POSITIVE_INT, "The greatest height of the prompt input."),
        Field::opt(
            "max_width",
            Shape::Union(&[POSITIVE_INT, Shape::Lit(&[Lit::Str("auto")])]),
            "The greatest width of the home screen's prompt: a whole number for a fixed cap, or `\"auto\"` to follow the terminal's width.",
        ),
    ],
    rest: Rest::Drop,
};

static SCROLL_ACCELERATION: Object = Object {
    what: "scroll acceleration",
    fields: &[Field::req("enabled", BOOL, "Turn scroll acceleration on or off.")],
    rest: Rest::Drop,
};

static CURSOR: Object = Object {
    what: "cursor settings",
    fields: &[
        Field::opt(
            "style",
            Shape::Lit(&[
                Lit::Str("block"),
                Lit::Str("underline"),
                Lit::Str("line"),
                Lit::Str("default"),
            ]),
            "The cursor's shape: `block`, `underline`, `line`, or `default` to keep the terminal's own.",
        ),
        Field::opt(
            "blinking",
            BOOL,
            "Whether the cursor blinks (no effect with the style `default`).",
        ),
    ],
    rest: Rest::Drop,
};

// ---------------------------------------------------------------------------------------------
// Keybinds

/// A key as an object.
static KEY: Object = Object {
    what: "a key object",
    fields: &[
        Field::req("name", STR, "The key's name (`a`, `return`, `f1`, ...)."),
        Field::opt("ctrl", BOOL, "With Ctrl held."),
        Field::opt("shift", BOOL, "With Shift held."),
        Field::opt("meta", BOOL, "With Meta (Alt) held."),
        Field::opt("super", BOOL, "With Super held."),
        Field::opt("hyper", BOOL, "With Hyper held."),
    ],
    rest: Rest::Drop,
};

/// A key with how it is handled; other keys are kept and handed on.
static BINDING: Object = Object {
    what: "a binding object",
    fields: &[
        Field::req(
            "key",
            Shape::Union(&[STR, Shape::Object(&KEY)]),
            "The key: a string (`\"ctrl+x\"`) or a key object.",
        ),
        Field::opt(
            "event",
            Shape::Lit(&[Lit::Str("press"), Lit::Str("release")]),
            "Whether the binding fires when the key is pressed (`press`) or released (`release`).",
        ),
        Field::opt("preventDefault", BOOL, "Stop the key's default handling."),
        Field::opt("fallthrough", BOOL, "Let the key go on to other bindings too."),
    ],
    rest: Rest::Keep(&Shape::Any),
};

/// One key of a keybind: a string, a key object or a binding object.
static ONE_KEY: Shape = Shape::Union(&[STR, Shape::Object(&KEY), Shape::Object(&BINDING)]);

/// A keybind's value.
static KEYBIND: [Shape; 5] = [
    Shape::Lit(&[Lit::Bool(false), Lit::Str("none")]),
    STR,
    Shape::Object(&KEY),
    Shape::Object(&BINDING),
    Shape::Array(&ONE_KEY),
];

static KEYBINDS: Object = Object {
    what: "keybind names to keys",
    fields: KEYBIND_FIELDS,
    rest: Rest::Drop,
};

macro_rules! keybinds {
    ($($name:literal => $doc:literal,)*) => {
        /// The keybinds opencode 1.18.34 knows, each with what it does, in its own order.
        static KEYBIND_FIELDS: &[Field] = &[$(Field::opt($name, Shape::Union(&KEYBIND), $doc)),*];
    };
}

keybinds! {
    "leader" => "Leader key for keybind combinations.",
    "app_exit" => "Exit the application.",
    "app_debug" => "Toggle debug panel.",
    "app_console" => "Toggle console.",
    "app_heap_snapshot" => "Write heap snapshot.",
    "app_toggle_animations" => "Toggle animations.",
    "app_toggle_file_context" => "Toggle file context.",
    "app_toggle_diffwrap" => "Toggle diff wrapping.",
    "app_toggle_paste_summary" => "Toggle paste summary.",
    "app_toggle_session_directory_filter" => "Toggle session directory filtering.",
    "command_list" => "List available commands.",
    "help_show" => "Open help dialog.",
    "docs_open" => "Open documentation.",
    "diff_open" => "Open diff viewer.",
    "diff_close" => "Close diff viewer.",
    "diff_toggle" => "Toggle diff viewer item.",
    "diff_expand" => "Expand diff viewer item.",
    "diff_expand_all" => "Expand all diff viewer folders.",
    "diff_collapse" => "Collapse diff viewer item.",
    "diff_switch_focus" => "Switch diff viewer focus.",
    "diff_next_hunk" => "Jump to next diff hunk.",
    "diff_previous_hunk" => "Jump to previous diff hunk.",
    "diff_next_file" => "Jump to next diff file.",
    "diff_previous_file" => "Jump to previous diff file.",
    "diff_toggle_file_tree" => "Toggle diff viewer file tree.",
    "diff_single_patch" => "Toggle single patch view.",
    "diff_switch_source" => "Switch diff viewer source.",
    "diff_toggle_view" => "Toggle diff viewer split or unified view.",
    "diff_help" => "Show more diff viewer shortcuts.",
    "editor_open" => "Open external editor.",
    "theme_list" => "List available themes.",
    "theme_switch_mode" => "Switch between light and dark theme mode.",
    "theme_mode_lock" => "Lock or unlock theme mode.",
    "sidebar_toggle" => "Toggle sidebar.",
    "scrollbar_toggle" => "Toggle session scrollbar.",
    "status_view" => "View status.",
    "debug_view" => "View debug info.",
    "session_export" => "Export session to editor.",
    "session_copy" => "Copy session transcript.",
    "session_move" => "Move session.",
    "session_new" => "Create a new session.",
    "session_list" => "List all sessions.",
    "session_timeline" => "Show session timeline.",
    "session_fork" => "Fork session from message.",
    "session_rename" => "Rename session.",
    "session_delete" => "Delete session.",
    "session_share" => "Share current session.",
    "session_unshare" => "Unshare current session.",
    "session_interrupt" => "Interrupt current session.",
    "session_background" => "Background synchronous subagents.",
    "session_compact" => "Compact the session.",
    "session_toggle_timestamps" => "Toggle message timestamps.",
    "session_toggle_generic_tool_output" => "Toggle generic tool output.",
    "session_queued_prompts" => "Manage queued prompts.",
    "session_child_first" => "Go to first child session.",
    "session_child_cycle" => "Go to next child session.",
    "session_child_cycle_reverse" => "Go to previous child session.",
    "session_parent" => "Go to parent session.",
    "session_pin_toggle" => "Pin or unpin session in the session list.",
    "session_quick_switch_1" => "Switch to session in quick slot 1.",
    "session_quick_switch_2" => "Switch to session in quick slot 2.",
    "session_quick_switch_3" => "Switch to session in quick slot 3.",
    "session_quick_switch_4" => "Switch to session in quick slot 4.",
    "session_quick_switch_5" => "Switch to session in quick slot 5.",
    "session_quick_switch_6" => "Switch to session in quick slot 6.",
    "session_quick_switch_7" => "Switch to session in quick slot 7.",
    "session_quick_switch_8" => "Switch to session in quick slot 8.",
    "session_quick_switch_9" => "Switch to session in quick slot 9.",
    "stash_delete" => "Delete stash entry.",
    "model_provider_list" => "Open provider list from model dialog.",
    "model_favorite_toggle" => "Toggle model favorite status.",
    "model_list" => "List available models.",
    "model_cycle_recent" => "Next recently used model.",
    "model_cycle_recent_reverse" => "Previous recently used model.",
    "model_cycle_favorite" => "Next favorite model.",
    "model_cycle_favorite_reverse" => "Previous favorite model.",
    "mcp_list" => "List MCP servers.",
    "provider_connect" => "Connect provider.",
    "console_org_switch" => "Switch console organization.",
    "agent_list" => "List agents.",
    "agent_cycle" => "Next agent.",
    "agent_cycle_reverse" => "Previous agent.",
    "variant_cycle" => "Cycle model variants.",
    "variant_list" => "List model variants.",
    "messages_page_up" => "Scroll messages up by one page.",
    "messages_page_down" => "Scroll messages down by one page.",
    "messages_line_up" => "Scroll messages up by one line.",
    "messages_line_down" => "Scroll messages down by one line.",
    "messages_half_page_up" => "Scroll messages up by half page.",
    "messages_half_page_down" => "Scroll messages down by half page.",
    "messages_first" => "Navigate to first message.",
    "messages_last" => "Navigate to last message.",
    "messages_next" => "Navigate to next message.",
    "messages_previous" => "Navigate to previous message.",
    "messages_last_user" => "Navigate to last user message.",
    "messages_copy" => "Copy message.",
    "messages_undo" => "Undo message.",
    "messages_redo" => "Redo message.",
    "messages_toggle_conceal" => "Toggle code block concealment in messages.",
    "tool_details" => "Toggle tool details visibility.",
    "display_thinking" => "Toggle thinking blocks visibility.",
    "prompt_submit" => "Submit prompt.",
    "prompt_editor_context_clear" => "Clear editor context.",
    "prompt_skills" => "Open skill selector.",
    "prompt_stash" => "Stash prompt.",
    "prompt_stash_pop" => "Pop stashed prompt.",
    "prompt_stash_list" => "List stashed prompts.",
    "workspace_set" => "Set workspace.",
    "input_clear" => "Clear input field.",
    "input_paste" => "Paste from clipboard.",
    "input_submit" => "Submit input.",
    "input_newline" => "Insert newline in input.",
    "input_move_left" => "Move cursor left in input.",
    "input_move_right" => "Move cursor right in input.",
    "input_move_up" => "Move cursor up in input.",
    "input_move_down" => "Move cursor down in input.",
    "input_select_left" => "Select left in input.",
    "input_select_right" => "Select right in input.",
    "input_select_up" => "Select up in input.",
    "input_select_down" => "Select down in input.",
    "input_line_home" => "Move to start of line in input.",
    "input_line_end" => "Move to end of line in input.",
    "input_select_line_home" => "Select to start of line in input.",
    "input_select_line_end" => "Select to end of line in input.",
    "input_visual_line_home" => "Move to start of visual line in input.",
    "input_visual_line_end" => "Move to end of visual line in input.",
    "input_select_visual_line_home" => "Select to start of visual line in input.",
    "input_select_visual_line_end" => "Select to end of visual line in input.",
    "input_buffer_home" => "Move to start of buffer in input.",
    "input_buffer_end" => "Move to end of buffer in input.",
    "input_select_buffer_home" => "Select to start of buffer in input.",
    "input_select_buffer_end" => "Select to end of buffer in input.",
    "input_delete_line" => "Delete line in input.",
    "input_delete_to_line_end" => "Delete to end of line in input.",
    "input_delete_to_line_start" => "Delete to start of line in input.",
    "input_backspace" => "Backspace in input.",
    "input_delete" => "Delete character in input.",
    "input_undo" => "Undo in input.",
    "input_redo" => "Redo in input.",
    "input_word_forward" => "Move word forward in input.",
    "input_word_backward" => "Move word backward in input.",
    "input_select_word_forward" => "Select word forward in input.",
    "input_select_word_backward" => "Select word backward in input.",
    "input_delete_word_forward" => "Delete word forward in input.",
    "input_delete_word_backward" => "Delete word backward in input.",
    "input_select_all" => "Select all in input.",
    "history_previous" => "Previous history item.",
    "history_next" => "Next history item.",
    "dialog.select.prev" => "Move to previous dialog item.",
    "dialog.select.next" => "Move to next dialog item.",
    "dialog.select.page_up" => "Move up one page in dialog.",
    "dialog.select.page_down" => "Move down one page in dialog.",
    "dialog.select.home" => "Move to first dialog item.",
    "dialog.select.end" => "Move to last dialog item.",
    "dialog.select.submit" => "Submit selected dialog item.",
    "dialog.prompt.submit" => "Submit dialog prompt.",
    "dialog.mcp.toggle" => "Toggle MCP in MCP dialog.",
    "dialog.move_session.new" => "New project copy.",
    "dialog.move_session.delete" => "Delete project copy.",
    "dialog.move_session.refresh" => "Refresh project copies.",
    "prompt.autocomplete.prev" => "Move to previous autocomplete item.",
    "prompt.autocomplete.next" => "Move to next autocomplete item.",
    "prompt.autocomplete.hide" => "Hide autocomplete.",
    "prompt.autocomplete.select" => "Select autocomplete item.",
    "prompt.autocomplete.complete" => "Complete autocomplete item.",
    "permission.prompt.fullscreen" => "Toggle permission prompt fullscreen.",
    "plugins.toggle" => "Toggle plugin.",
    "dialog.plugins.install" => "Install plugin from plugin dialog.",
    "terminal_suspend" => "Suspend terminal.",
    "terminal_title_toggle" => "Toggle terminal title.",
    "tips_toggle" => "Toggle tips on home screen.",
    "plugin_manager" => "Open plugin manager dialog.",
    "plugin_install" => "Install plugin.",
    "which_key_toggle" => "Toggle which-key panel.",
    "which_key_layout_toggle" => "Switch which-key layout.",
    "which_key_pending_toggle" => "Toggle which-key pending preview.",
    "which_key_group_previous" => "Previous which-key group.",
    "which_key_group_next" => "Next which-key group.",
    "which_key_scroll_up" => "Scroll which-key up.",
    "which_key_scroll_down" => "Scroll which-key down.",
    "which_key_page_up" => "Page which-key up.",
    "which_key_page_down" => "Page which-key down.",
    "which_key_home" => "Jump to first which-key binding.",
    "which_key_end" => "Jump to last which-key binding.",
}

/// The hover text of the key at `path` (keys from the root, the legacy `tui` wrapper already
/// left out): what it does and what it takes; `None` for a key opencode does not read.
pub fn hover(path: &[&str]) -> Option<String> {
    use crate::analysis::shape;
    let found = shape::lookup::field_at(&TUI, path);
    let (owner, f) = found.first()?;
    let what = if path.len() == 2 && path[0] == "keybinds" {
        "keybind"
    } else {
        owner.what
    };
    let mut md = format!(
        "**`{}`** ({what})\n\n{}\n\nValue: {}.",
        f.name,
        f.doc,
        shape::describe(&f.shape)
    );
    if f.required {
        md.push_str(" Required: without it opencode skips the whole file.");
    }
    md.push('\n');
    Some(md)
}

#[cfg(test)]
mod tests;
