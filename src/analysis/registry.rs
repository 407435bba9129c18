//! The registration list's expansions. A dialect is registered by its one `pub mod <module>;`
//! line in the dialect block of `mod.rs`; `build.rs` reads the block into the list
//! `for_each_dialect!` (`Variant => module`, the variant being the module's name in
//! UpperCamelCase), and three files expand it, each into what it holds:
//!
//! - `mod.rs`: each dialect's entry in [`Dialect::spec`](super::Dialect::spec), the unit struct
//!   `<module>::dialect::Spec` that implements [`DialectSpec`](super::spec::DialectSpec);
//! - `dialect.rs`: its [`Dialect`](super::Dialect) variant, in
//!   [`Dialect::ALL`](super::Dialect::ALL) order;
//! - `kind.rs`: its [`FileKind`](super::FileKind) variant, holding `<module>::FileKind`, and its
//!   [`Facts`](super::Facts) variant, holding `<module>::Facts`, with the conversions both ways
//!   ([`Own`]: `kind.own::<<module>::FileKind>()`, `analysis.own::<<module>::Facts>()`, and
//!   `From`).
//!
//! The line after `#[cfg(test)]` registers the test dialect, compiled for tests only. So a
//! dialect is its folder (its `FileKind`, `Facts` and `dialect::Spec`) and its `pub mod` line;
//! nothing else outside the folder names it. (The module stays a plain `mod` line, rather than
//! one a macro declares, so that rustfmt and cargo-mutants, which find files by their `mod`
//! lines, see the folder.)

// `for_each_dialect!`, written by `build.rs` from the dialect block of `mod.rs`.
include!(concat!(env!("OUT_DIR"), "/dialects.rs"));

/// A dialect's own payload of a shared enum: its [`FileKind`](super::FileKind) or its
/// [`Facts`](super::Facts), with the conversions the registration list writes.
pub trait Own<Shared>: Sized {
    /// The payload, when `shared` is this dialect's.
    fn own(shared: &Shared) -> Option<&Self>;
    /// The shared value holding it.
    fn shared(self) -> Shared;
}

/// `mod.rs`'s part of the list: [`Dialect::spec`](super::Dialect::spec).
macro_rules! declare_dialect_specs {
    (test: $test_variant:ident => $test_module:ident; $( $variant:ident => $module:ident, )+) => {
        impl Dialect {
            /// What the dialect knows and does, behind the one interface every dialect implements
            /// ([`spec::DialectSpec`], in its folder's `dialect.rs`).
            pub fn spec(self) -> &'static dyn spec::DialectSpec {
                match self {
                    $( Dialect::$variant => &$module::dialect::Spec, )+
                    #[cfg(test)]
                    Dialect::$test_variant => &$test_module::dialect::Spec,
                }
            }
        }
    };
}

/// `dialect.rs`'s part of the list: the [`Dialect`](super::Dialect) enum and its lists.
macro_rules! declare_dialect_enum {
    (test: $test_variant:ident => $test_module:ident; $( $variant:ident => $module:ident, )+) => {
        /// The agent-file dialects agent-lsp reads, one per line of the registration list
        /// (`registry.rs`); what each knows is behind [`Dialect::spec`].
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Dialect {
            $( $variant, )+
            #[cfg(test)]
            $test_variant,
        }

        impl Dialect {
            /// Every dialect agent-lsp reads, in registration order (the test dialect aside).
            pub const ALL: [Dialect; [$(stringify!($variant)),+].len()] = [$(Dialect::$variant),+];

            /// Every registered dialect, in [`Dialect::ALL`] order, with the test-only one last in
            /// tests: the dialects discovery asks.
            #[cfg(not(test))]
            pub const REGISTERED: &[Dialect] = &Dialect::ALL;
            #[cfg(test)]
            pub const REGISTERED: &[Dialect] = &[$(Dialect::$variant,)+ Dialect::$test_variant];

            /// The dialects `--dialect` takes beyond [`Dialect::ALL`] (the test dialect, in tests).
            #[cfg(test)]
            const TEST_ONLY: &[Dialect] = &[Dialect::$test_variant];
            #[cfg(not(test))]
            const TEST_ONLY: &[Dialect] = &[];
        }
    };
}

