//! Team policies over agents' permission rules.
//!
//! A policy says "for permission P, every input matching one of these patterns gets at most this
//! decision". [`solve`] proves, over every input rather than a sample, which rules of an agent
//! can decide an input of the policy's language, each with a shortest input that shows it.

pub mod solve;
