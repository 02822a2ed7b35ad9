use super::*;

fn text(doc: &Document, key: &str) -> String {
    doc.fields.get(key).map(|v| v.text().to_owned()).unwrap_or_else(|| panic!("no {key}: {doc:?}"))
}

#[test]
fn a_skill_s_plain_fields_and_its_body() {
    let doc = parse(
        "---\nname: pdf\ndescription: Fill and read PDF forms. # a comment\n---\n# PDF\n\nUse pypdf.\n",
    );
    assert_eq!(text(&doc, "name"), "pdf");
    assert_eq!(text(&doc, "description"), "Fill and read PDF forms.");
    assert_eq!(doc.body, "# PDF\n\nUse pypdf.\n");
}

#[test]
fn quoted_values_are_unescaped_and_keep_their_hash_signs() {
    let doc = parse("---\na: \"say \\\"hi\\\" # not a comment\"\nb: 'it''s'\n---\n");
    assert_eq!(text(&doc, "a"), "say \"hi\" # not a comment");
    assert_eq!(text(&doc, "b"), "it's");
}

#[test]
fn folded_and_literal_blocks_and_plain_text_over_several_lines() {
    let doc = parse(
        "---\nfolded: >\n  one\n  two\n\n  three\nliteral: |\n  line 1\n    line 2\nplain: starts here\n  and goes on\n---\nbody",
    );
    assert_eq!(text(&doc, "folded"), "one two\nthree");
    assert_eq!(text(&doc, "literal"), "line 1\n  line 2");
    assert_eq!(text(&doc, "plain"), "starts here and goes on");
    assert_eq!(doc.body, "body");
}

#[test]
fn lists_in_flow_and_block_form_and_as_comma_separated_text() {
    let doc = parse(
        "---\nargument-hint: [message]\nallowed-tools: Bash(git add:*), Bash(git status:*), Read\ntools:\n  - Read\n  - \"Grep\"\n---\n",
    );
    assert_eq!(text(&doc, "argument-hint"), "[message]", "a hint shows as written");
    assert_eq!(doc.fields["argument-hint"].items(), ["message"]);
    assert_eq!(doc.fields["allowed-tools"].items(), ["Bash(git add:*)", "Bash(git status:*)", "Read"]);
    assert_eq!(doc.fields["tools"].items(), ["Read", "Grep"]);
}

#[test]
fn a_nested_mapping_is_kept_raw_and_does_not_end_the_fields() {
    let doc = parse("---\nmetadata:\n  version: 1.0\n  author: x\nname: after\n---\n");
    assert_eq!(text(&doc, "metadata"), "version: 1.0\nauthor: x");
    assert_eq!(text(&doc, "name"), "after");
}

#[test]
fn without_an_opening_or_a_closing_line_everything_is_body() {
    for source in ["# Title\nname: x\n", "---\nname: x\nno end here\n", "", "\u{feff}plain"] {
        let doc = parse(source);
        assert!(doc.fields.is_empty(), "{source:?}: {doc:?}");
        assert_eq!(doc.body, source.trim_start_matches('\u{feff}'), "{source:?}");
    }
}

#[test]
fn crlf_files_and_a_byte_order_mark_are_read() {
    let doc = parse("\u{feff}---\r\nname: win\r\ndescription: from Windows\r\n---\r\nbody\r\n");
    assert_eq!(text(&doc, "name"), "win");
    assert_eq!(text(&doc, "description"), "from Windows");
    assert_eq!(doc.body, "body\r\n");
}

#[test]
fn lines_it_does_not_understand_are_left_out_and_nothing_panics() {
    let doc = parse("---\njust words\n: no key\nkey with space: x\nok: yes\n\"quoted key\": v\n[: ]\n---\n");
    assert_eq!(text(&doc, "ok"), "yes");
    assert_eq!(text(&doc, "quoted key"), "v");
    assert!(!doc.fields.contains_key("key with space"));
    for hostile in
        ["---\na: \"\\", "---\na: [\n---\n", "---\na: '\n---\n", "---\n- x\n---\n", "---\na: >\n---\n"]
    {
        let _ = parse(hostile);
    }
}
