//! Helpers shared by the test modules.
// Not every module uses every helper.
#![allow(dead_code)]

pub mod cli;
pub mod schema_gen;
pub mod vectors;

#[path = "../../../benches/support/mod.rs"]
pub mod bench;