/// `kind.rs`'s part of the list: the [`FileKind`](super::FileKind) and [`Facts`](super::Facts)
/// enums, and the conversions of each dialect's own.
macro_rules! declare_kinds {
    (test: $test_variant:ident => $test_module:ident; $( $variant:ident => $module:ident, )+) => {
        /// What a file is: its dialect and its role in that dialect (the dialect's own
        /// `FileKind`), or a file several dialects read.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub enum FileKind {
            $( $variant(crate::analysis::$module::FileKind), )+
            #[cfg(test)]
            $test_variant(crate::analysis::$test_module::FileKind),
            /// A `SKILL.md`, read by several runtimes.
            Skill(skill::SkillKind),
            /// A Markdown command (`/name`).
            Command(command::CommandKind),
            /// `agent-lsp.toml`: agent-lsp's own settings for a project.
            ProjectFile,
        }

        impl FileKind {
            /// The dialect whose own kind this is (`None`: a skill, a command, `agent-lsp.toml`).
            fn registered_dialect(&self) -> Option<Dialect> {
                match self {
                    $( FileKind::$variant(_) => Some(Dialect::$variant), )+
                    #[cfg(test)]
                    FileKind::$test_variant(_) => Some(Dialect::$test_variant),
                    FileKind::Skill(_) | FileKind::Command(_) | FileKind::ProjectFile => None,
                }
            }
        }

        /// What a file declares: its dialect's own `Facts`, or those of a file several dialects
        /// read.
        #[derive(Clone, Debug, Default)]
        pub enum Facts {
            /// Nothing (a file not analysed, or a kind that declares nothing).
            #[default]
            None,
            $( $variant(Box<crate::analysis::$module::Facts>), )+
            #[cfg(test)]
            $test_variant(Box<crate::analysis::$test_module::Facts>),
            /// `SKILL.md` files: the skill declared.
            Skill(Box<skill::SkillDecl>),
            /// Command files: the command declared.
            Command(Box<command::CommandDecl>),
            /// `agent-lsp.toml`: what it sets.
            Project(Box<project_file::ProjectFile>),
        }

        impl Facts {
            /// The dialect whose own facts these are (`None`: a skill's, a command's, the
            /// project file's, or none).
            fn registered_dialect(&self) -> Option<Dialect> {
                match self {
                    $( Facts::$variant(_) => Some(Dialect::$variant), )+
                    #[cfg(test)]
                    Facts::$test_variant(_) => Some(Dialect::$test_variant),
                    Facts::None | Facts::Skill(_) | Facts::Command(_) | Facts::Project(_) => None,
                }
            }
        }

        declare_kinds!(@own $( $variant => $module, )+);
        #[cfg(test)]
        declare_kinds!(@own $test_variant => $test_module,);
    };
    (@own $( $variant:ident => $module:ident, )+) => {
        $(
            impl Own<FileKind> for crate::analysis::$module::FileKind {
                fn own(shared: &FileKind) -> Option<&Self> {
                    match shared {
                        FileKind::$variant(k) => Some(k),
                        _ => None,
                    }
                }
                fn shared(self) -> FileKind {
                    FileKind::$variant(self)
                }
            }

            impl From<crate::analysis::$module::FileKind> for FileKind {
                fn from(k: crate::analysis::$module::FileKind) -> FileKind {
                    FileKind::$variant(k)
                }
            }

            impl Own<Facts> for crate::analysis::$module::Facts {
                fn own(shared: &Facts) -> Option<&Self> {
                    match shared {
                        Facts::$variant(f) => Some(f),
                        _ => None,
                    }
                }
                fn shared(self) -> Facts {
                    Facts::$variant(Box::new(self))
                }
            }

            impl From<crate::analysis::$module::Facts> for Facts {
                fn from(f: crate::analysis::$module::Facts) -> Facts {
                    Facts::$variant(Box::new(f))
                }
            }
        )+
    };
}
