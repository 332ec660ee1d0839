//! Shared code of the benchmarks (and of the test that checks their corpora): the
//! deterministic corpus generators and the approaches being measured.
#![allow(dead_code)]

pub mod approaches;
pub mod corpus;
pub mod corpus_bus;
pub mod corpus_other;
pub mod faults;
pub mod node;
pub mod synthetic_schema;
pub mod values;
