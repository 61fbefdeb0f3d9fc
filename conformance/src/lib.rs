//! cranecl conformance suite helpers.
