//! The schema model on arbitrary input: a text read as a schema, as JSON and as YAML,
//! either becomes a model or a located error, never a panic, whatever the document holds.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for name in ["fuzz.schema.json", "fuzz.schema.yaml"] {
        if let Ok(model) = symgen::model::parse_str(name, text) {
            // The outline walks every type the model holds.
            let _ = symgen::model::outline(&model);
        }
    }
});
