//! The toolkit's integration tests, in one binary (one link, one run): each module
//! tests one part against the seed protocols (`symgen-protocols`, a dev-dependency),
//! the fixture schemas or the plain `symgen` binary.
//!
//! The command line with the seed protocols registered (`cargo xtask`) is tested in
//! `xtask/tests/cli/`: only its own package's tests can run that binary.

mod support;

mod bench_inputs;
mod breaking;
mod docs;
mod emit_snapshots;
mod injection;
mod json_schema_test_suite;
mod model;
mod project_errors;
mod python_package;
mod quick_decode;
mod readme;
mod schemars_fixture;
mod serde_fidelity;
mod shared_types;
mod swift_package;
mod typescript_package;
mod validate_agreement;
mod validate_checks_real;
mod validate_faults;
mod validate_vectors;
mod vectors;
mod vectors_generated;
mod wire;
mod yaml_schemas;
