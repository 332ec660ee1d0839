//! Every generator on arbitrary schemas: each renders files or returns a located
//! error, never a panic; and no text from the schema becomes code. Schema text that
//! holds `@@` (no template writes it; the seeds in fuzz/seeds/generate/ carry it next to
//! comment and string terminators) must never show up outside a comment or a string
//! literal, and every comment and string a file opens must end
//! (tests/it/support/code_tokens.rs, shared with the property test). The message
//! reference renders too, and `symgen breaking` finds no change between a schema and
//! itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use symgen::emit;

#[path = "../../tests/it/support/code_tokens.rs"]
#[allow(dead_code)]
mod code_tokens;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let texts = [("fuzz.schema.json".to_owned(), text.to_owned())];
    let Ok(modules) = emit::modules_from_texts(&texts) else {
        return;
    };
    if let Err(why) = code_tokens::render_and_check(&modules) {
        panic!("{why}");
    }
    if let Err(why) = symgen::docs::render(&modules, None) {
        panic!("the message reference failed: {why}");
    }
    match symgen::breaking::compare(&texts, &texts) {
        Ok(changes) => assert!(changes.is_empty(), "a schema differs from itself: {changes:?}"),
        Err(why) => panic!("breaking failed on a schema that parses: {why}"),
    }
});
