//! A guarded decoder for untrusted pickles: PySolFC's `statistics.dat`, its held game
//! (`holdgame.dat`) and its saved games, read without running any code.
//!
//! Two passes over each pickle. First the walker ([`check`]) reads the opcode stream once
//! without building any value (only a small object graph of ids) and rejects, with an
//! offset, anything outside what PySolFC's picklers produce:
//!
//! * opcodes of protocols 0 to 5 that build plain data (numbers, strings, tuples, lists,
//!   dicts, sets) plus class references and instances of the classes the caller allows:
//!   `GLOBAL`/`STACK_GLOBAL`, `NEWOBJ`/`NEWOBJ_EX`, Python 2's `OBJ`/`INST`, `REDUCE` whose
//!   callable is an allowed class, and `BUILD`; `PERSID`, `EXT*`, out-of-band buffers and
//!   `DUP` are refused (Python's pickler never emits `DUP`);
//! * a declared length larger than the bytes that follow (checked before any allocation);
//! * more open marks, stack items, objects or memo entries than [`Limits`] allows;
//! * after `STOP`: a cyclic object graph, a nesting depth or a fully expanded size (every
//!   shared reference counted as a copy) over the limits.
//!
//! Then the builder ([`decode`], [`Unpickler::load`]) makes the [`Value`]: instances become
//! [`Object`]s (class module and name, constructor arguments, `BUILD` state), never calls.
//! Bytes after the first pickle's `STOP` are not an error (Python's `pickle.load` ignores
//! them too): [`Summary::trailing`] counts them. [`Unpickler`] reads a file that is a
//! sequence of pickles (PySolFC's saved games), with one memo for the whole stream as
//! Python's `Unpickler` keeps it; [`Unpickler::skip`] passes over an item the reader does
//! not use (walked with every check but the after-`STOP` ones, never turned into a value).
//!
//! Opcode values follow CPython's `Lib/pickle.py` and `Lib/pickletools.py`.

use std::collections::HashMap;

/// Resource limits for [`check`]. The defaults allow statistics files far larger than any
/// real one (a player with 10 000 finished games writes about 1 MiB).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest accepted input, in bytes.
    pub max_bytes: usize,
    /// Most simultaneously open `MARK`s.
    pub max_open_marks: usize,
    /// Most items on the pickle machine's stack at once (all mark frames together).
    pub max_stack: usize,
    /// Most objects (containers, strings, classes) plus memo entries plus references
    /// between objects that the stream may create in total.
    pub max_objects: usize,
    /// Deepest nesting of containers in the decoded value (the root container is depth 1).
    pub max_depth: usize,
    /// Largest size of the fully expanded value, in units of one scalar or 16 string bytes.
    pub max_expanded: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_bytes: 16 << 20,
            max_open_marks: 256,
            max_stack: 100_000,
            max_objects: 2_000_000,
            max_depth: 64,
            max_expanded: 8_000_000,
        }
    }
}

/// Why a pickle was refused. Offsets are byte positions of the offending opcode.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PickleError {
    /// The input has no bytes at all.
    #[error("empty file (0 bytes): not a pickle")]
    Empty,
    /// The input is larger than [`Limits::max_bytes`].
    #[error("file too large: {size} bytes (limit {max})")]
    TooLarge {
        /// Input size in bytes.
        size: usize,
        /// The limit in bytes.
        max: usize,
    },
    /// The stream ends inside an opcode or before `STOP`.
    #[error("truncated pickle: input ends at byte {offset} inside or before {what}")]
    Truncated {
        /// Where the input ended.
        offset: usize,
        /// The opcode (or "STOP") being read.
        what: &'static str,
    },
    /// `PROTO` names a protocol this decoder does not know (above 5).
    #[error("unsupported pickle protocol {0} (supported: 0 to 5)")]
    Protocol(u8),
    /// A byte that is not a pickle opcode, or one this guard refuses.
    #[error("byte {offset}: {what} (0x{opcode:02x})")]
    Opcode {
        /// Position of the opcode.
        offset: usize,
        /// Its byte value.
        opcode: u8,
        /// Why it is refused.
        what: &'static str,
    },
    /// A class reference outside the allow-list.
    #[error("byte {offset}: class {module}.{name} is not one of the PySolFC classes allowed here")]
    UnknownClass {
        /// Position of the `GLOBAL`/`STACK_GLOBAL`/`INST` opcode.
        offset: usize,
        /// Module part of the reference.
        module: String,
        /// Attribute part of the reference.
        name: String,
    },
    /// A length prefix larger than the rest of the input.
    #[error(
        "byte {offset}: declared length {declared} exceeds the {} left",
        crate::plural(.remaining, "byte")
    )]
    Length {
        /// Position of the opcode.
        offset: usize,
        /// The declared length.
        declared: u64,
        /// Bytes left after the length field.
        remaining: usize,
    },
    /// The stream is well-formed bytewise but does not make sense as a pickle program.
    #[error("byte {offset}: malformed pickle: {reason}")]
    Malformed {
        /// Position of the opcode.
        offset: usize,
        /// What is wrong.
        reason: String,
    },
    /// A resource limit from [`Limits`] was hit.
    #[error("pickle exceeds a safety limit: {0}")]
    Limit(String),
}

/// What [`check`] learnt about an accepted pickle.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    /// The `PROTO` value, if the stream has one (protocols 0 and 1 have none).
    pub protocol: Option<u8>,
    /// Every distinct `(module, class)` referenced, in first-use order.
    pub classes: Vec<(String, String)>,
    /// Nesting depth of the decoded value.
    pub depth: usize,
    /// Fully expanded size (see [`Limits::max_expanded`]).
    pub expanded: u64,
    /// Byte offset just after the pickle's `STOP`.
    pub end: usize,
    /// Bytes after `STOP` (ignored, as Python's `pickle.load` ignores them).
    pub trailing: usize,
}

