use expect_test::{Expect, expect};

use super::*;

/// The imports of `text`, one a line: the path Claude Code reads and the text it is written as.
fn check(text: &str, expected: Expect) {
    let out: Vec<String> = imports(text)
        .iter()
        .map(|r| format!("{} <- {:?}", r.path, &text[r.span.start as usize..r.span.end as usize]))
        .collect();
    expected.assert_eq(&out.join("\n"));
}

#[test]
fn plain_imports_and_where_they_start() {
    check(
        "See @README.md and @docs/guide.md.\n@./local.md\n- @~/notes.md\n\t@/etc/x.md\n",
        expect![[r#"
            README.md <- "README.md"
            docs/guide.md. <- "docs/guide.md."
            ./local.md <- "./local.md"
            ~/notes.md <- "~/notes.md"
            /etc/x.md <- "/etc/x.md""#]],
    );
}

#[test]
fn trailing_punctuation_is_part_of_the_path() {
    check(
        "Read @a.md, then @b.md.\n",
        expect![[r#"
            a.md, <- "a.md,"
            b.md. <- "b.md.""#]],
    );
}

#[test]
fn not_after_a_word_an_email_or_another_at() {
    check(
        "mail me@example.com, @@x.md, a@b.md, @ alone, @/ root, @#anchor, @*x\n",
        expect![[""]],
    );
}

#[test]
fn anchors_are_cut_off() {
    check(
        "@guide.md#setup and @#only and @notes#\n",
        expect![[r#"
            guide.md <- "guide.md#setup"
            notes <- "notes#""#]],
    );
}

#[test]
fn escaped_blanks_stay_in_the_path_a_backslash_ends_it_otherwise() {
    check(
        "@my\\ notes.md and @a\\b.md and \\@escaped.md\n",
        expect![[r#"
            my notes.md <- "my\\ notes.md"
            a <- "a""#]],
    );
}

#[test]
fn code_spans_and_blocks_are_left_out() {
    check(
        "Use `@inline.md` here, ``@double.md``, @after.md\n\n```\n@fenced.md\n```\n\n~~~md\n@tilde.md\n~~~\n\n    @indented.md\n\n@last.md\n",
        expect![[r#"
            after.md <- "after.md"
            last.md <- "last.md""#]],
    );
}

#[test]
fn a_code_span_right_after_a_path_ends_it_at_its_opening_backtick() {
    // The span is left out from its first backtick on: `x` is not part of the path.
    check(
        "See @notes.md`x` here and @b.md``y``.\n",
        expect![[r#"
            notes.md <- "notes.md"
            b.md <- "b.md""#]],
    );
}

#[test]
fn an_unclosed_fence_runs_to_the_end() {
    check(
        "@before.md\n```\n@inside.md\n",
        expect![[r#"before.md <- "before.md""#]],
    );
}

#[test]
fn html_blocks_are_left_out_but_a_comment_blocks_text_counts() {
    check(
        "<div>\n@in-div.md\n</div>\n\n<!-- @in-comment.md --> @after-comment.md\n\n<!--\n@multi.md\n-->\n",
        expect![[r#"after-comment.md <- "after-comment.md""#]],
    );
}

#[test]
fn inline_html_is_left_out_the_text_between_tags_counts() {
    check(
        "a <span title=\"@attr.md\">@between.md</span> <!-- @c.md --> @end.md\n",
        expect![[r#"
            between.md <- "between.md"
            end.md <- "end.md""#]],
    );
}

#[test]
fn links_and_emphasis() {
    check(
        "[@text.md](@dest.md) ![@alt.md](x.png) *@em.md* **@strong.md**\n",
        expect![[r#"
            text.md <- "text.md"
            em.md <- "em.md"
            strong.md <- "strong.md""#]],
    );
}

#[test]
fn frontmatter_is_not_the_body() {
    check(
        "---\npaths: \"@front.md\"\n---\n@body.md\n",
        expect![[r#"body.md <- "body.md""#]],
    );
}

#[test]
fn block_quotes_and_lists_hold_text() {
    check(
        "> @quoted.md\n\n1. @item.md\n   - @nested.md\n",
        expect![[r#"
            quoted.md <- "quoted.md"
            item.md <- "item.md"
            nested.md <- "nested.md""#]],
    );
}

#[test]
fn a_list_item_s_text_is_indented_less_than_its_code() {
    // The item's text starts 2 columns in: 4 columns is its paragraph, 6 its indented code.
    check(
        "- item\n\n    @in-item.md\n\n- item\n\n      @code.md\n",
        expect![[r#"in-item.md <- "in-item.md""#]],
    );
}

#[test]
fn text_after_a_comment_counts_up_to_what_starts_there() {
    // Up to the line's end; a code span that starts right at the comment's end leaves nothing.
    check(
        "<!-- c --> @after.md\n\n<!-- c -->`@code.md` x\n",
        expect![[r#"after.md <- "after.md""#]],
    );
}

#[test]
fn extensions_and_text_files() {
    assert_eq!(extension("a/b.MD"), Some("MD"));
    assert_eq!(extension("NOTES"), None);
    assert_eq!(extension(".env"), None);
    assert_eq!(extension("a."), Some(""));
    assert!(is_text("a/b.MD"));
    assert!(is_text("Makefile"));
    assert!(!is_text("logo.png"));
    assert!(!is_text("a."));
}

#[test]
fn analyze_reads_the_imports_of_the_body() {
    let (_, memory) = analyze("---\nx: 1\n---\n@a.md\n");
    assert_eq!(memory.imports.len(), 1);
    assert_eq!(memory.imports[0].path, "a.md");
}
