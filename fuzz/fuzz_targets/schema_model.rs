//! The schema model on arbitrary input: a JSON text read as a schema either becomes a
//! model or a located error, never a panic, whatever the document holds.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(model) = symgen::model::parse_str("fuzz.schema.json", text) {
        // The outline walks every type the model holds.
        let _ = symgen::model::outline(&model);
    }
});