/// Longest `LONG1`/`LONG4` integer accepted, in bytes (PySolFC's deal seeds carry bit 1000,
/// 126 bytes).
pub const MAX_LONG_BYTES: usize = 256;

mod decode;
mod measure;
mod opcodes;
mod value;
mod vm;

pub use value::{Object, Value};
use vm::Vm;

/// Check the first pickle in `data` against `limits`, allowing only the `(module, class)`
/// pairs in `allowed`. Bytes after its `STOP` are counted in [`Summary::trailing`], not
/// refused.
///
/// Errors: see [`PickleError`]; never panics, and uses memory proportional to the input
/// (bounded by the limits).
pub fn check(
    data: &[u8],
    limits: &Limits,
    allowed: &[(&str, &str)],
) -> Result<Summary, PickleError> {
    let mut u = Unpickler::new(data, limits, allowed)?;
    u.check_next()?;
    Ok(u.summary.clone())
}

/// Check and decode the first pickle in `data` (see [`check`]); returns its value and the
/// summary, whose [`Summary::trailing`] counts the ignored bytes after it.
///
/// Errors: see [`PickleError`]; never panics.
pub fn decode(
    data: &[u8],
    limits: &Limits,
    allowed: &[(&str, &str)],
) -> Result<(Value, Summary), PickleError> {
    let mut u = Unpickler::new(data, limits, allowed)?;
    let v = u.load()?;
    Ok((v, u.summary.clone()))
}

/// Reads a sequence of pickles from one buffer, like Python's `Unpickler(f).load()` called
/// repeatedly: one memo for the whole stream (a later pickle may refer to an earlier one's
/// objects), each pickle checked by the walker before it is decoded, and the fully expanded
/// size summed over all of them held to [`Limits::max_expanded`].
pub struct Unpickler<'a> {
    vm: Vm<'a>,
    dec: decode::Decoder,
    expanded_total: u64,
    summary: Summary,
}

impl<'a> Unpickler<'a> {
    /// A reader over `data`. Errors: [`PickleError::Empty`], [`PickleError::TooLarge`].
    pub fn new(
        data: &'a [u8],
        limits: &Limits,
        allowed: &'a [(&'a str, &'a str)],
    ) -> Result<Unpickler<'a>, PickleError> {
        if data.is_empty() {
            return Err(PickleError::Empty);
        }
        if data.len() > limits.max_bytes {
            return Err(PickleError::TooLarge {
                size: data.len(),
                max: limits.max_bytes,
            });
        }
        Ok(Unpickler {
            vm: Vm {
                data,
                pos: 0,
                op_at: 0,
                limits: *limits,
                allowed,
                nodes: Vec::new(),
                stack: Vec::new(),
                marks: Vec::new(),
                memo: HashMap::new(),
                objects: 0,
                summary: Summary::default(),
            },
            dec: decode::Decoder::default(),
            expanded_total: 0,
            summary: Summary::default(),
        })
    }

    /// Byte offset of the next pickle (after the last one read).
    pub fn position(&self) -> usize {
        self.vm.pos
    }

    /// Bytes not read yet.
    pub fn remaining(&self) -> usize {
        self.vm.data.len() - self.vm.pos
    }

    /// What the walker learnt about the last pickle read (classes: all so far).
    pub fn summary(&self) -> &Summary {
        &self.summary
    }

    /// Walk the next pickle; returns where it started.
    fn check_next(&mut self) -> Result<usize, PickleError> {
        let (start, root) = self.walk_next()?;
        let (depth, expanded) = self.vm.measure(root)?;
        self.expanded_total = self.expanded_total.saturating_add(expanded);
        if self.expanded_total > self.vm.limits.max_expanded {
            return Err(PickleError::Limit(format!(
                "expanded size over {} units (shared objects are copied when decoded)",
                self.vm.limits.max_expanded
            )));
        }
        let mut summary = self.vm.summary.clone();
        summary.depth = depth;
        summary.expanded = expanded;
        summary.end = self.vm.pos;
        summary.trailing = self.vm.data.len() - self.vm.pos;
        self.summary = summary;
        Ok(start)
    }

    /// Walk the next pickle's opcodes (the walker's checks up to `STOP`); where it started
    /// and its root.
    fn walk_next(&mut self) -> Result<(usize, vm::Item), PickleError> {
        let start = self.vm.pos;
        if start >= self.vm.data.len() {
            return Err(PickleError::Truncated {
                offset: start,
                what: "the next pickle",
            });
        }
        Ok((start, self.vm.run()?))
    }

    /// Check and decode the next pickle. Errors: [`PickleError`] (at the end of the input:
    /// [`PickleError::Truncated`] naming "the next pickle").
    pub fn load(&mut self) -> Result<Value, PickleError> {
        let start = self.check_next()?;
        self.dec.load(self.vm.data, start, self.vm.pos)
    }

    /// Pass over the next pickle without making its value: its opcodes are walked with every
    /// check but the after-`STOP` ones (its object graph may be cyclic, as a Mersenne Twister
    /// generator's pickle is: the instance's state holds its own bound method), and built
    /// so that the shared memo stays in step, but nothing of it is ever copied out: a later
    /// pickle that refers to it is refused. For an item the reader does not use.
    /// Errors: as [`Unpickler::load`], but for the after-`STOP` checks.
    pub fn skip(&mut self) -> Result<(), PickleError> {
        let (start, _) = self.walk_next()?;
        self.dec.skip(self.vm.data, start, self.vm.pos)
    }
}

fn leaf_weight(bytes: usize) -> u64 {
    1 + bytes as u64 / 16
}
