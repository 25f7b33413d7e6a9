//! The vocabulary of the code graph: symbols, files, edges and their kinds.
//!
//! These types are what the index stores and what every query returns, whichever store
//! holds them (the embedded one, or a server behind [`super::GraphStore`]). They are plain
//! data so that they serialize into the cache file as they are.

use serde::{Deserialize, Serialize};

/// Index of a symbol in the graph; stable for one build of the graph only.
pub type SymbolId = u32;
/// Index of a file in the graph; stable for one build of the graph only.
pub type FileId = u32;

/// The eight kinds of the contract. `kind` arguments are parsed strictly into these.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A package- or module-level function.
    Function,
    /// A method: Go receiver function, Go interface method, Python function in a class.
    Method,
    /// A Go struct type; a Rust struct or union.
    Struct,
    /// A Go or TypeScript interface, a Rust trait, a Java interface or annotation type.
    Interface,
    /// A Python, TypeScript or Java class (a Java record too).
    Class,
    /// Any other named type: Go `type IssueID int64`, aliases, Python type aliases, Rust
    /// and Java enums.
    Type,
    /// A package-level constant (Go `const`, Python `UPPER_CASE = ...`).
    Const,
    /// A package-level variable.
    Var,
}

impl Kind {
    /// Every kind, in the order error messages list them.
    pub const ALL: [Kind; 8] = [
        Kind::Function,
        Kind::Method,
        Kind::Struct,
        Kind::Interface,
        Kind::Class,
        Kind::Type,
        Kind::Const,
        Kind::Var,
    ];

    /// The name used in arguments and output (`function`, `method`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Function => "function",
            Kind::Method => "method",
            Kind::Struct => "struct",
            Kind::Interface => "interface",
            Kind::Class => "class",
            Kind::Type => "type",
            Kind::Const => "const",
            Kind::Var => "var",
        }
    }

    /// Parses a kind name exactly as the contract spells it.
    pub fn parse(s: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.as_str() == s)
    }

    /// Functions and methods: the kinds that call and are called.
    pub fn is_callable(self) -> bool {
        matches!(self, Kind::Function | Kind::Method)
    }

    /// Variables and constants: kinds whose usages are reads, not type mentions.
    pub fn is_value(self) -> bool {
        matches!(self, Kind::Var | Kind::Const)
    }

    /// Kinds that name a type (and so can have methods, implementations and usages).
    pub fn is_type(self) -> bool {
        matches!(
            self,
            Kind::Struct | Kind::Interface | Kind::Class | Kind::Type
        )
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The languages the graph understands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Language {
    /// `.go` files.
    Go,
    /// `.py` files.
    Python,
    /// `.ts`, `.mts`, `.cts` files.
    TypeScript,
    /// `.tsx` files: TypeScript with JSX (another grammar).
    Tsx,
    /// `.js`, `.jsx`, `.mjs`, `.cjs` files.
    JavaScript,
    /// `.rs` files.
    Rust,
    /// `.java` files.
    Java,
}

impl Language {
    /// Whether its extraction records the names a body reads or assigns
    /// ([`RawSymbol::reads`](super::extract::RawSymbol)), so that the usages of a
    /// module-level variable or constant can be answered from the graph.
    pub fn tracks_reads(self) -> bool {
        matches!(
            self,
            Language::Go
                | Language::Python
                | Language::TypeScript
                | Language::Tsx
                | Language::JavaScript
                | Language::Rust
        )
    }

    /// The language of a file name, from its extension.
    pub fn of_path(path: &str) -> Option<Language> {
        let ext = path.rsplit_once('.').map_or("", |(_, e)| e);
        match ext {
            "go" => Some(Language::Go),
            "py" => Some(Language::Python),
            "ts" | "mts" | "cts" => Some(Language::TypeScript),
            "tsx" => Some(Language::Tsx),
            "js" | "jsx" | "mjs" | "cjs" => Some(Language::JavaScript),
            "rs" => Some(Language::Rust),
            "java" => Some(Language::Java),
            _ => None,
        }
    }

    /// Lower-case name, as printed by `explore index`.
    pub fn as_str(self) -> &'static str {
        match self {
            Language::Go => "go",
            Language::Python => "python",
            Language::TypeScript => "typescript",
            Language::Tsx => "tsx",
            Language::JavaScript => "javascript",
            Language::Rust => "rust",
            Language::Java => "java",
        }
    }

    /// Every language, in the order `explore index` lists them.
    pub const ALL: [Language; 7] = [
        Language::Go,
        Language::Python,
        Language::TypeScript,
        Language::Tsx,
        Language::JavaScript,
        Language::Rust,
        Language::Java,
    ];

    /// Parses the name [`Language::as_str`] gives.
    pub fn parse(s: &str) -> Option<Language> {
        Language::ALL.into_iter().find(|l| l.as_str() == s)
    }

    /// Languages whose code calls and imports each other's definitions: TypeScript, TSX
    /// and JavaScript are one family; every other language is its own.
    pub fn family(self) -> Language {
        match self {
            Language::JavaScript | Language::Tsx => Language::TypeScript,
            other => other,
        }
    }
}

