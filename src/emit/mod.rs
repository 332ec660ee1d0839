//! Code generators that render the schema model ([`crate::model`]) into other languages.

pub mod swift;
