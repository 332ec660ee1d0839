//! Every generator on arbitrary schemas: each renders files or returns a located
//! error, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use symgen::emit::{self, Input};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let texts = [("fuzz.schema.json".to_owned(), text.to_owned())];
    let Ok(modules) = emit::modules_from_texts(&texts) else {
        return;
    };
    let options = toml::Table::new();
    for backend in emit::backends() {
        let input = Input {
            modules: &modules,
            options: &options,
            vectors: None,
        };
        let _ = backend.render(&input);
    }
});