/// The relations the graph records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum EdgeKind {
    /// Function or method → the function or method it calls (line = the call site).
    Calls,
    /// Type → the interface it satisfies (Go), the class or interface it extends or
    /// implements directly (Python, TypeScript, Java), the trait it has an `impl` for
    /// (Rust; the line is the `impl` block's when it is in the type's file).
    Implements,
    /// Type → its methods (Go receiver type, Python class, Go interface methods).
    Contains,
    /// Function or method → a type named in its parameters or results. Go: a function,
    /// method or package-level variable → a package-level variable or constant it reads
    /// or assigns, one edge per line (the line is where).
    Uses,
}

impl EdgeKind {
    /// Every edge kind, in the order stats list them.
    pub const ALL: [EdgeKind; 4] = [
        EdgeKind::Calls,
        EdgeKind::Implements,
        EdgeKind::Contains,
        EdgeKind::Uses,
    ];

    /// Lower-case name (`calls`, `implements`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            EdgeKind::Calls => "calls",
            EdgeKind::Implements => "implements",
            EdgeKind::Contains => "contains",
            EdgeKind::Uses => "uses",
        }
    }
}

/// One definition in the repository.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Symbol {
    /// The bare name: `Plan`.
    pub name: String,
    /// The name shown to the model, qualified by its type: `Planner.Plan`, `Settings.Config`.
    pub display: String,
    /// The fully qualified name: `example.com/relay/internal/brain.Planner.Plan`,
    /// `ledger.storage.base.Repository.save`.
    pub qname: String,
    /// What it is.
    pub kind: Kind,
    /// The file it is defined in.
    pub file: FileId,
    /// Repo-relative path with `/` separators.
    pub path: String,
    /// First line of the definition (the `func`/`type`/`def`/`class` line), 1-based.
    pub line: u32,
    /// Last line of the definition, inclusive.
    pub end_line: u32,
    /// The definition's first line, trimmed (`func (p *Planner) Plan(...) (*Plan, error)`).
    pub signature: String,
    /// The first line of its doc comment or docstring.
    pub doc: Option<String>,
    /// Defined in test code ([`crate::paths::is_test_code`]).
    pub is_test: bool,
    /// Defined in vendored code ([`crate::paths::VENDORED_DIRS`]).
    pub is_vendored: bool,
    /// Defined in generated code, by its name or its header ([`crate::paths::is_generated`]).
    pub is_generated: bool,
}

impl Symbol {
    /// Whether the symbol is first-party, hand-written, non-test code.
    pub fn is_source(&self) -> bool {
        !(self.is_test || self.is_vendored || self.is_generated)
    }

    /// Rank class for ordering: source 0, tests 1, vendored or generated 2.
    pub fn rank_class(&self) -> u8 {
        if self.is_vendored || self.is_generated {
            2
        } else if self.is_test {
            1
        } else {
            0
        }
    }
}

/// One indexed file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileInfo {
    /// Repo-relative path with `/` separators.
    pub path: String,
    /// Its language.
    pub language: Language,
    /// Number of lines.
    pub lines: u32,
    /// A test file.
    pub is_test: bool,
    /// Vendored code.
    pub is_vendored: bool,
    /// Generated code.
    pub is_generated: bool,
}

/// One relation between two symbols.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Edge {
    /// Source symbol (the caller, the implementing type, the containing type, the user).
    pub from: SymbolId,
    /// Target symbol.
    pub to: SymbolId,
    /// The relation.
    pub kind: EdgeKind,
    /// For calls and Go reads of a variable or constant, the line of the site in `from`'s
    /// file; otherwise `from`'s line.
    pub line: u32,
    /// The target was guessed from the name alone (the receiver's type was unknown).
    pub inferred: bool,
}
